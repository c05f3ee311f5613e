/// The navigation state of one scene: a stack of pushes with at most one sheet or cover
/// at its tail, and the modals queued behind it.
///
/// A `FlowStore` is a value-type state machine. ``send(_:)`` applies one intent and
/// answers what happened; domain failures are ``FlowOutcome/rejected(_:)`` outcomes,
/// never thrown errors or traps, and a rejected intent changes nothing.
///
/// The rules:
/// - `push`, `pushMany`, and `pushUnique` or `backOrPush` when they would push, are
///   rejected ``FlowRejection/pushBlockedByModalTail`` while a modal is at the tail.
/// - `pop`, `popCount`, `popTo`, `popToRoot`, `replaceStack`, and `backOrPush` when it
///   would pop, are rejected ``FlowRejection/popBlockedByModalTail`` while a modal shows:
///   dismiss it first, or `reset`.
/// - `sheet` or `cover` while a modal shows is queued (FIFO) and promoted when the modal
///   in front of it is dismissed; `dismissAll` drops the queue too.
/// - `pop` on an empty stack and `dismiss` with no modal are `unchanged`.
/// - `popCount(n)` beyond the depth is rejected ``FlowRejection/insufficientDepth(requested:available:)``.
/// - `popTo` a route not in the stack is rejected ``FlowRejection/routeNotFound``.
/// - `reset` to an invalid path is rejected ``FlowRejection/invalidPlan(_:)``; a valid
///   reset replaces the path and drops the queue (`changed` when either changes).
/// - `pushMany` is one change: one outcome, one event.
///
/// With ``recordsEvents`` on, every change is also recorded as a ``FlowEvent`` for the
/// owner to publish (see ``takeEvents()``).
public struct FlowStore<R: Route>: Sendable {
    /// The visible path: pushes, then at most one sheet or cover.
    @inlinable public var path: [RouteStep<R>] { _path }
    /// Sheets and covers waiting behind the visible modal, first to show first.
    /// Always empty when no modal is at the tail.
    @inlinable public var queuedModals: [RouteStep<R>] { _queuedModals }

    /// Whether changes are recorded as events for ``takeEvents()``. Off by default, so a
    /// store nobody drains does not grow.
    public var recordsEvents = false
    /// Events recorded since the last ``takeEvents()``, oldest first.
    @inlinable public var pendingEvents: [FlowEvent<R>] { _pendingEvents }

    /// How many follow-up intents one intent may cause (through middleware) before the
    /// rest are rejected ``FlowRejection/followUpLimitExceeded(limit:)``.
    public var followUpLimit = 1024

    @usableFromInline var _path: [RouteStep<R>]
    @usableFromInline var _queuedModals: [RouteStep<R>] = []
    @usableFromInline var _pendingEvents: [FlowEvent<R>] = []
    @usableFromInline var chain: [MiddlewareEntry<R>] = []
    @usableFromInline var nextHandle: UInt64 = 1

    /// A store showing `plan` (the root, by default).
    @inlinable
    public init(plan: FlowPlan<R> = .empty) {
        self._path = plan.steps
    }

    /// The modal at the tail of the path, if one shows.
    @inlinable
    public var modal: RouteStep<R>? {
        guard let last = _path.last, last.isModal else { return nil }
        return last
    }

    /// How many pushes are on the stack.
    @inlinable
    public var depth: Int { modal == nil ? _path.count : _path.count - 1 }

    /// The pushed routes, root first.
    public var stack: [R] { _path[..<depth].map(\.route) }

    /// Returns the recorded events and forgets them.
    public mutating func takeEvents() -> [FlowEvent<R>] {
        // Handed over whole: the caller keeps the buffer, the store starts a new one.
        var taken: [FlowEvent<R>] = []
        swap(&taken, &_pendingEvents)
        return taken
    }

