/// One instance to remove, and why: a step of a removal plan the registry carries out in
/// order.
package struct Removal: Hashable, Sendable {
    package let id: InstanceID
    package let reason: DismissReason

    package init(_ id: InstanceID, _ reason: DismissReason) {
        self.id = id
        self.reason = reason
    }
}

/// What opening a scene does about one scene it requires.
package enum RequirementAction: Hashable, Sendable {
    /// It is up: nothing.
    case up
    /// Its instance `id` is still opening: wait for it.
    case join(InstanceID)
    /// Open it.
    case open
}

extension RegistryBook {
    // MARK: Opening with requirements

    /// Whether `scene` has an instance past its opening (active, in the background, or
    /// disconnected while its process restarts): what a scene that requires it needs.
    package func isUp(_ scene: String) -> Bool {
        byScene[scene]?.contains { records[$0]?.phase != .opening } ?? false
    }

    /// The scenes `scene` requires directly that are not up, in declaration order: what
    /// opening it opens first (one still opening is waited for, not doubled).
    package func missingRequirements(of scene: String) -> [String] {
        (requirements.requires[scene] ?? []).filter { !isUp($0) }
    }

    /// What opening `scene` does about `required`, one of the scenes it requires, when its
    /// turn comes: nothing when it is up; wait for its instance still opening (no second
    /// one); else open it, by its own rules.
    package func requirementAction(_ required: String) -> RequirementAction {
        if isUp(required) { return .up }
        if let opening = instances(of: required).first { return .join(opening) }
        return .open
    }

    /// The first scene `scene` requires that is not up once every requirement had its turn:
    /// it went while another opened, and `scene` does not open without it (`not_open`).
    package func goneRequirement(of scene: String) -> String? {
        requirements.requires[scene]?.first { !isUp($0) }
    }

    // MARK: Removing with dependents

    /// The open instances that go with `leaving`: those of the scenes that require,
    /// directly or through others, a scene no instance of which is left once `leaving`
    /// (with the windows pushed from them) are gone; in an order to remove them in
    /// (``inRemovalOrder(_:)``), each before what it requires. Empty when no scene
    /// requires another.
    package func dependents(leaving: some Sequence<InstanceID>) -> [InstanceID] {
        guard !requirements.isEmpty else { return [] }
        var gone = Set<InstanceID>()
        func add(_ id: InstanceID) {
            var next: InstanceID? = id
            while let current = next, records[current] != nil, gone.insert(current).inserted {
                next = records[current]?.pushedChild
            }
        }
        leaving.forEach(add)
        let leavingAll = gone
        var going = Set<String>()
        var checked = Set<String>()
        while true {
            // The scenes left with no instance, then those requiring them that still have some.
            let emptied = Set(gone.map(\.scene)).filter { scene in
                !checked.contains(scene) && instances(of: scene).allSatisfy(gone.contains)
            }
            guard !emptied.isEmpty else { break }
            checked.formUnion(emptied)
            for scene in Set(emptied.flatMap { requirements.requiredBy[$0] ?? [] }) where !going.contains(scene) {
                let open = instances(of: scene).filter { !gone.contains($0) }
                guard !open.isEmpty else { continue }
                going.insert(scene)
                open.forEach(add)
            }
        }
        return inRemovalOrder(going.flatMap { instances(of: $0) }.filter { !leavingAll.contains($0) })
    }

    /// The removal plan of the instances that go with `leaving` (``dependents(leaving:)``),
    /// in that order: each `requirement_dismissed`, or `cancelled` while still opening.
    package func dependentRemovals(leaving: some Sequence<InstanceID>) -> [Removal] {
        dependents(leaving: leaving).compactMap { id in
            dismissReason(id, whenOpen: .requirementDismissed).map { Removal(id, $0) }
        }
    }

    /// `ids` in an order to remove them in: each before every instance it requires.
    ///
    /// - An instance stands with the windows pushed from it, which go with it: it comes
    ///   before every instance whose scenes one of theirs requires, directly or through
    ///   others, and after every instance whose scenes require one of theirs.
    /// - Among those free to go, by scene, then by id; with no requirements at all, by id.
    /// - Two instances that each require the other's scenes through their pushed windows
    ///   can keep no order: the first by scene goes first.
    package func inRemovalOrder(_ ids: [InstanceID]) -> [InstanceID] {
        guard !requirements.isEmpty else { return ids.sorted() }
        // Sorted at the level of the scenes an instance stands with: few, whatever the count.
        var standing: [[String]: [InstanceID]] = [:]
        for id in ids {
            var scenes: Set<String> = [id.scene]
            var next = records[id]?.pushedChild
            while let child = next {
                scenes.insert(child.scene)
                next = records[child]?.pushedChild
            }
            standing[scenes.sorted(), default: []].append(id)
        }
        let keys = standing.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var after: [[String]: [[String]]] = [:]
        var waitingFor: [[String]: Int] = [:]
        for first in keys {
            let requires = first.reduce(into: Set<String>()) { $0.formUnion(requirements.closure[$1] ?? []) }
            for second in keys where second != first && second.contains(where: requires.contains) {
                after[first, default: []].append(second)
                waitingFor[second, default: 0] += 1
            }
        }
        var left = keys
        var ordered: [InstanceID] = []
        while !left.isEmpty {
            let index = left.firstIndex { waitingFor[$0, default: 0] == 0 } ?? 0
            let key = left.remove(at: index)
            ordered += standing[key]!.sorted()
            for later in after[key] ?? [] { waitingFor[later, default: 0] -= 1 }
        }
        return ordered
    }
}
