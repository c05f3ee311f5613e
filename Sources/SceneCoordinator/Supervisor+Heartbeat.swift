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
        session.request(SceneMethod.ping, params: RawJSON(.object([:])), timeout: nil) { [unowned self] _ in
            guard self.isCurrent(entry) else { return }
            entry.slot.pingAnswered(generation: generation)
        }
    }
}
