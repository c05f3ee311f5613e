package import SceneFlow

/// What restoring a snapshot into a registry does, decided and checked before anything
/// changes: the bookkeeping it ends with, the instances restored, what can be reopened —
/// or every problem, and nothing restored.
///
/// - Instances of declarations with `restore: false` are skipped (their numbers stay
///   used); the rest must keep the scenes' instance policies and the immersive rules, and
///   have valid paths. A restored instance that was `opening` comes back `active`; one
///   that was `disconnected` stays so only when a process will be started for it.
/// - Pushed windows: one level deep, one child per parent, both windows, both here. A
///   skipped pushed window gives its parent its place back; the pushed window of a skipped
///   parent comes back as a window of its own. A window hidden behind a pushed one takes
///   no part in focus.
/// - What can be reopened: entries of scenes still declared and restored, with valid paths.
package struct RestorePlan<R: Route>: Sendable {
    /// The bookkeeping once restored.
    package let book: RegistryBook
    /// The instances restored, in the snapshot's order.
    package let kept: [InstanceSnapshot<R>]
    /// The entries kept for reopen.
    package let reopenable: [InstanceSnapshot<R>]

    /// The plan of restoring `snapshot` over `current` (which must have no open instance),
    /// for app `app` with `declarations`.
    ///
    /// - Throws: every problem found, each with where it is in the snapshot.
    package init(
        restoring snapshot: RegistrySnapshot<R>, over current: RegistryBook, app: String, declarations: [String: SceneDeclaration<R>]
    ) throws(RegistryRestoreError) {
        var problems: [ManifestProblem] = []
        func report(_ path: String, _ message: String) { problems.append(ManifestProblem(path: path, message: message)) }
        if !current.records.isEmpty { report("$", "the registry already has open instances") }
        if snapshot.version != RegistrySnapshot<R>.currentVersion {
            report("version", "snapshot version \(snapshot.version) is not supported (expected \(RegistrySnapshot<R>.currentVersion))")
        }
        if snapshot.app != app { report("app", "the snapshot is of app \"\(snapshot.app)\", this registry serves \"\(app)\"") }
        // A book of the same rules: the same scenes, immersive policy and requirements.
        var trial = RegistryBook(scenes: current.scenes, immersivePolicy: current.immersivePolicy, requirements: current.requirements)
        // Numbers this registry has already used stay used.
        for (scene, number) in current.counters { trial.raiseCounter(scene, to: number) }
        var kept: [InstanceSnapshot<R>] = []
        var skipped = Set<InstanceID>()
        for (index, item) in snapshot.instances.enumerated() {
            let path = "instances[\(index)]"
            guard let declaration = declarations[item.id.scene] else {
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
                phase: Self.restoredPhase(item.phase, launched: declaration.launch != nil), pushedFrom: nil))
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
        self.kept = kept
        reopenable = (snapshot.closed ?? []).filter { item in
            declarations[item.id.scene]?.restore == true && item.flow.problems.isEmpty
        }
    }

    /// An instance that was opening comes back active; one that was disconnected stays so
    /// only when a process will be started for it.
    package static func restoredPhase(_ phase: ScenePhase, launched: Bool) -> ScenePhase {
        if phase == .opening || (phase == .disconnected && !launched) { return .active }
        return phase
    }
}
