import SceneFlow
import SceneSync

/// One call's answer, which either the scene or its deadline gives, whichever comes first.
final class PendingAnswer: Sendable {
    typealias Answer = Result<ScenePayload, SceneError>

    private let waiter = Locked<CheckedContinuation<Answer, Never>?>(nil)

    /// Runs `start` (which must lead to ``resolve(_:)``), and answers the first resolution.
    func wait(_ start: () -> Void) async -> Answer {
        await withCheckedContinuation { continuation in
            waiter.withLock { $0 = continuation }
            start()
        }
    }

    /// Answers the call, if nothing did yet; later answers are dropped.
    func resolve(_ answer: Answer) {
        let continuation = waiter.withLock { waiting -> CheckedContinuation<Answer, Never>? in
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(returning: answer)
    }
}

/// The deadlines of the calls in flight to in-process scenes.
///
/// A call is entered as it starts and removed as it is answered, so only calls in flight
/// are kept, however many are made. One task sleeps until the earliest deadline, and only
/// while a call is in flight; it answers the calls whose time is up `call_timeout`.
final class CallDeadlines: Sendable {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let answer: PendingAnswer
        let instance: InstanceID
        let method: String
        let timeout: Duration
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// When the sleeping task wakes, if one sleeps; `generation` tells a task that a
        /// newer one took over.
        var wake: ContinuousClock.Instant?
        var generation = 0
    }

    private let state = Locked(State())

    /// Enters a call made now that may wait `timeout`.
    func enter(_ answer: PendingAnswer, instance: InstanceID, method: String, timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        let entry = Entry(deadline: deadline, answer: answer, instance: instance, method: method, timeout: timeout)
        let sleeper = state.withLock { state -> (ContinuousClock.Instant, Int)? in
            state.entries[ObjectIdentifier(answer)] = entry
            if let wake = state.wake, wake <= deadline { return nil }
            state.wake = deadline
            state.generation += 1
            return (deadline, state.generation)
        }
        if let (wake, generation) = sleeper { sleep(until: wake, generation: generation) }
    }

    /// Removes an answered call.
    func leave(_ answer: PendingAnswer) {
        state.withLock { _ = $0.entries.removeValue(forKey: ObjectIdentifier(answer)) }
    }

    private func sleep(until wake: ContinuousClock.Instant, generation: Int) {
        Task { [weak self] in
            var wake = wake
            while true {
                try? await Task.sleep(until: wake, clock: .continuous)
                guard let self, let next = self.sweep(generation: generation) else { return }
                wake = next
            }
        }
    }

    /// Answers the calls whose deadline passed; answers when to wake next, or nil when this
    /// sleeper is done (nothing is left, or a newer one took over).
    private func sweep(generation: Int) -> ContinuousClock.Instant? {
        let now = ContinuousClock.now
        let (expired, next) = state.withLock { state -> ([Entry], ContinuousClock.Instant?) in
            guard state.generation == generation else { return ([], nil) }
            var expired: [Entry] = []
            var next: ContinuousClock.Instant?
            for (key, entry) in state.entries {
                if entry.deadline <= now {
                    expired.append(entry)
                    state.entries[key] = nil
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            state.wake = next
            return (expired, next)
        }
        for entry in expired {
            entry.answer.resolve(.failure(.callTimeout(entry.instance, method: entry.method, after: entry.timeout)))
        }
        return next
    }
}
