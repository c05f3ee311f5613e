import SceneFlow
package import SceneJSON

/// What the registry does when an immersive space opens while another one is open.
public enum ImmersivePolicy: String, Hashable, Sendable, Codable {
    /// Refuse with `immersive_space_busy`, as visionOS does.
    case reject
    /// Dismiss the open one first.
    case replace
}

/// The facts about a declaration that the bookkeeping needs.
package struct SceneFacts: Sendable {
    package let kind: SceneKind
    package let policy: InstancePolicy

    package init(kind: SceneKind, policy: InstancePolicy) {
        self.kind = kind
        self.policy = policy
    }
}

/// One instance as the bookkeeping sees it.
package struct InstanceRecord: Sendable {
    package let id: InstanceID
    package let kind: SceneKind
    package let value: JSONValue?
    package var phase: ScenePhase
    package var pushedFrom: InstanceID?
    package var pushedChild: InstanceID?
    /// The phase to return to when a disconnected instance's process is back.
    package var phaseBeforeDisconnect: ScenePhase?
}

/// What the bookkeeping recorded; the registry turns these into its events.
package enum BookEvent: Hashable, Sendable {
    case opened(InstanceID)
    case focused(InstanceID)
    case dismissed(InstanceID, DismissReason)
    case phaseChanged(InstanceID, ScenePhase)
    case pushed(InstanceID, from: InstanceID)
}

/// How an open request resolves.
package enum OpenResolution: Hashable, Sendable {
    /// An instance the policy says to reuse (it may still be opening).
    case existing(InstanceID)
    /// A new instance, after dismissing `replacing` (an immersive space), if any.
    case new(InstanceID, replacing: InstanceID?)
}

