import SceneCore
import SceneSocket
import SceneWire

/// Heartbeats: every interval each connected process is pinged; one that leaves the
/// configured number of pings in a row unanswered is killed (the rule is
/// ``ProcessSlot/beat(misses:)``).
extension Supervisor {
    func scheduleBeat() {
        loop.scheduleOnLoop(after: configuration.heartbeatInterval) { [weak self] in
            guard let self, !self.closing else { return }
            self.beat()
            self.scheduleBeat()
        }
    }

    private func beat() {
        for entry in slots.values {
            perform(entry.slot.beat(misses: configuration.heartbeatMisses), on: entry)
        }
    }

    /// Pings `entry`'s process for spawn `generation`; any answer, even an error, means it
    /// is alive.
    func ping(_ entry: Supervised, generation: Int) {
        guard let session = entry.session else { return }
        session.request(CoordinatorMethod.ping, params: RawJSON(.object([:])), timeout: nil) { [unowned self] answer in
            guard self.isCurrent(entry) else { return }
            // The connection's own end is no answer from the scene.
            let closed: Bool
            if case .failure(let error) = answer { closed = error.reason == .notConnected } else { closed = false }
            if !closed { entry.lastAnswer = self.now }
            entry.slot.pingAnswered(generation: generation)
        }
    }
}

extension Supervisor {
    /// How instance `id`'s process is doing; nil when no process backs it.
    func status(of id: InstanceID) -> ProcessStatus? {
        guard let entry = slots[id] else { return nil }
        let stage: String
        switch entry.slot.stage {
        case .idle: stage = "idle"
        case .starting: stage = entry.slot.attached ? "waiting" : "starting"
        case .connected: stage = "connected"
        case .unreachable: stage = "unreachable"
        }
        let lastExit = entry.lastEnd.map { end -> ProcessStatus.End in
            switch end {
            case .exited(let status):
                return ProcessStatus.End(status: status, signal: nil, killed: entry.lastEndCause?.description)
            case .signalled(let signal):
                return ProcessStatus.End(status: nil, signal: signal, killed: entry.lastEndCause?.description)
            }
        }
        return ProcessStatus(
            stage: stage, pid: entry.process?.pid, uptime: entry.startedAt.map { now - $0 },
            heartbeatAge: entry.process == nil && entry.session == nil ? nil : entry.lastAnswer.map { now - $0 }, starts: entry.spawns,
            lastExit: lastExit, command: entry.slot.spec.command)
    }
}
