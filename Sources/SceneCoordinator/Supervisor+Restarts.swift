import SceneCore
import SceneSocket

/// Ends: a process exits, or its connection closes; the restart policy decides what
/// follows (the rules are ``ProcessSlot/ended(generation:exit:now:)`` and
/// ``ProcessSlot/sessionClosed(abnormal:)``).
extension Supervisor {
    /// A scene session closed: its process is expected to exit; it gets the staged stop's
    /// grace time to do so. When the coordinator closed it (a framing error, a full write
    /// queue), the end counts as abnormal whatever the exit status.
    func sessionClosed(_ session: Session, reason: CloseReason) {
        guard let id = session.instance, let entry = slots[id], entry.session === session else { return }
        entry.session = nil
        let abnormal: Bool
        switch reason {
        case .peerClosed, .eofMidFrame: abnormal = false
        default: abnormal = true
        }
        perform(entry.slot.sessionClosed(abnormal: abnormal), on: entry)
    }

    /// `entry`'s process of spawn `generation` ended.
    func processEnded(_ entry: Supervised, generation: Int, end: ProcessEnd) {
        guard isCurrent(entry), entry.slot.generation == generation else { return }
        entry.process = nil
        onChange?()
        let exit: ProcessExit
        switch end {
        case .exited(let status): exit = .exited(status)
        case .signalled(let signal): exit = .signalled(signal)
        }
        Log.info("\(entry.id): process \(exit)")
        entry.lastEnd = exit
        entry.lastEndCause = entry.killCause
        entry.startedAt = nil
        let asked = entry.slot.restartAsked
        let actions = entry.slot.ended(generation: generation, exit: exit, now: now)
        perform(actions, on: entry)
        // A restart its policy decided (not one asked for) restarts its group's others, by
        // the group's strategy; past the group's intensity, the whole group is dismissed.
        if !asked, actions.contains(where: { if case .scheduleRestart = $0 { true } else { false } }),
            let group = registry.group(of: entry.id.scene)
        {
            restartGroup(group, after: entry.id)
        }
    }

    /// `ended`'s scene restarts: its group follows its strategy, or goes when it restarted
    /// too often.
    private func restartGroup(_ group: SupervisionGroup, after ended: InstanceID) {
        var history = groupHistories[group.id]
            ?? RestartHistory(policy: RestartPolicy(mode: .permanent, maxRestarts: group.maxRestarts, withinSeconds: group.withinSeconds))
        let decision = history.decide(clean: false, now: now)
        groupHistories[group.id] = history
        if case .dismiss = decision {
            Log.warn("group \(group.id) restarted more than \(group.maxRestarts) times in \(group.withinSeconds) s; dismissing it")
            for scene in group.scenes {
                for id in registry.instances(of: scene) {
                    // Stopping first: a restart queued for it finds it stopping and starts nothing.
                    stop(id)
                    registry.dismissProcess(id, reason: .restartIntensity)
                }
            }
            return
        }
        let others = group.restartsWith(ended.scene).flatMap { registry.instances(of: $0) }
        if !others.isEmpty { Log.info("group \(group.id) (\(group.strategy.rawValue)): \(ended) restarts; so do \(others.map(\.description).joined(separator: ", "))") }
        for id in others { _ = restart(id) }
    }

    /// The restart scheduled after spawn `generation` of `id` is due.
    func restartDue(_ id: InstanceID, generation: Int) {
        guard let entry = slots[id] else { return }
        let actions = entry.slot.restartDue(generation: generation, closing: closing)
        if !actions.isEmpty { Log.info("\(id): restarting") }
        perform(actions, on: entry)
    }

    /// `scene.restart`: the process of `id` is stopped in stages and a new one started at
    /// once, whatever the restart policy. False when nothing supervises `id` (not a process
    /// scene, or stopping).
    func restart(_ id: InstanceID) -> Bool {
        guard let entry = slots[id] else { return false }
        let (accepted, actions) = entry.slot.restartRequested()
        guard accepted else { return false }
        Log.info("\(id): restarting its process, as asked")
        perform(actions, on: entry)
        return true
    }
}
