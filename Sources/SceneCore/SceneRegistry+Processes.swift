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
    /// - Refused `close_vetoed` when it refuses, `not_open` when it is not open (also when
    ///   it went while it was asked).
    /// - An instance still opening is never asked: it is cancelled.
    @discardableResult
    public func dismiss(_ id: InstanceID, force: Bool) async throws(RegistryRejection) -> [InstanceID] {
        try await finish(beginDismiss(id, force: force)).get()
    }

    /// ``dismiss(_:force:)`` as far as it goes now: done, unless the instance must be asked.
    public func beginDismiss(_ id: InstanceID, force: Bool) -> RegistryStep<R, [InstanceID]> {
        let dependents = dependents(ofLast: id)
        if !dependents.isEmpty { return beginDismiss(id, with: dependents, force: force) }
        return step("scene.dismiss") { () throws(RegistryRejection) in
            guard !force, let record = book.records[id], record.phase != .opening, let ask = closeQuestion(id) else {
                return .done(.success(try dismissNow(id)))
            }
            return .waiting(RegistryWait { registry in
                guard await ask() else { return .failure(.closeVetoed(id)) }
                return Result { () throws(RegistryRejection) in try registry.dismissNow(id) }
            })
        }
    }

    /// Dismisses the instances of `scene` (with `value`, when given); unless `force`, each
    /// is first asked to close, all at once, and those that refuse stay.
    ///
    /// - Refused `unknown_scene`, or `not_open` when none is open.
    public func dismiss(scene: String, value: JSONValue? = nil, force: Bool) async throws(RegistryRejection) -> DismissOutcome {
        try await finish(beginDismiss(scene: scene, value: value, force: force)).get()
    }

    /// ``dismiss(scene:value:force:)`` as far as it goes now: done, unless some instance
    /// must be asked.
    public func beginDismiss(scene: String, value: JSONValue? = nil, force: Bool) -> RegistryStep<R, DismissOutcome> {
        step("scene.dismiss") { () throws(RegistryRejection) in
            let targets = try book.dismissTargets(scene, value: value).get()
            let asked = force ? [] : closeQuestions(targets)
            guard !asked.isEmpty else {
                return .done(.success(dismissAll(targets, refused: [])))
            }
            return .waiting(RegistryWait { registry in
                .success(registry.dismissAll(targets, refused: Set(await Self.refusals(asked))))
            })
        }
    }

    /// The instances of the scenes that require `id`'s scene, directly or through others,
    /// when `id` is its scene's last instance: they go before it.
    func dependents(ofLast id: InstanceID) -> [InstanceID] {
        guard book.instances(of: id.scene) == [id] else { return [] }
        var scenes = Set<String>()
        var frontier = [id.scene]
        while let scene = frontier.popLast() {
            for declaration in declarations where declaration.requires.contains(scene) && scenes.insert(declaration.id).inserted {
                frontier.append(declaration.id)
            }
        }
        return scenes.sorted().flatMap { book.instances(of: $0) }
    }

    /// Dismisses `id` after `dependents` (which require its scene); unless `force`, all are
    /// asked first, and one refusal fails the whole dismiss (`close_vetoed`), nothing gone.
    private func beginDismiss(_ id: InstanceID, with dependents: [InstanceID], force: Bool) -> RegistryStep<R, [InstanceID]> {
        step("scene.dismiss") { () throws(RegistryRejection) in
            let targets = dependents + [id]
            let asked = force ? [] : closeQuestions(targets)
            guard !asked.isEmpty else { return .done(.success(try dismissInOrder(targets))) }
            return .waiting(RegistryWait { registry in
                if let first = await Self.refusals(asked).first { return .failure(.closeVetoed(first)) }
                return Result { () throws(RegistryRejection) in try registry.dismissInOrder(targets) }
            })
        }
    }

    /// Dismisses `targets` in order (those gone meanwhile skipped); answers what went.
    private func dismissInOrder(_ targets: [InstanceID]) throws(RegistryRejection) -> [InstanceID] {
        var dismissed: [InstanceID] = []
        for target in targets where book.records[target] != nil {
            dismissed += try dismissNow(target)
        }
        guard !dismissed.isEmpty else { throw .notOpen(targets.last?.description ?? "") }
        return dismissed
    }

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
            guard let reason = book.requestedDismissReason(id) else { continue }
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