    /// Hands the recorded events over in `spare` and forgets them; the store records the
    /// next ones in `spare`'s old room.
    ///
    /// An owner that publishes after every intent passes the same array each time, emptied
    /// with `removeAll(keepingCapacity: true)` once published: neither side allocates.
    /// `spare` must be empty.
    @inlinable
    public mutating func takeEvents(into spare: inout [FlowEvent<R>]) {
        precondition(spare.isEmpty, "a store's events are taken into an empty array")
        swap(&spare, &_pendingEvents)
    }

    /// Applies `intent` (through the middleware chain) and answers what it did.
    ///
    /// - Follow-up intents that middleware queued are applied afterwards, in order; their
    ///   outcomes reach middleware and events, not this return value.
    @inlinable @discardableResult
    public mutating func send(_ intent: FlowIntent<R>) -> FlowOutcome<R> {
        if chain.isEmpty { return applyRules(intent) }
        var followUps: [FlowIntent<R>] = []
        let outcome = applyThroughChain(intent, followUps: &followUps)
        drain(&followUps)
        return outcome
    }

    /// ``send(_:)``, also answering how many of the events it recorded are the intent's
    /// own (they come first); the rest are what its follow-ups did. For test stores.
    package mutating func sendCountingOwnEvents(_ intent: FlowIntent<R>) -> (outcome: FlowOutcome<R>, ownEvents: Int) {
        let before = _pendingEvents.count
        if chain.isEmpty {
            let outcome = applyRules(intent)
            return (outcome, _pendingEvents.count - before)
        }
        var followUps: [FlowIntent<R>] = []
        let outcome = applyThroughChain(intent, followUps: &followUps)
        let own = _pendingEvents.count - before
        drain(&followUps)
        return (outcome, own)
    }

    @inlinable
    mutating func record(_ event: FlowEvent<R>) {
        _pendingEvents.append(event)
    }

    /// Runs `intent` through `willApply`, the rules, then `didApply`.
    @inlinable
    mutating func applyThroughChain(_ intent: FlowIntent<R>, followUps: inout [FlowIntent<R>])
        -> FlowOutcome<R>
    {
        let outcome: FlowOutcome<R>
        let admitted: FlowIntent<R>
        switch admit(intent, followUps: &followUps) {
        case .proceed(let intent):
            admitted = intent
            outcome = applyRules(intent)
        case .cancelled(let intent, let rejection):
            admitted = intent
            outcome = .rejected(rejection)
        }
        notify(admitted, outcome: outcome, followUps: &followUps)
        return outcome
    }

    /// Applies queued follow-ups, in order, until none are left or the limit is reached.
    @inlinable
    mutating func drain(_ followUps: inout [FlowIntent<R>]) {
        var next = 0
        while next < followUps.count {
            let intent = followUps[next]
            if next >= followUpLimit {
                if recordsEvents {
                    record(.intentRejected(intent, .followUpLimitExceeded(limit: followUpLimit)))
                }
            } else {
                _ = applyThroughChain(intent, followUps: &followUps)
            }
            next += 1
        }
        followUps.removeAll()
    }

    /// Applies the rules to an intent that already passed the middleware chain.
    @inlinable
    mutating func applyRules(_ intent: FlowIntent<R>) -> FlowOutcome<R> {
        let oldQueueCount = _queuedModals.count
        let outcome = transition(intent)
        if recordsEvents {
            switch outcome {
            case .changed(let old, let new):
                // The outcome's own arrays: the event shares them, nothing is copied.
                record(.pathChanged(old: old, new: new))
            case .rejected(let reason):
                record(.intentRejected(intent, reason))
            case .queued, .unchanged:
                break
            }
            if _queuedModals.count != oldQueueCount {
                record(.modalQueueChanged(_queuedModals))
            }
        }
        return outcome
    }

