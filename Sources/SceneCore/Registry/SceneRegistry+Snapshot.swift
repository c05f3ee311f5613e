import SceneFlow
import SceneJSON

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
                    flow: instance.assumeIsolated { $0.flow.snapshot }, pushedFrom: record.pushedFrom, style: styles[id])
            },
            focusOrder: book.focus.ordered, immersive: book.immersive, pendingLink: links.pending?.url,
            authenticated: links.isAuthenticated, counters: book.counters, closed: reopenList.entries.isEmpty ? nil : reopenList.entries)
    }

    /// An instance that was opening comes back active; one that was disconnected stays so
    /// only when a process will be started for it.
    private func restoredPhase(_ phase: ScenePhase, launched: Bool) -> ScenePhase {
        if phase == .opening || (phase == .disconnected && !launched) { return .active }
        return phase
    }

    /// Restores `snapshot` into this registry, which must have no open instance.
    ///
    /// - Instances of declarations with `restore: false` are skipped (their ids are still
    ///   never reused); everything else is validated first, and any problem throws with
    ///   nothing restored.
    /// - A restored instance that was `opening` comes back `active`; each restored
    ///   instance is announced with an `opened` event.
    public func restore(_ snapshot: RegistrySnapshot<R>) throws(RegistryRestoreError) {
        var problems: [ManifestProblem] = []
        func report(_ path: String, _ message: String) { problems.append(ManifestProblem(path: path, message: message)) }
        if !book.records.isEmpty { report("$", "the registry already has open instances") }
        if snapshot.version != RegistrySnapshot<R>.currentVersion {
            report("version", "snapshot version \(snapshot.version) is not supported (expected \(RegistrySnapshot<R>.currentVersion))")
        }
        if snapshot.app != app { report("app", "the snapshot is of app \"\(snapshot.app)\", this registry serves \"\(app)\"") }
        // A book of the same rules: the same scenes, immersive policy and requirements.
        var trial = RegistryBook(scenes: book.scenes, immersivePolicy: book.immersivePolicy, requirements: book.requirements)
        // Numbers this registry has already used stay used.
        for (scene, number) in book.counters { trial.raiseCounter(scene, to: number) }
        var kept: [InstanceSnapshot<R>] = []
        var skipped = Set<InstanceID>()
        for (index, item) in snapshot.instances.enumerated() {
            let path = "instances[\(index)]"
            guard let declaration = declarationsByID[item.id.scene] else {
                report("\(path).id", "no scene \"\(item.id.scene)\" is declared")
                continue
            }
            guard declaration.restore else {
                skipped.insert(item.id)
                trial.raiseCounter(item.id.scene, to: item.id.number)
                continue
            }
            if trial.records[item.id] != nil {
                report("\(path).id", "duplicate instance \(item.id)")
                continue
            }
            if item.phase == .closed { report("\(path).phase", "a closed instance cannot be restored") }
            for problem in item.flow.problems { report("\(path).flow", problem.description) }
            switch trial.resolveOpen(item.id.scene, value: item.value) {
            case .failure(let rejection):
                report(path, "breaks the scene's rules: \(rejection)")
                continue
            case .success(.existing(let other)):
                report(path, "breaks the scene's instance policy: \(other) is already restored")
                continue
            case .success(.new(_, let replacing?)):
                report(path, "a second immersive space: \(replacing) is already restored")
                continue
            case .success(.new(_, nil)):
                break
            }
            trial.insert(InstanceRecord(
                id: item.id, kind: declaration.kind, value: item.value,
                phase: restoredPhase(item.phase, launched: declaration.launch != nil), pushedFrom: nil))
            kept.append(item)
        }
        // Pushed windows: one level deep, one child per parent, both windows, both here.
        let pushedFrom = Dictionary(snapshot.instances.map { ($0.id, $0.pushedFrom) }, uniquingKeysWith: { first, _ in first })
        var pushes: [(child: InstanceID, parent: InstanceID)] = []
        var uncovered = Set<InstanceID>()
        var children: [InstanceID: InstanceID] = [:]
        for (index, item) in snapshot.instances.enumerated() {
            guard let parent = item.pushedFrom else { continue }
            let path = "instances[\(index)].pushedFrom"
            if skipped.contains(item.id) {
                // The pushed window is not restored: its parent comes back in its place.
                if trial.records[parent] != nil { uncovered.insert(parent) }
                continue
            }
            guard trial.records[item.id] != nil else { continue }
            if parent == item.id {
                report(path, "a window cannot be pushed from itself")
            } else if skipped.contains(parent) {
                continue  // its parent is not restored: it comes back as a window of its own
            } else if trial.records[parent] == nil {
                report(path, "\(parent) is not in the snapshot")
            } else if trial.records[parent]?.kind.isWindow != true || trial.records[item.id]?.kind.isWindow != true {
                report(path, "only a window can be pushed from a window")
            } else if pushedFrom[parent] ?? nil != nil {
                report(path, "\(parent) was itself pushed, and a pushed window cannot push")
            } else if let other = children[parent] {
                report(path, "\(parent) already has \(other) pushed from it")
            } else {
                children[parent] = item.id
                pushes.append((item.id, parent))
            }
        }
        for (index, id) in snapshot.focusOrder.enumerated() where trial.records[id] == nil && !skipped.contains(id) {
            report("focusOrder[\(index)]", "\(id) is not in the snapshot")
        }
        if let immersive = snapshot.immersive, !skipped.contains(immersive), trial.immersive != immersive {
            report("immersive", "\(immersive) is not a restored immersive space")
        }
        for (scene, number) in snapshot.counters.sorted(by: { $0.key < $1.key }) where !(0...InstanceID.maximumNumber).contains(number) {
            report("counters.\(scene)", "\(number) is not an instance number (0 to \(InstanceID.maximumNumber))")
        }
        guard problems.isEmpty else { throw RegistryRestoreError(problems: problems) }

        for (scene, number) in snapshot.counters { trial.raiseCounter(scene, to: number) }
        for push in pushes { trial.link(push.child, pushedFrom: push.parent) }
        for parent in uncovered where children[parent] == nil { trial.restorePhase(parent, .active) }
        // A window hidden behind a pushed one takes no part in focus.
        trial.restoreFocus(snapshot.focusOrder.filter { children[$0] == nil })
        book = trial
        for item in kept {
            let record = book.records[item.id]!
            let instance = SceneInstance(
                id: item.id, declaration: declarationsByID[item.id.scene]!, value: record.value,
                executor: home, log: log)
            // Validated above, so restoring the flow cannot fail.
            instance.assumeIsolated { instance in
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
        // What can be reopened: of scenes still declared and restored, with valid paths.
        reopenList = ReopenList(limit: reopenLimit, entries: (snapshot.closed ?? []).filter { item in
            declarationsByID[item.id.scene]?.restore == true && item.flow.problems.isEmpty
        })
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
