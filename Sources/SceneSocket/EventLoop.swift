import CSceneSystem
import Foundation
import Glibc
public import SceneSync
import Synchronization

/// Something the loop calls when its file descriptor is ready. Loop thread only.
protocol LoopHandler: AnyObject {
    func handle(events: UInt32)
    /// The loop is stopping: release the descriptor.
    func loopDidStop()
}

/// One epoll event-loop thread: it waits for readiness, runs handlers, runs work submitted
/// from other threads, and flushes the writes queued during the iteration.
///
/// - ``execute(_:)`` may be called from any thread; the work runs on the loop thread, in
///   submission order, after the I/O of the current iteration.
/// - Everything a connection or listener does happens on this thread, so none of them
///   needs a lock.
/// - It is also a `SerialExecutor`: an actor whose executor it is runs its jobs on the
///   loop thread, in order with the loop's other submitted work, and `assumeIsolated`
///   holds for that actor anywhere on the loop thread (``checkIsolated()``). Work that
///   belongs to a connection then stays on its loop, as SwiftNIO's event loops do.
/// - It is also a `TaskExecutor`: a task that prefers it runs its nonisolated code on the
///   loop thread, and resumes there after a continuation, without a trip through the
///   global pool. A task that serves an actor of the loop so takes no thread switch.
/// - After the loop has stopped, closures submitted with ``execute(_:)`` are dropped, but
///   jobs still run, one at a time, on a serial queue that stands in for the loop thread:
///   a task waiting on an actor of a stopped loop is not left suspended forever.
public final class EventLoop: SerialExecutor, TaskExecutor, Sendable {
    private let epoll: Int32
    let wake: Int32
    let submitted = Locked<Submissions>(Submissions())

    /// One piece of submitted work: a closure, or an actor's job.
    enum Work: Sendable {
        case closure(@Sendable () -> Void)
        case job(UnownedJob)
    }

    struct Submissions {
        var work: [Work] = []
        /// Set once the loop has stopped and its eventfd is closed: later closures are
        /// dropped, later jobs go to ``afterStop``, and the descriptor number (which the
        /// kernel may reuse) is never written again.
        var closed = false
    }
    let running = Atomic<Bool>(true)
    /// The thread that runs the loop's work now (the loop thread, or the stand-in queue's
    /// thread after the stop), else 0: read on every loop-thread check, so an atomic rather
    /// than a lock.
    private let loopThread = Atomic<UInt>(0)
    let finished = DispatchSemaphore(value: 0)
    let stopHandlers = Locked<StopHandlers>(StopHandlers())

    /// What runs once the loop has stopped, who waits for its end, and how far it is.
    struct StopHandlers {
        var handlers: [@Sendable () -> Void] = []
        /// Every handler registered on time has run.
        var ran = false
        /// Tasks waiting in ``shutdownGracefully()``.
        var endWaiters: [CheckedContinuation<Void, Never>] = []
        /// The loop thread has done its last work.
        var ended = false
    }
    /// Where jobs run once the loop thread has ended.
    private let afterStop: DispatchQueue
    // Touched only on the loop thread (every access checks or runs there).
    private nonisolated(unsafe) let confined = Confined()

    final class Confined {
        var handlers: [UInt64: any LoopHandler] = [:]
        var nextToken: UInt64 = 1
        var needsFlush: [SocketConnection] = []
        /// The list being flushed, swapped with `needsFlush` so neither is reallocated.
        var flushing: [SocketConnection] = []
        /// Submitted work being run, swapped in the same way.
        var running: [Work] = []
        /// Run at the end of every iteration, before the writes are flushed.
        var turnEndHandlers: [() -> Void] = []
        /// The scatter list of one `sendmsg`.
        let vectors = UnsafeMutableBufferPointer<iovec>.allocate(capacity: EventLoop.maximumVectors)
        var timers = TimerQueue()
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        deinit {
            scratch.deallocate()
            vectors.deallocate()
        }
    }

    /// The clock its timers run on.
    public let clock: LoopClock

    /// Starts a loop thread named `name`, whose timers run on `clock`.
    public init(name: String = "scene-loop", clock: LoopClock = .system) throws(SocketError) {
        let epoll = scene_epoll_create()
        guard epoll >= 0 else { throw SocketError("epoll_create1") }
        let wake = scene_eventfd()
        guard wake >= 0 else {
            let error = SocketError("eventfd")
            close(epoll)
            throw error
        }
        guard scene_epoll_add(epoll, wake, UInt32(SCENE_EPOLLIN), 0) == 0 else {
            let error = SocketError("epoll_ctl")
            close(epoll)
            close(wake)
            throw error
        }
        self.epoll = epoll
        self.wake = wake
        self.clock = clock
        // Inactive until the loop thread has finished: no job runs there while it runs.
        self.afterStop = DispatchQueue(label: "\(name).after-stop", attributes: .initiallyInactive)
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.start()
        clock.attach(self)
    }