    /// The rules themselves: changes `path` and `queuedModals` and says how.
    @inlinable
    mutating func transition(_ intent: FlowIntent<R>) -> FlowOutcome<R> {
        let modalShows = modal != nil
        switch intent {
        case .push(let route):
            if modalShows { return .rejected(.pushBlockedByModalTail) }
            return change { $0.append(.push(route)) }

        case .pushMany(let routes):
            if modalShows { return .rejected(.pushBlockedByModalTail) }
            if routes.isEmpty { return .unchanged }
            return change { $0.append(contentsOf: routes.map(RouteStep.push)) }

        case .sheet(let route):
            return present(.sheet(route))

        case .cover(let route):
            return present(.cover(route))

        case .pop:
            if modalShows { return .rejected(.popBlockedByModalTail) }
            if _path.isEmpty { return .unchanged }
            return change { $0.removeLast() }

        case .popCount(let count):
            if modalShows { return .rejected(.popBlockedByModalTail) }
            if count < 0 { return .rejected(.invalidCount(count)) }
            if count > _path.count {
                return .rejected(.insufficientDepth(requested: count, available: _path.count))
            }
            if count == 0 { return .unchanged }
            return change { $0.removeLast(count) }

        case .popTo(let route):
            if modalShows { return .rejected(.popBlockedByModalTail) }
            guard let index = _path.lastIndex(where: { $0.route == route }) else {
                return .rejected(.routeNotFound)
            }
            return popAbove(index)

        case .popToRoot:
            if modalShows { return .rejected(.popBlockedByModalTail) }
            if _path.isEmpty { return .unchanged }
            return change { $0.removeAll() }

        case .dismiss:
            guard modalShows else { return .unchanged }
            let old = _path
            _path.removeLast()
            if !_queuedModals.isEmpty { _path.append(_queuedModals.removeFirst()) }
            return .changed(old: old, new: _path)

        case .dismissAll:
            guard modalShows else { return .unchanged }
            _queuedModals.removeAll()
            return change { $0.removeLast() }

        case .reset(let steps):
            if let problem = FlowPlan.problem(in: steps) { return .rejected(.invalidPlan(problem)) }
            if steps == _path, _queuedModals.isEmpty { return .unchanged }
            // Dropping queued modals is a change even when the visible path stays the same.
            _queuedModals.removeAll()
            return change { $0 = steps }

        case .replaceStack(let routes):
            if modalShows { return .rejected(.popBlockedByModalTail) }
            let steps = routes.map(RouteStep.push)
            if steps == _path { return .unchanged }
            return change { $0 = steps }

        case .backOrPush(let route):
            if let index = indexInStack(of: route) {
                if index == depth - 1 { return .unchanged }
                if modalShows { return .rejected(.popBlockedByModalTail) }
                return popAbove(index)
            }
            if modalShows { return .rejected(.pushBlockedByModalTail) }
            return change { $0.append(.push(route)) }

        case .pushUnique(let route):
            if indexInStack(of: route) != nil { return .unchanged }
            if modalShows { return .rejected(.pushBlockedByModalTail) }
            return change { $0.append(.push(route)) }
        }
    }

    /// Shows `step` now, or queues it behind the modal that shows.
    @inlinable
    mutating func present(_ step: RouteStep<R>) -> FlowOutcome<R> {
        if modal != nil {
            _queuedModals.append(step)
            return .queued(step)
        }
        return change { $0.append(step) }
    }

    /// Pops every push above `index`; `unchanged` when it is already on top.
    @inlinable
    mutating func popAbove(_ index: Int) -> FlowOutcome<R> {
        if index == _path.count - 1 { return .unchanged }
        return change { $0.removeSubrange((index + 1)...) }
    }

    /// The topmost push equal to `route`.
    @inlinable
    func indexInStack(of route: R) -> Int? {
        _path[..<depth].lastIndex(where: { $0.route == route })
    }

    @inlinable
    mutating func change(_ edit: (inout [RouteStep<R>]) -> Void) -> FlowOutcome<R> {
        let old = _path
        edit(&_path)
        return .changed(old: old, new: _path)
    }
}
