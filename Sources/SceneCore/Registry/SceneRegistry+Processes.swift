import SceneFlow
public import SceneJSON

/// What dismissing several instances with an interactive close did.
public struct DismissOutcome: Hashable, Sendable {
    /// Dismissed, in order (pushed windows before the ones they were pushed from).
    public let dismissed: [InstanceID]
    /// Refused to close.
    public let vetoed: [InstanceID]

    /// An outcome with both lists given.
    public init(dismissed: [InstanceID], vetoed: [InstanceID]) {
        self.dismissed = dismissed
        self.vetoed = vetoed
    }
}

extension SceneRegistry {
    // MARK: Closing

    /// Dismisses one instance; unless `force`, it is first asked to close (see
    /// ``SceneBacking/close(_:force:)``) and may refuse.
    ///
    /// - When it is its scene's last instance, the instances of the scenes that require that
    ///   scene go first (see ``SceneDeclaration/requires``); unless `force`, they are asked
    ///   too, with it, and one refusal fails the whole dismiss.
    /// - `closingItself`: the instance asked for its own dismissal, so it is not asked (the
    ///   instances that require its scene still are, unless `force`).
    /// - Refused `close_vetoed` when one refuses, `not_open` when the instance is not open
    ///   (also when it went while it was asked).
    /// - An instance still opening is never asked: it is cancelled.
    @discardableResult
    public func dismiss(_ id: InstanceID, force: Bool, closingItself: Bool = false) async throws(RegistryRejection) -> [InstanceID] {
        try await finish(beginDismiss(id, force: force, closingItself: closingItself)).get()
    }

    /// ``dismiss(_:force:closingItself:)`` as far as it goes now: done, unless someone must
    /// be asked.
    public func beginDismiss(_ id: InstanceID, force: Bool, closingItself: Bool = false) -> RegistryStep<R, [InstanceID]> {
        step("scene.dismiss") { () throws(RegistryRejection) in
            guard book.records[id] != nil else { throw .notOpen(id.description) }
            // Asked: the instance (unless it closes itself) and those that go with it.
            let asked: @Sendable (isolated SceneRegistry) -> [InstanceID] = { registry in
                guard registry.book.records[id] != nil else { return [] }
                return (closingItself ? [] : [id]) + registry.dependents(leaving: [id])
            }
            let first = force ? [] : closeQuestions(asked(self))
            guard !first.isEmpty else { return .done(.success(try dismissNow(id))) }
            return .waiting(RegistryWait { registry in
                let refused = await registry.refusals(first, then: asked)
                if refused.contains(id) { return .failure(.closeVetoed(id)) }
                // Only a refusal of an instance that still has to go counts.
                let needed = Set(registry.dependents(leaving: [id]))
                if let veto = refused.first(where: needed.contains) { return .failure(.closeVetoed(veto)) }
                return Result { () throws(RegistryRejection) in try registry.dismissNow(id) }
            })
        }
    }

    /// Dismisses the instances of `scene` (with `value`, when given); unless `force`, each
    /// is first asked to close, all at once, and those that refuse stay.
    ///
    /// - The instances of the scenes that require `scene` go first when none of its
    ///   instances is left (see ``SceneDeclaration/requires``); unless `force`, they are
    ///   asked with the others, and a refusal among those that have to go fails the whole
    ///   dismiss (`close_vetoed`), nothing gone.
    /// - Refused `unknown_scene`, or `not_open` when none is open.
    public func dismiss(scene: String, value: JSONValue? = nil, force: Bool) async throws(RegistryRejection) -> DismissOutcome {
        try await finish(beginDismiss(scene: scene, value: value, force: force)).get()
    }

    /// ``dismiss(scene:value:force:)`` as far as it goes now: done, unless some instance
    /// must be asked.
    public func beginDismiss(scene: String, value: JSONValue? = nil, force: Bool) -> RegistryStep<R, DismissOutcome> {
        step("scene.dismiss") { () throws(RegistryRejection) in
            let targets = try book.dismissTargets(scene, value: value).get()
            let asked: @Sendable (isolated SceneRegistry) -> [InstanceID] = { registry in
                let open = targets.filter { registry.book.records[$0] != nil }
                return open + registry.dependents(leaving: open)
            }
            let first = force ? [] : closeQuestions(asked(self))
            guard !first.isEmpty else { return .done(.success(dismissAll(targets, refused: []))) }
            return .waiting(RegistryWait { registry in
                let refused = Set(await registry.refusals(first, then: asked))
                let needed = registry.dependents(leaving: targets.filter { !refused.contains($0) && registry.book.records[$0] != nil })
                if let veto = needed.sorted().first(where: refused.contains) { return .failure(.closeVetoed(veto)) }
                return .success(registry.dismissAll(targets, refused: refused))
            })
        }
    }

