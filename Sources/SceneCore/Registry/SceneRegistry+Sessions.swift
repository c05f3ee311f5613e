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
    public func beginLoadSession(_ session: RegistrySnapshot<R>, force: Bool) -> RegistryStep<R, [InstanceID]> {
        step("session.load") { () throws(RegistryRejection) in
            // Everything open is asked, also what opens while the others are asked.
            let everything: @Sendable (isolated SceneRegistry) -> [InstanceID] = { $0.book.records.keys.sorted() }
            let first = force ? [] : closeQuestions(everything(self))
            return .waiting(RegistryWait { registry in
                if !force, let veto = await registry.refusals(first, then: everything).first { return .failure(.closeVetoed(veto)) }
                return .success(await registry.replaceOpen(with: session))
            })
        }
    }

    /// Dismisses everything open, then opens `session`'s instances; answers those opened.
    private func replaceOpen(with session: RegistrySnapshot<R>) async -> [InstanceID] {
        for id in inRemovalOrder(book.records.keys.sorted()) where book.records[id] != nil {
            _ = remove(id, reason: .requested, withDependents: false)  // all go
        }
        var renamed: [InstanceID: InstanceID] = [:]
        var opened: [InstanceID] = []
        // Scenes others require before them (so their saved paths are the ones kept), windows
        // before those pushed from them (each from its parent's new instance).
        func depth(_ scene: String, _ seen: Set<String> = []) -> Int {
            guard !seen.contains(scene) else { return 0 }
            return (declarationsByID[scene]?.requires ?? []).map { depth($0, seen.union([scene])) + 1 }.max() ?? 0
        }
        let ordered = session.instances.enumerated().sorted { first, second in
            let a = (first.element.pushedFrom == nil ? 0 : 1, depth(first.element.id.scene), first.offset)
            let b = (second.element.pushedFrom == nil ? 0 : 1, depth(second.element.id.scene), second.offset)
            return a < b
        }.map(\.element)
        for item in ordered {
            guard let declaration = declarationsByID[item.id.scene] else { continue }
            let plan = try? FlowPlan(validating: item.flow.path)
            let id: InstanceID
            if let parent = item.pushedFrom {
                guard let from = renamed[parent],
                    case .success(let info) = await finish(beginPush(item.id.scene, value: item.value, from: from))
                else { continue }
                id = info.id
                if let plan { _ = try? withInstance(id, for: "session.load") { instance throws(RegistryRejection) in try instance.apply(plan) } }
            } else {
                guard case .success(let outcome) = await finish(step("session.load") { () throws(RegistryRejection) in
                    try openStep(item.id.scene, value: item.value, plan: plan)
                }) else { continue }
                id = outcome.instance.id
            }
            if let style = item.style, case .immersive(let declared) = declaration.kind, style != declared,
                declaration.allowedStyles.contains(style)
            {
                styles[id] = style
                if let info = infoIfOpen(id) { log.emit(.changed(info)) }
            }
            renamed[item.id] = id
            opened.append(id)
        }
        for saved in session.focusOrder {
            if let id = renamed[saved] { book.focusVisible(id) }
        }
        flush()
        return opened
    }
}