/// The registry's bookkeeping as a value: which instances exist, their phases, values and
/// pushed windows, the focus order and the immersive slot. Every rule about opening,
/// pushing, focusing and dismissing lives here, in mutating methods that answer what
/// happened and record events.
package struct RegistryBook: Sendable {
    package let scenes: [String: SceneFacts]
    package let immersivePolicy: ImmersivePolicy
    /// What requires what (`RegistryBook+Requirements.swift` holds its rules over the
    /// open instances).
    package let requirements: RequirementGraph
    package private(set) var records: [InstanceID: InstanceRecord] = [:]
    package private(set) var byScene: [String: Set<InstanceID>] = [:]
    package private(set) var byValue: [ValueKey: InstanceID] = [:]
    /// The last number used per scene; numbers are never reused.
    package private(set) var counters: [String: Int] = [:]
    /// Windows and volumes, least recently focused first.
    package private(set) var focus = FocusList()
    package private(set) var immersive: InstanceID?
    package private(set) var events: [BookEvent] = []

    package struct ValueKey: Hashable, Sendable {
        let scene: String
        let value: JSONValue
    }

    /// A book of `scenes`, with its rules: the immersive policy and what requires what
    /// (none but what is given: a book made anew for the same registry passes its own on).
    package init(scenes: [String: SceneFacts], immersivePolicy: ImmersivePolicy, requirements: RequirementGraph) {
        self.scenes = scenes
        self.immersivePolicy = immersivePolicy
        self.requirements = requirements
    }

    /// The focused window or volume.
    package var focused: InstanceID? { focus.last }

    /// Hands the recorded events over in `spare`, an empty array whose room the book keeps
    /// for the next ones (swapped whole: emptying the book's in place would copy a shared
    /// buffer).
    package mutating func takeEvents(into spare: inout [BookEvent]) {
        precondition(spare.isEmpty, "the book's events are taken into an empty array")
        swap(&spare, &events)
    }

    /// Returns the recorded events and forgets them.
    package mutating func takeEvents() -> [BookEvent] {
        var taken: [BookEvent] = []
        takeEvents(into: &taken)
        return taken
    }

    /// Active when any instance is active; else inactive when any is; else background.
    package var aggregatePhase: ScenePhase {
        var sawInactive = false
        for record in records.values {
            if record.phase == .active { return .active }
            if record.phase == .inactive { sawInactive = true }
        }
        return sawInactive ? .inactive : .background
    }

    /// The open instances of `scene`, by number.
    package func instances(of scene: String) -> [InstanceID] {
        (byScene[scene] ?? []).sorted { $0.number < $1.number }
    }

    /// The most recently focused instance of `scene`, or its newest one.
    package func mostRecent(of scene: String) -> InstanceID? {
        guard let ids = byScene[scene], !ids.isEmpty else { return nil }
        if ids.count == 1 { return ids.first }
        return focus.lastMatching { $0.scene == scene } ?? ids.max { $0.number < $1.number }
    }

    // MARK: Opening

    /// Decides what opening `scene` with `value` does, by its instance policy and the
    /// immersive rules; changes nothing.
    package func resolveOpen(_ scene: String, value: JSONValue?) -> Result<OpenResolution, RegistryRejection> {
        guard let facts = scenes[scene] else { return .failure(.unknownScene(scene)) }
        switch facts.policy {
        case .single:
            // An immersive space opened again with another value is another space: the
            // exclusivity rules below decide. Only the same scene and value focuses.
            if let existing = byScene[scene]?.first,
                !(facts.kind.isImmersive && value != nil && records[existing]?.value != value)
            {
                return .success(.existing(existing))
            }
        case .perValue:
            guard let value, !value.isNull else { return .failure(.valueRequired(scene: scene)) }
            if let existing = byValue[ValueKey(scene: scene, value: value)] { return .success(.existing(existing)) }
        case .multiple(let max):
            if let max, (byScene[scene]?.count ?? 0) >= max {
                return .failure(.instanceLimitReached(scene: scene, max: max))
            }
        }
        var replacing: InstanceID?
        if facts.kind.isImmersive, let open = immersive {
            guard immersivePolicy == .replace else { return .failure(.immersiveSpaceBusy(open: open)) }
            replacing = open
        }
        return .success(.new(InstanceID(scene: scene, number: (counters[scene] ?? 0) + 1), replacing: replacing))
    }

    /// Records a new instance in the `opening` phase. `id` comes from ``resolveOpen``.
    package mutating func reserve(_ id: InstanceID, value: JSONValue?, pushedFrom: InstanceID? = nil) {
        let facts = scenes[id.scene]!
        // The first open's value stays the instance's own; later opens of a single scene
        // focus it and their values are ignored.
        insert(InstanceRecord(id: id, kind: facts.kind, value: value, phase: .opening, pushedFrom: pushedFrom))
        if let pushedFrom {
            records[pushedFrom]?.pushedChild = id
            setPhase(pushedFrom, .background)
            // The parent is hidden now: it cannot keep focus while its replacement starts.
            let focusedBefore = focus.last
            focus.remove(pushedFrom)
            if focus.last != focusedBefore, let now = focus.last { events.append(.focused(now)) }
        }
    }

    /// Inserts a record as it is (open or restore), keeping every index.
    package mutating func insert(_ record: InstanceRecord) {
        let id = record.id
        records[id] = record
        // One lookup of each table by the scene's name, hashing which is most of its cost.
        Self.raise(&counters[id.scene, default: 0], to: id.number)
        byScene[id.scene, default: []].insert(id)
        if let value = record.value, scenes[id.scene]?.policy == .perValue {
            byValue[ValueKey(scene: id.scene, value: value)] = id
        }
        if record.kind.isImmersive { immersive = id }
    }

    private static func raise(_ counter: inout Int, to number: Int) {
        counter = max(counter, number)
    }

    /// Records that `id` was pushed from `parent` (restore).
    package mutating func link(_ id: InstanceID, pushedFrom parent: InstanceID) {
        records[id]?.pushedFrom = parent
        records[parent]?.pushedChild = id
    }

    /// Sets a restored instance's phase, without an event.
    package mutating func restorePhase(_ id: InstanceID, _ phase: ScenePhase) {
        records[id]?.phase = phase
    }

    /// Raises a scene's counter so restored numbers are never reused.
    package mutating func raiseCounter(_ scene: String, to number: Int) {
        Self.raise(&counters[scene, default: 0], to: number)
    }

    /// Puts restored instances in focus order, least recent first.
    package mutating func restoreFocus(_ order: [InstanceID]) {
        for id in order where records[id]?.kind.isFocusable == true { focus.moveToLast(id) }
    }

    /// An opening instance became ready: it is active, focused, and opened.
    package mutating func activate(_ id: InstanceID) {
        guard let record = records[id], record.phase == .opening else { return }
        records[id]?.phase = .active
        events.append(.opened(id))
        if let parent = record.pushedFrom { events.append(.pushed(id, from: parent)) }
        focusVisible(id)
    }

    // MARK: Focus

    /// Focuses `id`, or the window pushed over it: the one actually shown.
    package mutating func focusVisible(_ id: InstanceID) {
        var shown = id
        while let child = records[shown]?.pushedChild { shown = child }
        guard let record = records[shown], record.kind.isFocusable, record.phase != .opening else { return }
        if focus.last != shown {
            focus.moveToLast(shown)
            events.append(.focused(shown))
        }
    }

    /// Focuses `id` as an explicit request.
    package mutating func focusRequest(_ id: InstanceID) -> Result<Void, RegistryRejection> {
        guard let record = records[id], record.phase != .opening else { return .failure(.instanceNotOpen(id)) }
        guard record.kind.isFocusable else { return .failure(.notFocusable(id)) }
        if let child = record.pushedChild { return .failure(.coveredByPushedWindow(child)) }
        focusVisible(id)
        return .success(())
    }

    // MARK: Phases

    /// Records a phase the instance reported for itself.
    package mutating func report(_ id: InstanceID, _ phase: ScenePhase) -> Result<Void, RegistryRejection> {
        guard phase.isReportable else { return .failure(.invalidPhase(phase)) }
        guard let record = records[id], record.phase != .opening else { return .failure(.instanceNotOpen(id)) }
        // A window a pushed one covers is in the background until that one goes.
        if let child = record.pushedChild, phase != .background { return .failure(.coveredByPushedWindow(child)) }
        setPhase(id, phase)
        return .success(())
    }

    /// Sets a phase and records the change. A disconnected instance keeps its phase until
    /// its process is back: the phase set meanwhile is the one it comes back to.
    package mutating func setPhase(_ id: InstanceID, _ phase: ScenePhase) {
        guard let old = records[id]?.phase, old != phase else { return }
        if old == .disconnected {
            records[id]?.phaseBeforeDisconnect = phase
            return
        }
        records[id]?.phase = phase
        events.append(.phaseChanged(id, phase))
    }

    /// The instance's process is gone: `disconnected` until a new one says hello.
    package mutating func disconnect(_ id: InstanceID) {
        guard let record = records[id], record.phase != .opening, record.phase != .disconnected else { return }
        records[id]?.phaseBeforeDisconnect = record.phase
        setPhase(id, .disconnected)
    }

    /// A disconnected instance's new process said hello: back to the phase it had (a
    /// window covered by a pushed one stays in the background).
    package mutating func reconnect(_ id: InstanceID) {
        guard let record = records[id], record.phase == .disconnected else { return }
        let phase = record.pushedChild != nil ? .background : (record.phaseBeforeDisconnect ?? .active)
        records[id]?.phaseBeforeDisconnect = nil
        records[id]?.phase = phase
        events.append(.phaseChanged(id, phase))
    }

    // MARK: Pushing

    /// Checks a push of `scene` from `from` and resolves its target; changes nothing.
    package func resolvePush(_ scene: String, value: JSONValue?, from: InstanceID) -> Result<InstanceID, RegistryRejection> {
        guard let parent = records[from], parent.kind.isWindow, parent.phase != .opening else {
            return .failure(.notAWindow(from.description))
        }
        if parent.pushedFrom != nil { return .failure(.pushFromPushedWindow(from)) }
        if let child = parent.pushedChild { return .failure(.coveredByPushedWindow(child)) }
        guard let facts = scenes[scene] else { return .failure(.unknownScene(scene)) }
        guard facts.kind.isWindow else { return .failure(.notAWindow(scene)) }
        switch resolveOpen(scene, value: value) {
        case .failure(let rejection): return .failure(rejection)
        case .success(.existing(let id)): return .failure(.alreadyOpen(id))
        case .success(.new(let id, _)): return .success(id)
        }
    }

    // MARK: Dismissing

    /// Removes `id` and the windows pushed from it (those first), in that order.
    ///
    /// - A dismissed pushed window brings back the one it was pushed from, active and
    ///   focused; a dismissed focused window passes focus to the previous one.
    /// - `cascading`: `id` goes because the window it was pushed from goes too (that one
    ///   gives nothing back and moves focus itself).
    package mutating func dismiss(_ id: InstanceID, reason: DismissReason, cascading: Bool = false) -> [InstanceID] {
        guard let record = records[id] else { return [] }
        let focusedBefore = focus.last
        var dismissed: [InstanceID] = []
        if let child = record.pushedChild {
            dismissed += dismiss(child, reason: .parentDismissed, cascading: true)
        }
        records[id] = nil
        byScene[id.scene]?.remove(id)
        if byScene[id.scene]?.isEmpty == true { byScene[id.scene] = nil }
        if let value = record.value, scenes[id.scene]?.policy == .perValue {
            byValue[ValueKey(scene: id.scene, value: value)] = nil
        }
        if immersive == id { immersive = nil }
        focus.remove(id)
        events.append(.dismissed(id, reason))
        dismissed.append(id)
        // A pushed window gives its place back, unless its parent is going too.
        if !cascading, let parent = record.pushedFrom, records[parent] != nil {
            records[parent]?.pushedChild = nil
            setPhase(parent, .active)
            focus.moveToLast(parent)
        }
        if !cascading, focus.last != focusedBefore, let now = focus.last {
            events.append(.focused(now))
        }
        return dismissed
    }
}