    /// The open instances that go with `leaving`: those of the scenes that require,
    /// directly or through others, a scene no instance of which is left once `leaving`
    /// (with the windows pushed from them) are gone; in an order to remove them in
    /// (``inRemovalOrder(_:)``), each before what it requires.
    func dependents(leaving: some Sequence<InstanceID>) -> [InstanceID] {
        guard !requiredBy.isEmpty else { return [] }
        var gone = Set<InstanceID>()
        func add(_ id: InstanceID) {
            var next: InstanceID? = id
            while let current = next, book.records[current] != nil, gone.insert(current).inserted {
                next = book.records[current]?.pushedChild
            }
        }
        leaving.forEach(add)
        let leavingAll = gone
        var going = Set<String>()
        var checked = Set<String>()
        while true {
            // The scenes left with no instance, then those requiring them that still have some.
            let emptied = Set(gone.map(\.scene)).filter { scene in
                !checked.contains(scene) && book.instances(of: scene).allSatisfy(gone.contains)
            }
            guard !emptied.isEmpty else { break }
            checked.formUnion(emptied)
            for scene in Set(emptied.flatMap { requiredBy[$0] ?? [] }) where !going.contains(scene) {
                let open = book.instances(of: scene).filter { !gone.contains($0) }
                guard !open.isEmpty else { continue }
                going.insert(scene)
                open.forEach(add)
            }
        }
        return inRemovalOrder(going.flatMap { book.instances(of: $0) }.filter { !leavingAll.contains($0) })
    }

