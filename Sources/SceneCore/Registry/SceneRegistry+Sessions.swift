import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// What a saved session keeps (``loadSession(_:force:)``): the open instances with their
    /// values, paths, styles and pushes, the focus order and the immersive space. Not the
    /// pending link, the reopen history, authentication or the id counters: those belong to
    /// this registry's run, and a load does not use them.
    public func sessionSnapshot() -> RegistrySnapshot<R> {
        var session = snapshot()
        session.pendingLink = nil
        session.closed = nil
        session.authenticated = false
        session.counters = [:]
        return session
    }

    /// Replaces what is open with a saved session: the instances of `session` (a
    /// ``snapshot()`` taken earlier) open anew, with their values, paths and styles, windows
    /// pushed as they were, focus in the saved order and the saved immersive space.
    ///
    /// - Unless `force`, every open instance is asked to close first, all at once (and then
    ///   any opened while they were asked); one that refuses fails the whole load with
    ///   `close_vetoed`, and nothing changes.
    /// - Then everything open is dismissed (reason `requested`) and the saved set opens by
    ///   the usual rules, under new ids; an instance of a scene no longer declared, or one
    ///   whose opening fails, is left out. Answers the ids opened, in the saved order.
    /// - Throws: `close_vetoed`.
    public func loadSession(_ session: RegistrySnapshot<R>, force: Bool) async throws(RegistryRejection) -> [InstanceID] {
        try await finish(beginLoadSession(session, force: force)).get()
    }

    /// ``loadSession(_:force:)`` as far as it goes now.
    package func beginLoadSession(_ session: RegistrySnapshot<R>, force: Bool) -> RegistryStep<R, [InstanceID]> {
        step("session.load") { () throws(RegistryRejection) in
            // Everything open is asked, also what opens while the others are asked.
            let everything: @Sendable (isolated SceneRegistry) -> [InstanceID] = { $0.book.askedToLoadSession }
            var rounds = CloseRounds()
            let first = force ? [] : closeQuestions(&rounds, everything(self))
            return .waiting(RegistryWait { [rounds] registry in
                if !force, let veto = registry.book.veto(loadingSession: await registry.refusals(first, rounds: rounds, then: everything)) {
                    return .failure(.closeVetoed(veto))
                }
                return .success(await registry.replaceOpen(with: session))
            })
        }
    }

    /// Dismisses everything open, then opens `session`'s instances (``SessionPlan``);
    /// answers those opened.
    private func replaceOpen(with session: RegistrySnapshot<R>) async -> [InstanceID] {
        let load = SessionPlan(loading: session, over: book)
        carryOut(load.closing.map { Removal($0, .requested) })
        var renamed: [InstanceID: InstanceID] = [:]
        var opened: [InstanceID] = []
        for item in load.opening {
            let plan = item.savedPlan
            let id: InstanceID
            switch load.opening(item, renamed: renamed) {
            case .skip:
                continue
            case .push(let from):
                guard case .success(let info) = await finish(beginPush(item.id.scene, value: item.value, from: from)) else { continue }
                id = info.id
                if let plan { _ = try? withInstance(id, for: "session.load") { instance throws(RegistryRejection) in try instance.apply(plan) } }
            case .open:
                guard case .success(let outcome) = await finish(step("session.load") { () throws(RegistryRejection) in
                    try openStep(item.id.scene, value: item.value, plan: plan)
                }) else { continue }
                id = outcome.instance.id
            }
            if let style = declarationsByID[item.id.scene]?.styleToKeep(item.style) {
                styles[id] = style
                if let info = infoIfOpen(id) { log.emit(.changed(info)) }
            }
            renamed[item.id] = id
            opened.append(id)
        }
        for id in load.focusOrder(renamed: renamed) { book.focusVisible(id) }
        flush()
        return opened
    }
}
