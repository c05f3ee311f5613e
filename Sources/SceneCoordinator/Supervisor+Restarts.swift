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
        // An attached process is gone with its connection.
        if entry.slot.attached { entry.startedAt = nil }
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
        guard !asked, actions.contains(where: { if case .scheduleRestart = $0 { true } else { false } }) else { return }
        switch registry.groupRestart(after: entry.id) {
        case .alone:
            break
        case .restarting(let group, let others):
            if !others.isEmpty {
                Log.info("group \(group): \(entry.id) restarts; so do \(others.map(\.description).joined(separator: ", "))")
            }
        case .dismissed(let group, let dismissed):
            Log.warn("group \(group) restarted more often than its intensity allows; dismissed \(dismissed.map(\.description).joined(separator: ", "))")
            // Stopped now, in this turn: a restart queued for one finds it stopping and
            // starts nothing. (When an in-process behaviour's end trips the intensity, the
            // processes are stopped by the registry's dismissal, a turn later: a restart
            // already queued may still spawn one, whose hello is refused, and it is stopped.)
            for id in dismissed { stop(id) }
        }
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
