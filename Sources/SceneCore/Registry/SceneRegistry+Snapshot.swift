import SceneFlow
import SceneJSON
import SceneSync

extension SceneRegistry {
    /// The snapshot and the number of the last event it includes, taken in one step.
    public func snapshotWithSequence() -> (snapshot: RegistrySnapshot<R>, seq: UInt64) {
        (snapshot(), log.seq)
    }

    /// Runs `body` for every event from now on, synchronously as it is emitted, on the
    /// registry's executor, in order, before the request that caused it is answered (a
    /// write-ahead journal, or a server's fan-out to its connections). Keep it short: the
    /// registry waits for it. Observers stay for the registry's life.
    public nonisolated func observeEvents(_ body: @escaping @Sendable (SequencedEvent<R>) -> Void) {
        log.observe(body)
    }

    /// The whole registry as Codable data.
    public func snapshot() -> RegistrySnapshot<R> {
        let open = book.records.keys.sorted()
        return RegistrySnapshot(
            app: app,
            instances: open.compactMap { id in
                guard let record = book.records[id], let instance = instances[id] else { return nil }
                return InstanceSnapshot(
                    id: id, value: record.value, phase: record.phase,
                    flow: entering(instance) { $0.flow.snapshot }, pushedFrom: record.pushedFrom, style: styles[id])
            },
            focusOrder: book.focus.ordered, immersive: book.immersive, pendingLink: links.pending?.url,
            authenticated: links.isAuthenticated, counters: book.counters, closed: reopenList.entries.isEmpty ? nil : reopenList.entries)
    }

    /// Restores `snapshot` into this registry, which must have no open instance.
    ///
    /// - Instances of declarations with `restore: false` are skipped (their ids are still
    ///   never reused); everything else is validated first, and any problem throws with
    ///   nothing restored.
    /// - A restored instance that was `opening` comes back `active`; each restored
    ///   instance is announced with an `opened` event.
    public func restore(_ snapshot: RegistrySnapshot<R>) throws(RegistryRestoreError) {
        let plan = try RestorePlan(restoring: snapshot, over: book, app: app, declarations: declarationsByID)
        book = plan.book
        let kept = plan.kept
        for item in kept {
            let record = book.records[item.id]!
            let instance = SceneInstance(
                id: item.id, declaration: declarationsByID[item.id.scene]!, value: record.value,
                executor: home, log: log)
            // Validated by the plan, so restoring the flow cannot fail.
            entering(instance) { instance in
                try? instance.restoreFlow(item.flow)
                instance.phase = record.phase
            }
            instances[item.id] = instance
            // A style the scene no longer allows gives way to its declared one; the declared
            // one itself is not kept as a change (a journal replay records every style), so
            // the instance follows its declaration.
            if let style = declarationsByID[item.id.scene]?.styleToKeep(item.style) { styles[item.id] = style }
        }
        for item in kept {
            if let info = infoIfOpen(item.id) { log.emit(.opened(info)) }
        }
        reopenList = ReopenList(limit: reopenLimit, entries: plan.reopenable)
        links.reset()
        if snapshot.authenticated { _ = links.setAuthenticated(true) }
        if let url = snapshot.pendingLink {
            // Re-checked against today's rules; a link that no longer waits is dropped.
            if case .pending(let link, _) = links.open(url) { log.emit(.linkPending(url: link.url)) }
        }
        // In-process scenes come back without their behaviours, which start again now, as a
        // coordinator starts the processes of restored process scenes.
        if let host {
            let hosted = instances(hosted: { $0 == .inProcess }).map(\.id)
            for id in hosted { processDisconnected(id, exit: nil) }
            host.adopt(hosted)
        }
    }
}
