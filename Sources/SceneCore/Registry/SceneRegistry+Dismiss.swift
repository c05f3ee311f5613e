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
    /// Dismisses one instance; unless `force`, it is first asked to close (see
    /// ``SceneBacking/close(_:force:)``) and may refuse.
    ///
    /// - When it is its scene's last instance, the instances of the scenes that require that
    ///   scene go first (see ``SceneDeclaration/requires``); unless `force`, they are asked
    ///   too, with it, and one refusal fails the whole dismiss.
    /// - Refused `close_vetoed` when one refuses, `not_open` when the instance is not open
    ///   (also when it went while it was asked).
    /// - An instance still opening is never asked: it is cancelled.
    @_specialize(where R == JSONValue)
    @discardableResult
    public func dismiss(_ id: InstanceID, force: Bool = false) async throws(RegistryRejection) -> [InstanceID] {
        // Forced, it asks nobody and never waits: done in this step.
        if force { return try rejectingSync("scene.dismiss") { (self) throws(RegistryRejection) in try self.dismissNow(id) } }
        return try await dismiss(id, force: false, closingItself: false)
    }

    /// ``dismiss(_:force:)`` of an instance that asked for its own dismissal
    /// (`closingItself`), so it is not asked (the instances that require its scene still
    /// are, unless `force`): a scene's own request.
    @discardableResult
    package func dismiss(_ id: InstanceID, force: Bool, closingItself: Bool) async throws(RegistryRejection) -> [InstanceID] {
        try await finish(beginDismiss(id, force: force, closingItself: closingItself)).get()
    }

    /// ``dismiss(_:force:closingItself:)`` as far as it goes now: done, unless someone must
    /// be asked.
    @_specialize(where R == JSONValue)
    package func beginDismiss(_ id: InstanceID, force: Bool = false, closingItself: Bool = false) -> RegistryStep<R, [InstanceID]> {
        step("scene.dismiss") { () throws(RegistryRejection) in
            guard book.records[id] != nil else { throw .instanceNotOpen(id) }
            // Forced: nobody is asked.
            if force { return .done(.success(try dismissNow(id))) }
            let asked: @Sendable (isolated SceneRegistry) -> [InstanceID] = { $0.book.askedToDismiss(id, closingItself: closingItself) }
            var rounds = CloseRounds()
            let first = closeQuestions(&rounds, asked(self))
            guard !first.isEmpty else { return .done(.success(try dismissNow(id))) }
            return .waiting(RegistryWait { [rounds] registry in
                let refused = await registry.refusals(first, rounds: rounds, then: asked)
                if let veto = registry.book.veto(dismissing: id, refused: refused) { return .failure(.closeVetoed(veto)) }
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
    @discardableResult
    public func dismiss(scene: String, value: JSONValue? = nil, force: Bool = false) async throws(RegistryRejection) -> DismissOutcome {
        try await finish(beginDismiss(scene: scene, value: value, force: force)).get()
    }

    /// ``dismiss(scene:value:force:)`` as far as it goes now: done, unless some instance
    /// must be asked.
    @_specialize(where R == JSONValue)
    package func beginDismiss(scene: String, value: JSONValue? = nil, force: Bool = false) -> RegistryStep<R, DismissOutcome> {
        step("scene.dismiss") { () throws(RegistryRejection) in
            let targets = try book.dismissTargets(scene, value: value).get()
            if force { return .done(.success(dismissAll(targets, refused: []))) }
            let asked: @Sendable (isolated SceneRegistry) -> [InstanceID] = { $0.book.askedToDismiss(scene: targets) }
            var rounds = CloseRounds()
            let first = closeQuestions(&rounds, asked(self))
            guard !first.isEmpty else { return .done(.success(dismissAll(targets, refused: []))) }
            return .waiting(RegistryWait { [rounds] registry in
                let refused = await registry.refusals(first, rounds: rounds, then: asked)
                if let veto = registry.book.veto(dismissingScene: targets, refused: refused) { return .failure(.closeVetoed(veto)) }
                return .success(registry.dismissAll(targets, refused: Set(refused)))
            })
        }
    }

    /// Dismisses `id` now (an instance still opening is cancelled), with the instances that
    /// go with it (`RegistryBook.dependents(leaving:)`).
    func dismissNow(_ id: InstanceID) throws(RegistryRejection) -> [InstanceID] {
        guard let reason = inspect({ $0.dismissReason(id) }) else { throw .instanceNotOpen(id) }
        return remove(id, reason: reason)
    }

    /// Asks the questions `first`, all at once; then the rounds `rounds` says are left of
    /// those `targets` names, until none (``CloseRounds``). Answers who refused, in id order
    /// (those still new after the last round count as refusing).
    func refusals(
        _ first: [(InstanceID, @Sendable () async -> Bool)], rounds: CloseRounds,
        then targets: (isolated SceneRegistry) -> [InstanceID]
    ) async -> [InstanceID] {
        var rounds = rounds
        var refused = await Self.refusals(first)
        while true {
            switch rounds.next(answerable(targets(self))) {
            case .done:
                return refused.sorted()
            case .giveUp(let still):
                return (refused + still).sorted()
            case .ask(let ids):
                refused += await Self.refusals(ids.compactMap { id in closeQuestion(id).map { (id, $0) } })
            }
        }
    }

    /// The first round of close questions of `targets` (``CloseRounds``): those asked, each
    /// with what asks it.
    func closeQuestions(_ rounds: inout CloseRounds, _ targets: [InstanceID]) -> [(InstanceID, @Sendable () async -> Bool)] {
        guard case .ask(let ids) = rounds.next(answerable(targets)) else { return [] }
        return ids.compactMap { id in closeQuestion(id).map { (id, $0) } }
    }

    /// Of `targets`, those asked before they close (``RegistryBook/answerable(_:closePolicy:backed:)``).
    func answerable(_ targets: [InstanceID]) -> [InstanceID] {
        book.answerable(targets, closePolicy: closePolicy != nil) { backing(of: $0) != nil }
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
        let askers = RegistryBook.closeAskers(closePolicy: policy != nil, backed: backing != nil)
        guard !askers.isEmpty else { return nil }
        return {
            for asker in askers {
                switch asker {
                case .closePolicy: if let policy, await !policy(id) { return false }
                case .backing: if let backing, await !backing.close(id, force: false) { return false }
                }
            }
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
        let vetoed = book.vetoed(dismissingScene: targets, refused: refused)
        for id in vetoed { log.emit(.requestRejected(request: "scene.dismiss", reason: .closeVetoed(id))) }
        return DismissOutcome(dismissed: dismissed, vetoed: vetoed)
    }

    /// Dismisses the open immersive space, whichever it is.
    @discardableResult
    public func dismissImmersive() throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("immersive.dismiss") { (self) throws(RegistryRejection) in
            let removal = try self.book.immersiveDismissal.get()
            return self.remove(removal.id, reason: removal.reason)
        }
    }
}