    /// Whether the caller runs on this loop's thread.
    public var inEventLoop: Bool {
        let thread = loopThread.load(ordering: .acquiring)
        return thread != 0 && pthread_equal(thread, pthread_self()) != 0
    }

    /// Runs `work` on the loop thread. After the loop has stopped, `work` is dropped and
    /// the answer is `false`.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        submit(.closure(work))
    }

    /// Runs an actor's job on the loop thread, in order with the other submitted work.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !submit(.job(job)) {
            afterStop.async { [self] in
                loopThread.store(pthread_self(), ordering: .releasing)
                runJob(job)
                loopThread.store(0, ordering: .releasing)
            }
        }
    }

    /// Traps unless called on the loop thread: an actor whose executor this loop is may
    /// be assumed isolated there, inside or outside one of its jobs.
    public func checkIsolated() {
        precondition(inEventLoop, "expected to run on the event loop's thread")
    }

    private func submit(_ work: Work) -> Bool {
        let onLoop = inEventLoop
        return submitted.withLock { state in
            guard !state.closed else { return false }
            state.work.append(work)
            // Signalled under the lock, so the descriptor cannot be closed in between. The
            // loop thread itself looks at the list before it waits again.
            if state.work.count == 1, !onLoop { _ = scene_eventfd_signal(wake) }
            return true
        }
    }

    /// Whether work waits to run (the loop then polls instead of waiting).
    private var hasSubmittedWork: Bool {
        submitted.withLock { !$0.work.isEmpty }
    }

    /// Runs `handler` on the loop thread at the end of every iteration, after the handlers,
    /// submitted work and timers, and before the queued writes are flushed; call on the
    /// loop thread. What one turn did can be finished there together (a group commit).
    public func atEndOfEveryTurn(_ handler: @escaping () -> Void) {
        precondition(inEventLoop)
        confined.turnEndHandlers.append(handler)
    }

    // MARK: Loop-thread interface

    func register(_ fd: Int32, events: UInt32, handler: any LoopHandler) throws(SocketError) -> UInt64 {
        precondition(inEventLoop)
        let token = confined.nextToken
        confined.nextToken += 1
        guard scene_epoll_add(epoll, fd, events, token) == 0 else { throw SocketError("epoll_ctl(ADD)") }
        confined.handlers[token] = handler
        return token
    }

    func modify(_ fd: Int32, token: UInt64, events: UInt32) {
        precondition(inEventLoop)
        _ = scene_epoll_modify(epoll, fd, events, token)
    }

    func deregister(_ fd: Int32, token: UInt64) {
        precondition(inEventLoop)
        _ = scene_epoll_remove(epoll, fd)
        confined.handlers[token] = nil
    }

    /// Asks for `connection`'s queued writes to be flushed at the end of this iteration.
    func scheduleFlush(_ connection: SocketConnection) {
        confined.needsFlush.append(connection)
    }

    var scratch: UnsafeMutableRawBufferPointer { confined.scratch }

    /// How many buffers one `sendmsg` gathers at most.
    static let maximumVectors = 64

    /// Room for one `sendmsg`'s scatter list (loop thread only).
    var vectors: UnsafeMutableBufferPointer<iovec> { confined.vectors }

    /// Runs `work` on this loop's thread after `delay`, unless cancelled first; call on
    /// the loop thread. Timers cost a heap entry each, however many are pending.
    @discardableResult
    public func scheduleOnLoop(after delay: Duration, _ work: @escaping () -> Void) -> LoopTimer {
        precondition(inEventLoop)
        // Beyond a year is forever here; it also keeps the deadline arithmetic in range.
        return confined.timers.add(deadline: clock.now + min(max(delay, .zero), .seconds(365 * 86_400)), work)
    }

    /// Cancels a timer that has not run; call on the loop thread.
    public func cancel(_ timer: LoopTimer) {
        precondition(inEventLoop)
        confined.timers.cancel(timer)
    }

    /// The earliest pending timer's deadline (loop thread only).
    func nextTimerDeadline() -> ContinuousClock.Instant? {
        confined.timers.nextDeadline()
    }

    /// Runs every timer whose deadline has passed on the loop's clock, earliest first.
    func runDueTimers() {
        // A stopping loop runs no more timers, whatever the clock says.
        guard running.load(ordering: .acquiring) else { return }
        for timer in confined.timers.takeDue(at: clock.now) {
            if let work = confined.timers.take(timer) { work() }
        }
    }

    /// Runs `work` on the loop thread after `delay`, from any thread; dropped once the loop
    /// has stopped.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        execute { [self] in _ = scheduleOnLoop(after: delay, work) }
    }

    private func run() {
        loopThread.store(pthread_self(), ordering: .releasing)
        var events = [scene_event](repeating: scene_event(), count: 256)
        while running.load(ordering: .acquiring) {
            // A manual clock does not move while the loop waits: only its advance (which
            // wakes the loop) makes a timer due.
            var timeout = hasSubmittedWork ? 0 : confined.timers.millisecondsUntilNext(from: clock.now)
            if clock.isManual, timeout > 0 { timeout = -1 }
            let count = events.withUnsafeMutableBufferPointer { scene_epoll_wait(epoll, $0.baseAddress, 256, timeout) }
            if count > 0 {
                for index in 0..<Int(count) {
                    let event = events[index]
                    if event.data == 0 {
                        _ = scene_eventfd_drain(wake)
                    } else if let handler = confined.handlers[event.data] {
                        handler.handle(events: event.events)
                    }
                }
            }
            runSubmitted()
            runDueTimers()
            runSubmitted()
            for handler in confined.turnEndHandlers { handler() }
            flushAll()
        }
        // Stopping: run what was submitted, give answers still queued a bounded time to
        // leave, then close everything still registered.
        runSubmitted()
        flushAll()
        drainWrites(until: .now + .seconds(2), events: &events)
        for handler in Array(confined.handlers.values) { handler.loopDidStop() }
        confined.handlers.removeAll()
        // Work accepted before the door closed still runs here (it may be waiting to answer
        // a continuation); the door closes only once the list is empty, so no job runs on
        // the stand-in queue while this thread still runs one.
        while let batch = takeOrClose() {
            for work in batch { run(work) }
        }
        for handler in Array(confined.handlers.values) { handler.loopDidStop() }
        confined.handlers.removeAll()
        close(epoll)
        close(wake)
        // Handlers registered while these run are run here too, in order; only once none
        // is left do later ones run where they are registered.
        while true {
            let handlers = stopHandlers.withLock { state in
                if state.handlers.isEmpty { state.ran = true }
                defer { state.handlers.removeAll() }
                return state.handlers
            }
            if handlers.isEmpty { break }
            for handler in handlers { handler() }
        }
        loopThread.store(0, ordering: .releasing)
        // From here on, jobs enqueued since the door closed run, one at a time.
        afterStop.activate()
        finished.signal()
        let waiters = stopHandlers.withLock { state in
            state.ended = true
            defer { state.endWaiters.removeAll() }
            return state.endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The submitted work, or nil (and the door closed) when there is none.
    private func takeOrClose() -> [Work]? {
        submitted.withLock { state in
            guard !state.work.isEmpty else {
                state.closed = true
                return nil
            }
            defer { state.work.removeAll() }
            return state.work
        }
    }

    private func run(_ work: Work) {
        switch work {
        case .closure(let body): body()
        case .job(let job): runJob(job)
        }
    }

    /// Runs a job that came in either as an actor's (this is its serial executor) or as a
    /// task's (this is its preferred task executor): both are this loop.
    private func runJob(_ job: UnownedJob) {
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
    }

    /// Keeps writing to connections that still have answers queued, until they are done
    /// or `deadline` passes.
    private func drainWrites(until deadline: ContinuousClock.Instant, events: inout [scene_event]) {
        func pending() -> Bool {
            confined.handlers.values.contains { ($0 as? SocketConnection).map { !$0.isClosed && $0.pendingBytes > 0 } ?? false }
        }
        while pending(), ContinuousClock.now < deadline {
            let count = events.withUnsafeMutableBufferPointer { scene_epoll_wait(epoll, $0.baseAddress, 256, 10) }
            for index in 0..<max(0, Int(count)) where events[index].data != 0 {
                confined.handlers[events[index].data]?.handle(events: events[index].events)
            }
            runSubmitted()
            flushAll()
        }
    }

    private func runSubmitted() {
        while true {
            // The two lists trade places, so steady traffic allocates neither.
            var work = confined.running
            confined.running = []
            submitted.withLock { state in swap(&state.work, &work) }
            if work.isEmpty {
                confined.running = work
                return
            }
            for item in work { run(item) }
            work.removeAll(keepingCapacity: true)
            confined.running = work
        }
    }

    private func flushAll() {
        while !confined.needsFlush.isEmpty {
            swap(&confined.needsFlush, &confined.flushing)
            for connection in confined.flushing { connection.flush() }
            confined.flushing.removeAll(keepingCapacity: true)
        }
    }
}

extension EventLoop: ThreadBoundExecutor {
    /// ``inEventLoop``: what ``checkIsolated()`` checks, asked without the runtime.
    @usableFromInline package var isCurrentThread: Bool { inEventLoop }
}
