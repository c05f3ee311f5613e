import SceneFlow
import SceneSync
import Synchronization

/// One call's answer, which either the scene or its deadline gives, whichever comes first.
final class PendingAnswer: Sendable {
    typealias Answer = Result<ScenePayload, SceneError>

    private let continuation: UnsafeContinuation<Answer, Never>
    private let answered = Atomic<Bool>(false)

    private init(_ continuation: UnsafeContinuation<Answer, Never>) {
        self.continuation = continuation
    }

    /// Runs `start` with a new pending answer (`start` must lead to its ``resolve(_:)``),
    /// and answers its first resolution, with the pending answer itself.
    static func wait(_ start: (PendingAnswer) -> Void) async -> (Answer, PendingAnswer) {
        var made: PendingAnswer?
        let answer = await withUnsafeContinuation { continuation in
            let pending = PendingAnswer(continuation)
            made = pending
            start(pending)
        }
        return (answer, made!)
    }

    /// Answers the call, if nothing did yet; later answers are dropped.
    func resolve(_ answer: Answer) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        continuation.resume(returning: answer)
    }
}

/// Where calls to the running in-process behaviours enter, by instance: what a call needs,
/// kept apart from the route type so that the path of a call is not generic.
final class Callees: Sendable {
    /// A running behaviour's answer to a call.
    typealias Answering = @Sendable (SceneCall) async -> PendingAnswer.Answer

    private let table = Locked<[InstanceID: Answering]>([:])
    private let deadlines = CallDeadlines()

    /// How `id`'s running behaviour answers, if one runs.
    func callee(_ id: InstanceID) -> Answering? {
        table.withLock { $0[id] }
    }

    func set(_ id: InstanceID, _ answering: Answering?) {
        table.withLock { $0[id] = answering }
    }

    func removeAll() {
        table.withLock { $0.removeAll() }
    }

    /// Has `answering` answer `call` in a task other than the caller's, so that one that
    /// never answers is `call_timeout` after `timeout`, as a process is.
    func call(
        _ call: SceneCall, on answering: @escaping Answering, instance: InstanceID, method: String, timeout: Duration
    ) async throws(SceneError) -> ScenePayload {
        let (answer, pending) = await PendingAnswer.wait { pending in
            deadlines.enter(pending, instance: instance, method: method, timeout: timeout)
            workers.run(CallJob(call: call, answering: answering, pending: pending))
        }
        deadlines.leave(pending)
        return try answer.get()
    }

    private let workers = CallWorkers()
}

/// One call for a worker to answer.
struct CallJob: Sendable {
    let call: SceneCall
    let answering: Callees.Answering
    let pending: PendingAnswer
}

/// Tasks that answer calls, kept between calls: a task is made only when none is idle
/// (calls in flight at once, or a behaviour that never answers and keeps its worker).
///
/// Handing a call to an idle worker costs one resumption, where a new task per call would
/// also allocate and free the task.
final class CallWorkers: Sendable {
    /// How many idle workers are kept; one more ends.
    private static let idleLimit = 64

    private let idle = Locked<[UnsafeContinuation<CallJob?, Never>]>([])

    func run(_ job: CallJob) {
        if let worker = idle.withLock({ $0.popLast() }) {
            worker.resume(returning: job)
        } else {
            Task { await work(job) }
        }
    }

    private func work(_ first: CallJob) async {
        var next: CallJob? = first
        while let job = next {
            job.pending.resolve(await job.answering(job.call))
            next = await withUnsafeContinuation { continuation in
                let parked = idle.withLock { idle -> Bool in
                    guard idle.count < Self.idleLimit else { return false }
                    idle.append(continuation)
                    return true
                }
                if !parked { continuation.resume(returning: nil) }
            }
        }
    }

    deinit {
        for worker in idle.withLock({ $0 }) { worker.resume(returning: nil) }
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
