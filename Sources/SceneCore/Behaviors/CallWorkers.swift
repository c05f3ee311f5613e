import Glibc
package import SceneFlow
package import SceneSync
import Synchronization

/// Where calls to the running in-process behaviours enter, by instance: what a call needs,
/// kept apart from the route type so that the path of a call is not generic.
final class Callees: Sendable {
    private let table = Locked<[InstanceID: CallWorkers]>([:])

    /// The workers of `id`'s running behaviour, if one runs.
    func workers(_ id: InstanceID) -> CallWorkers? {
        table.withLock { $0[id] }
    }

    /// Records `id`'s running behaviour, or (nil) that none runs; the idle workers of the
    /// one before end.
    func set(_ id: InstanceID, _ workers: CallWorkers?) {
        let gone = table.withLock { table in
            defer { table[id] = workers }
            return table[id]
        }
        if let gone, gone !== workers { gone.endIdle() }
    }

    func removeAll() {
        let gone = table.withLock { table in
            defer { table.removeAll() }
            return Array(table.values)
        }
        for workers in gone { workers.endIdle() }
    }

    /// Has a worker of the running behaviour `target` names answer `call`, admitted with
    /// `timeout` (``SceneCall/admitted(to:interface:timeout:standard:)``), so that one that
    /// never answers is `call_timeout` after it, as a process is; nil, having done nothing,
    /// when `target` names no instance whose behaviour runs now.
    nonisolated(nonsending) func callIfRunning(_ call: SceneCall, to target: SceneTarget, timeout: Duration)
        async throws(SceneError) -> ScenePayload?
    {
        guard case .instance(let id) = target, let workers = workers(id) else { return nil }
        return try await withUnsafeContinuation { continuation in
            workers.run(CallJob(work: .call(call), waiter: .task(continuation), instance: id, timeout: timeout))
        }.get()
    }

    /// Has a worker of the behaviour carry out `work`, with `timeout`.
    static func run(_ work: CallJob.Work, on workers: CallWorkers, instance: InstanceID, timeout: Duration) async
        -> CallJob.Answer
    {
        await withUnsafeContinuation { continuation in
            workers.run(CallJob(work: work, waiter: .task(continuation), instance: instance, timeout: timeout))
        }
    }
}

/// One call for a worker to answer, and its answer, which either the behaviour or the
/// deadline gives, whichever comes first (a class: it is handed on, never copied).
package final class CallJob: Sendable {
    package typealias Answer = Result<ScenePayload, SceneError>

    package enum Work: Sendable {
        case call(SceneCall)
        /// An interactive close, asked; answers the behaviour's `Bool`.
        case close(force: Bool)
        /// Its start, with its context (a `SceneContext` of the behaviour's route type).
        case start
        /// A route request to decide: the route and the instance's path, of the behaviour's
        /// route type; answers the decision as JSON (null for none).
        case decide(route: any Sendable, path: any Sendable)

        var method: String {
            switch self {
            case .call(let call): return call.method
            case .close: return "scene.close"
            case .start: return "start"
            case .decide: return "scene.decide"
            }
        }
    }

    /// Who takes the answer.
    package enum Waiter: Sendable {
        /// A task, suspended until it comes.
        case task(UnsafeContinuation<Answer, Never>)
        /// A function, called where the worker or the deadline gives it.
        case handler(@Sendable (Answer) -> Void)
    }

    let work: Work
    let instance: InstanceID
    let timeout: Duration
    private let waiter: Waiter
    private let answered = Atomic<Bool>(false)

    package init(work: Work, waiter: Waiter, instance: InstanceID, timeout: Duration) {
        self.work = work
        self.waiter = waiter
        self.instance = instance
        self.timeout = timeout
    }

    /// Answers the call, if nothing did yet; later answers are dropped.
    package func resolve(_ answer: Answer) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        switch waiter {
        case .task(let continuation): continuation.resume(returning: answer)
        case .handler(let handler): handler(answer)
        }
    }
}