    /// `ids` in an order to remove them in: each before every instance it requires. An
    /// instance stands with the windows pushed from it, which go with it: it comes before
    /// every instance whose scenes one of theirs requires, directly or through others, and
    /// after every instance whose scenes require one of theirs. Among those free to go, by
    /// scene, then by id. (Two instances that each require the other's through their pushed
    /// windows can keep no order: the first by scene goes first.)
    func inRemovalOrder(_ ids: [InstanceID]) -> [InstanceID] {
        guard !requiredBy.isEmpty else { return ids.sorted() }
        // Sorted at the level of the scenes an instance stands with: few, whatever the count.
        var standing: [[String]: [InstanceID]] = [:]
        for id in ids {
            var scenes: Set<String> = [id.scene]
            var next = book.records[id]?.pushedChild
            while let child = next {
                scenes.insert(child.scene)
                next = book.records[child]?.pushedChild
            }
            standing[scenes.sorted(), default: []].append(id)
        }
        let keys = standing.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var after: [[String]: [[String]]] = [:]
        var waitingFor: [[String]: Int] = [:]
        for first in keys {
            let requires = first.reduce(into: Set<String>()) { $0.formUnion(requirementClosure[$1] ?? []) }
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

    /// Dismisses `id` now (an instance still opening is cancelled), with the instances that
    /// go with it (``dependents(leaving:)``).
    func dismissNow(_ id: InstanceID) throws(RegistryRejection) -> [InstanceID] {
        guard let reason = book.dismissReason(id) else { throw .notOpen(id.description) }
        return remove(id, reason: reason)
    }

    /// Asks the questions `first` (``closeQuestions(_:)``), all at once; once they are
    /// answered, asks those `targets` names then that were not asked yet (an instance
    /// opened meanwhile), and so on until a round asks nobody. Answers who refused, in id
    /// order. Instances still new after ``closeRounds`` rounds (something keeps opening
    /// them while the others are asked) count as refusing, so the wait ends.
    func refusals(
        _ first: [(InstanceID, @Sendable () async -> Bool)], then targets: (isolated SceneRegistry) -> [InstanceID]
    ) async -> [InstanceID] {
        var asked = Set(first.map(\.0))
        var refused = await Self.refusals(first)
        for round in 2... {
            let questions = closeQuestions(targets(self).filter { !asked.contains($0) })
            guard !questions.isEmpty else { break }
            guard round <= Self.closeRounds else {
                refused += questions.map(\.0)
                break
            }
            asked.formUnion(questions.map(\.0))
            refused += await Self.refusals(questions)
        }
        return refused.sorted()
    }

    /// How many rounds of close questions one request asks at most (see
    /// ``refusals(_:then:)``).
    static var closeRounds: Int { 16 }

    /// The close questions of `targets` that are asked (an instance still opening is
    /// never asked, nor one nobody would be asked about).
    func closeQuestions(_ targets: [InstanceID]) -> [(InstanceID, @Sendable () async -> Bool)] {
        targets.compactMap { id in
            book.records[id]?.phase == .opening ? nil : closeQuestion(id).map { (id, $0) }
        }
    }

    /// Asks every question at once; answers those that refused, in id order.
    static func refusals(_ asked: [(InstanceID, @Sendable () async -> Bool)]) async -> [InstanceID] {
        await withTaskGroup(of: (InstanceID, Bool).self) { group in
            for (id, ask) in asked { group.addTask { (id, await ask()) } }
            var refused: [InstanceID] = []
            for await (id, accepted) in group where !accepted { refused.append(id) }
            return refused.sorted()
        }
    }

    /// What asks whether `id` may close interactively: the program's close policy, then
    /// what backs it; nil when nobody is asked (a virtual instance, no policy).
    func closeQuestion(_ id: InstanceID) -> (@Sendable () async -> Bool)? {
        let backing = backing(of: id)
        let policy = closePolicy
        guard backing != nil || policy != nil else { return nil }
        return {
            if let policy, await !policy(id) { return false }
            if let backing { return await backing.close(id, force: false) }
            return true
        }
    }

    /// Dismisses `targets` but those in `refused`, which stay (each a `close_vetoed`
    /// rejection event).
    private func dismissAll(_ targets: [InstanceID], refused: Set<InstanceID>) -> DismissOutcome {
        var dismissed: [InstanceID] = []
        for id in targets where !refused.contains(id) {
            guard let reason = book.dismissReason(id) else { continue }
            dismissed += remove(id, reason: reason)
        }
        let vetoed = targets.filter { refused.contains($0) && book.records[$0] != nil }
        for id in vetoed { log.emit(.requestRejected(request: "scene.dismiss", reason: .closeVetoed(id))) }
        return DismissOutcome(dismissed: dismissed, vetoed: vetoed)
    }

    // MARK: Processes

    /// The declaration of `scene`, if there is one.
    public nonisolated func declaration(of scene: String) -> SceneDeclaration<R>? {
        declarationsByID[scene]
    }

    /// The most recently focused open instance of `scene`, or its newest.
    ///
    /// - Throws: `unknown_scene`, or `not_open` when none is open.
    public func mostRecentInstance(of scene: String) throws(RegistryRejection) -> InstanceID {
        guard declarationsByID[scene] != nil else { throw .unknownScene(scene) }
        guard let id = book.mostRecent(of: scene) else { throw .notOpen(scene) }
        return id
    }

    /// Records that a process was started for `id`: a `scene.spawned` event, while `id`
    /// is open.
    public func processSpawned(_ id: InstanceID, pid: Int32) {
        guard book.records[id] != nil else { return }
        log.emit(.spawned(id, pid: pid))
    }

    /// The process behind `id` is gone (`exit` nil: it was left from a previous run): the
    /// instance is `disconnected`, its path intact, until a new process says hello.
    public func processDisconnected(_ id: InstanceID, exit: ProcessExit?) {
        guard let record = book.records[id], record.phase != .opening else { return }
        log.emit(.disconnected(id, exit: exit))
        book.disconnect(id)
        flush()
    }

    /// The process behind `id` said hello: an instance still opening becomes active (its
    /// launch is complete), a disconnected one comes back (`scene.restarted`). Answers the
    /// instance as it is.
    ///
    /// - Throws: `not_open` when the instance is not open.
    public func processAttached(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        guard let record = book.records[id] else { throw .notOpen(id.description) }
        if record.phase == .opening {
            activate(id)
        } else if record.phase == .disconnected {
            log.emit(.restarted(id))
            book.reconnect(id)
            flush()
        }
        return try info(id)
    }

    /// Dismisses `id` because of its process (`process_exited`, `restart_intensity`).
    public func dismissProcess(_ id: InstanceID, reason: DismissReason) {
        guard book.records[id] != nil else { return }
        remove(id, reason: reason)
    }

    /// The open instances whose declaration has a launch command, with their phases.
    public func processInstances() -> [(id: InstanceID, phase: ScenePhase)] {
        instances(hosted: { if case .process = $0 { return true } else { return false } })
    }

    /// The open instances whose scene's hosting `matches`, with their phases.
    func instances(hosted matches: (SceneHosting) -> Bool) -> [(id: InstanceID, phase: ScenePhase)] {
        book.records.values.filter { declarationsByID[$0.id.scene].map { matches($0.hosting) } ?? false }
            .sorted { $0.id < $1.id }.map { ($0.id, $0.phase) }
    }
}
