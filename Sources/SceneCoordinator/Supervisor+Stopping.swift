import SceneCore
import SceneJSON
import SceneSocket
import SceneWire

/// Stopping: a dismissed instance's process, or every process at shutdown, is stopped in
/// stages — `scene.close {force: true}`, its connection closed, a grace time to exit,
/// SIGTERM, then SIGKILL (the rules are ``ProcessSlot/stop()`` and
/// ``ProcessSlot/stopTimerElapsed(_:generation:)``).
extension Supervisor {
    /// Asks `id`'s process whether it may close; `completion` hears `false` for a veto.
    /// No process, no answer within the grace time, or an error counts as accepted.
    func askClose(_ id: InstanceID, force: Bool, completion: @escaping (Bool) -> Void) {
        guard let session = slots[id]?.session else {
            completion(true)
            return
        }
        session.request(CoordinatorMethod.close, params: RawJSON(WireCodec.json(SceneCloseParams(force: force))), timeout: configuration.closeGrace) { result in
            if case .success(let answer) = result, answer.value["accepted"] == .bool(false), !force {
                completion(false)
            } else {
                completion(true)
            }
        }
    }

    /// `id` was dismissed: its process is stopped in stages, and never restarted.
    func stop(_ id: InstanceID) {
        guard let entry = slots[id] else { return }
        perform(entry.slot.stop(), on: entry)
    }

    /// Asks `entry`'s process to close, forced; whatever it answers, its session is then
    /// closed and the grace time begins.
    func closeThenTerminate(_ entry: Supervised) {
        askClose(entry.id, force: true) { [unowned self] _ in
            guard self.isCurrent(entry) else {
                // Its process ended meanwhile and the slot is gone: only the session is left.
                let session = entry.session
                entry.session = nil
                session?.closeScene()
                return
            }
            self.perform(entry.slot.closeAnswered(), on: entry)
        }
    }

    /// Arms the staged stop's `stage` timer for spawn `generation` of `entry`.
    func armStopTimer(_ stage: StopStage, generation: Int, for entry: Supervised) {
        let delay = stage == .grace ? configuration.closeGrace : configuration.terminateGrace
        loop.scheduleOnLoop(after: delay) { [weak self] in
            guard let self, self.isCurrent(entry) else { return }
            self.perform(entry.slot.stopTimerElapsed(stage, generation: generation), on: entry)
        }
    }

    /// Stops every process in stages without dismissing any instance (coordinator
    /// shutdown); `completion` runs once none is left.
    func stopAll(completion: @escaping () -> Void) {
        closing = true
        stopWaiters.append(completion)
        for id in Array(slots.keys) { stop(id) }
        finishStopIfDone()
    }

    func finishStopIfDone() {
        guard closing, slots.isEmpty else { return }
        let waiters = stopWaiters
        stopWaiters.removeAll()
        for waiter in waiters { waiter() }
    }

    /// Ends the heartbeat (the loop is stopping; processes die with it).
    func close() {
        closing = true
    }
}