extension SceneBehavior {
    /// A worker's life, in the behaviour's isolation: it answers a call, then parks until
    /// the next. A parked worker resumes on the behaviour's executor, so a call costs the
    /// caller's suspension and two resumptions, with no hop in between.
    func serve(_ first: CallJob, worker: Int, of workers: CallWorkers) async {
        var next: CallJob? = first
        while let job = next {
            switch job.work {
            case .call(let call):
                do {
                    job.resolve(.success(try await answer(call)))
                } catch {
                    job.resolve(.failure(SceneError(thrown: error)))
                }
            case .close(let force):
                job.resolve(.success(ScenePayload(json: .bool(await close(force: force)))))
            case .decide(let route, let path):
                // The registry asks with this behaviour's route type.
                let decision = await decide(route as! R, path: path as! [RouteStep<R>])
                job.resolve(.success(ScenePayload(json: decision?.decisionJSON ?? .null)))
            case .start:
                do {
                    try await start()
                    job.resolve(.success(.empty))
                } catch {
                    job.resolve(.failure(SceneError(thrown: error)))
                }
            }
            next = await withUnsafeContinuation { workers.park(worker, $0) }
        }
    }
}

/// The tasks that answer calls to one in-process behaviour, kept between calls, and the
/// deadlines of the calls they answer.
///
/// - A call goes to an idle worker (one resumption); a task is made only when none is idle
///   (calls in flight at once, or one that never answered and keeps its worker).
/// - Each busy worker's call has a deadline. A task sleeps until the earliest (one that an
///   earlier deadline replaced wakes at its own time and ends), only while calls are in
///   flight, and answers the calls whose time is up `call_timeout`.
/// - The hand-over, the deadline and the worker's return to idle share one lock: a call
///   takes it twice.
package final class CallWorkers: Sendable {
    /// How many idle workers are kept; one more ends.
    private static let idleLimit = 16

    private struct Busy {
        let job: CallJob
        let deadline: UInt64
        /// Answered `call_timeout` already; the worker is still in the behaviour.
        var expired = false
    }

    private struct State {
        var idle: [(worker: Int, resume: UnsafeContinuation<CallJob?, Never>)] = []
        /// By worker number.
        var busy: [Busy?] = []
        /// When the sleeping task wakes, if one sleeps; `generation` tells a sleeping task
        /// that a newer one took over.
        var wake: UInt64?
        var generation = 0
        var ended = false
    }

    private let state = Locked(State())
    /// Starts worker number `worker` on its first call, in the behaviour's isolation.
    private let start: @Sendable (CallJob, Int, CallWorkers) -> Void
    /// Where deadlines are read and waited for; nil: the coarse monotonic clock.
    private let time: (any TimeSource)?

    /// Workers for `behavior`, hosted beside `host` (the registry's executor, or a scene
    /// process's client loop). A behaviour that runs on `host`, when that is also a task
    /// executor (an event loop), has its workers prefer it: a worker then resumes there
    /// directly, and a call from the loop takes no thread switch.
    package init<R: Route>(_ behavior: any SceneBehavior<R>, host: (any SerialExecutor)?, time: (any TimeSource)? = nil) {
        self.time = time
        let taskExecutor = host.flatMap { host in
            Self.same(behavior.unownedExecutor, host.asUnownedSerialExecutor()) ? host as? any TaskExecutor : nil
        }
        if let taskExecutor {
            start = { job, worker, workers in
                Task(executorPreference: taskExecutor) { await behavior.serve(job, worker: worker, of: workers) }
            }
        } else {
            start = { job, worker, workers in
                Task { await behavior.serve(job, worker: worker, of: workers) }
            }
        }
    }

    /// Whether two executor references name the same executor (the type has no `==`).
    private static func same(_ one: UnownedSerialExecutor, _ other: UnownedSerialExecutor) -> Bool {
        withUnsafeBytes(of: one) { one in withUnsafeBytes(of: other) { other in one.elementsEqual(other) } }
    }

    package func run(_ job: CallJob) {
        let deadline = Deadline.after(job.timeout, on: time)
        let taken = state.withLock { state -> ((Int, UnsafeContinuation<CallJob?, Never>?), (UInt64, Int)?)? in
            // The behaviour is gone: nothing will answer.
            guard !state.ended else { return nil }
            let worker: Int
            let resume: UnsafeContinuation<CallJob?, Never>?
            if let idle = state.idle.popLast() {
                (worker, resume) = (idle.worker, idle.resume)
            } else {
                worker = state.busy.firstIndex { $0 == nil } ?? state.busy.endIndex
                if worker == state.busy.endIndex { state.busy.append(nil) }
                resume = nil
            }
            state.busy[worker] = Busy(job: job, deadline: deadline)
            guard state.wake.map({ deadline < $0 }) ?? true else { return ((worker, resume), nil) }
            state.wake = deadline
            state.generation += 1
            return ((worker, resume), (deadline, state.generation))
        }
        guard let (handOver, sleeper) = taken else {
            job.resolve(.failure(.notConnected(job.instance)))
            return
        }
        if let (wake, generation) = sleeper { sleep(until: wake, generation: generation) }
        switch handOver {
        case (_, let resume?): resume.resume(returning: job)
        case (let worker, nil): start(job, worker, self)
        }
    }

    /// Worker `worker` is done with its call: it waits for the next (`resume`), or ends.
    func park(_ worker: Int, _ resume: UnsafeContinuation<CallJob?, Never>) {
        let parked = state.withLock { state -> Bool in
            state.busy[worker] = nil
            guard !state.ended, state.idle.count < Self.idleLimit else { return false }
            state.idle.append((worker, resume))
            return true
        }
        if !parked { resume.resume(returning: nil) }
    }

    /// Ends the idle workers, and those that finish from now on (the behaviour is gone).
    package func endIdle() {
        let idle = state.withLock { state -> [UnsafeContinuation<CallJob?, Never>] in
            state.ended = true
            defer { state.idle.removeAll() }
            return state.idle.map(\.resume)
        }
        for worker in idle { worker.resume(returning: nil) }
    }

    /// Sleeps until `wake`, then sweeps, until nothing is in flight. The sleeper holds the
    /// state and the clock, not the workers (nor their behaviour): no weak reference to
    /// the workers is made, which would move their reference counts to a side table and
    /// make every retain of them on the path of a call the slow kind.
    private func sleep(until wake: UInt64, generation: Int) {
        Task { [state, time] in
            var wake = wake
            while true {
                if let time {
                    await time.sleep(untilNanoseconds: wake)
                } else {
                    try? await Task.sleep(for: Deadline.left(until: wake))
                }
                guard let next = Self.sweep(state, time: time, generation: generation) else { return }
                wake = next
            }
        }
    }

    /// Answers the calls whose deadline passed `call_timeout`; answers when to wake next,
    /// or nil when this sleeper is done (nothing is in flight, or a newer one took over).
    private static func sweep(_ state: Locked<State>, time: (any TimeSource)?, generation: Int) -> UInt64? {
        let now = time?.nanoseconds ?? Deadline.now()
        let (expired, next) = state.withLock { state -> ([CallJob], UInt64?) in
            guard state.generation == generation else { return ([], nil) }
            var expired: [CallJob] = []
            var next: UInt64?
            for index in state.busy.indices {
                guard let busy = state.busy[index], !busy.expired else { continue }
                if busy.deadline <= now {
                    expired.append(busy.job)
                    state.busy[index]?.expired = true
                } else if next.map({ busy.deadline < $0 }) ?? true {
                    next = busy.deadline
                }
            }
            state.wake = next
            return (expired, next)
        }
        for job in expired {
            job.resolve(.failure(.callTimeout(job.instance, method: job.work.method, after: job.timeout)))
        }
        return next
    }
}