/// Windows and volumes in focus order, least recent first, as a doubly linked list:
/// moving to the end and removing are O(1) however many instances are open.
///
/// The links live in arrays indexed by a member's slot, so an operation hashes the id
/// once (to find its slot) and follows its neighbours by index; a removed member's slot
/// is reused by the next one added.
package struct FocusList: Sendable {
    private static let none = -1

    private var slots: [InstanceID: Int] = [:]
    private var ids: [InstanceID] = []
    private var previous: [Int] = []
    private var next: [Int] = []
    private var free: [Int] = []
    private var head = FocusList.none
    private var tail = FocusList.none

    package init() {}

    package var first: InstanceID? { head == Self.none ? nil : ids[head] }
    package var last: InstanceID? { tail == Self.none ? nil : ids[tail] }
    package var count: Int { slots.count }

    package mutating func moveToLast(_ id: InstanceID) {
        let slot: Int
        if let existing = slots[id] {
            if existing == tail { return }
            unlink(existing)
            slot = existing
        } else {
            slot = allocate(id)
        }
        previous[slot] = tail
        next[slot] = Self.none
        if tail == Self.none { head = slot } else { next[tail] = slot }
        tail = slot
    }

    package mutating func remove(_ id: InstanceID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        unlink(slot)
        free.append(slot)
    }

    private mutating func allocate(_ id: InstanceID) -> Int {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            ids[slot] = id
        } else {
            slot = ids.count
            ids.append(id)
            previous.append(Self.none)
            next.append(Self.none)
        }
        slots[id] = slot
        return slot
    }

    /// Takes `slot` out of the chain; its own links are left for the caller to set.
    private mutating func unlink(_ slot: Int) {
        let before = previous[slot]
        let after = next[slot]
        if before == Self.none { head = after } else { next[before] = after }
        if after == Self.none { tail = before } else { previous[after] = before }
    }

    /// The most recent member that satisfies `predicate`.
    package func lastMatching(_ predicate: (InstanceID) -> Bool) -> InstanceID? {
        var cursor = tail
        while cursor != Self.none {
            if predicate(ids[cursor]) { return ids[cursor] }
            cursor = previous[cursor]
        }
        return nil
    }

    /// Every member, least recent first.
    package var ordered: [InstanceID] {
        var result: [InstanceID] = []
        result.reserveCapacity(slots.count)
        var cursor = head
        while cursor != Self.none {
            result.append(ids[cursor])
            cursor = next[cursor]
        }
        return result
    }
}