/// Deadlines of calls, on the coarse monotonic clock: reading it costs a few nanoseconds
/// where the precise one costs tens, on every call. A deadline is the timeout plus the
/// clock's resolution (4 ms here) after now, so that no call is timed out early.
enum Deadline {
    private static let resolution: UInt64 = {
        var resolution = timespec()
        clock_getres(CLOCK_MONOTONIC_COARSE, &resolution)
        return UInt64(resolution.tv_sec) * 1_000_000_000 + UInt64(resolution.tv_nsec)
    }()

    /// Now, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The deadline `timeout` after now on `time` (exactly), or on the coarse clock (with
    /// its resolution added) when there is none; a timeout too long to count in
    /// nanoseconds is as good as none (the deadline is the largest there is).
    static func after(_ timeout: Duration, on time: (any TimeSource)? = nil) -> UInt64 {
        let (seconds, attoseconds) = timeout.components
        let whole = UInt64(clamping: max(0, seconds)).multipliedReportingOverflow(by: 1_000_000_000)
        guard !whole.overflow else { return .max }
        let nanoseconds = whole.partialValue.addingReportingOverflow(UInt64(max(0, attoseconds) / 1_000_000_000))
        let start = time.map(\.nanoseconds) ?? (now() &+ resolution)
        let deadline = nanoseconds.partialValue.addingReportingOverflow(start)
        return nanoseconds.overflow || deadline.overflow ? .max : deadline.partialValue
    }

    /// How long until `deadline`; zero once it passed.
    static func left(until deadline: UInt64) -> Duration {
        let now = now()
        return deadline > now ? .nanoseconds(Int64(clamping: deadline - now)) : .zero
    }
}
