import Glibc
import SceneSocket
import SceneSync
import Testing

/// An actor whose executor is an event loop.
private actor OnLoop {
    nonisolated let loop: EventLoop
    private(set) var log: [String] = []

    init(loop: EventLoop) {
        self.loop = loop
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    func note(_ entry: String) -> Bool {
        log.append(entry)
        return loop.inEventLoop
    }

    func record(_ entry: String) {
        log.append(entry)
    }

    /// Asks its own loop to shut down, from the loop thread.
    func shutDownItsLoop() async -> Bool {
        await loop.shutdownGracefully()
        return loop.inEventLoop
    }
}

@Suite("The event loop as an actor's executor")
struct LoopExecutorTests {
    @Test("an actor on the loop runs its jobs on the loop thread, in order with the loop's other submitted work")
    func jobsRunOnTheLoop() async throws {
        try await withLoop("executor-test") { loop in
            let actor = OnLoop(loop: loop)
            #expect(await actor.note("from a task"))
            // Work submitted to the loop and a job enqueued after it run in that order.
            let done = Locked<[String]>([])
            loop.execute { actor.assumeIsolated { $0.record("submitted") } }
            #expect(await actor.note("job"))
            loop.execute { done.withLock { $0 = actor.assumeIsolated { $0.log } } }
            #expect(await actor.note("last"))
            #expect(done.withLock { $0 } == ["from a task", "submitted", "job"])
        }
    }

    @Test("assumeIsolated holds for the loop's actor anywhere on the loop thread, also outside a job")
    func assumeIsolatedOnTheLoop() async throws {
        let clock = LoopClock.manual()
        try await withLoop("executor-test", clock: clock) { loop in
            let actor = OnLoop(loop: loop)
            let result = Locked<Bool?>(nil)
            // A timer's work is not a job: only the loop's checkIsolated says where it runs.
            loop.execute {
                loop.scheduleOnLoop(after: .milliseconds(1)) {
                    result.withLock { $0 = actor.assumeIsolated { $0.loop.inEventLoop } }
                }
            }
            // Returns once the timer, scheduled by work submitted before it, has run.
            await clock.advance(by: .milliseconds(1))
            #expect(result.withLock { $0 } == true)
        }
    }

    @Test("the loop's thread, and only it, establishes isolation to the loop's actor without the runtime")
    func threadIdentityEstablishesIsolation() async throws {
        try await withLoop("executor-test") { loop in
            let actor = OnLoop(loop: loop)
            #expect(!loop.isCurrentThread)
            let seen = Locked<(onLoop: Bool, log: [String])?>(nil)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                // Submitted work is not a job: nothing but the thread says where it runs.
                loop.execute {
                    let onLoop = loop.isCurrentThread
                    let log = actor.assumingIsolation(established: onLoop) { actor in
                        actor.record("entered")
                        return actor.log
                    }
                    seen.withLock { $0 = (onLoop, log) }
                    done.resume()
                }
            }
            #expect(seen.withLock { $0?.onLoop } == true)
            #expect(seen.withLock { $0?.log } == ["entered"])
            #expect(await actor.log == ["entered"])
        }
    }

    @Test("a job enqueued after the loop has stopped still runs, alone, rather than leaving its task suspended")
    func jobsAfterStop() async throws {
        let loop = try EventLoop(name: "executor-test")
        let actor = OnLoop(loop: loop)
        _ = await actor.note("before")
        await loop.shutdownGracefully()
        #expect(await actor.note("after") == true)
        #expect(await actor.log == ["before", "after"])
    }
}

@Suite("Shutting a loop down from a task")
struct LoopShutdownTests {
    @Test("shutdownGracefully returns only once the loop has ended: its stop handlers have run and it takes no more work")
    func returnsOnceEnded() async throws {
        let loop = try EventLoop(name: "shutdown-test")
        let stopped = Locked(false)
        loop.whenStopped { stopped.withLock { $0 = true } }
        await loop.shutdownGracefully()
        #expect(stopped.withLock { $0 })
        #expect(loop.execute {} == false)
    }

    @Test("an actor of the loop may shut it down: the call returns at once on the loop thread, and the loop ends")
    func fromTheLoop() async throws {
        let loop = try EventLoop(name: "shutdown-test")
        let actor = OnLoop(loop: loop)
        #expect(await actor.shutDownItsLoop())
        await loop.shutdownGracefully()
        #expect(loop.execute {} == false)
    }

    @Test("every task shutting a loop down returns, those that come after its end at once, and a handler registered then runs")
    func manyWaiters() async throws {
        let loop = try EventLoop(name: "shutdown-test")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await loop.shutdownGracefully() } }
        }
        await loop.shutdownGracefully()
        let late = Locked(false)
        loop.whenStopped { late.withLock { $0 = true } }
        #expect(late.withLock { $0 })
    }
}

@Suite("A loop-bound value lives on its loop's thread")
struct LoopBoundTests {
    @Test("a value bound on its loop is read there")
    func onTheLoop() async throws {
        try await withLoop("bound-test") { loop in
            let read: Int = await withCheckedContinuation { continuation in
                loop.execute {
                    let bound = LoopBound(41, loop: loop)
                    continuation.resume(returning: bound.value + 1)
                }
            }
            #expect(read == 42)
        }
    }

    #if compiler(>=6.2)
    // Exit tests (a child process that must trap) need Swift Testing 6.2 or later.
    @Test("binding a value off its loop's thread traps")
    func madeOffTheLoop() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let loop = try EventLoop(name: "bound-trap")
            _ = LoopBound(1, loop: loop)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("a LoopBound value is made on its loop"))
    }

    @Test("reading a bound value off its loop's thread traps")
    func readOffTheLoop() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let loop = try EventLoop(name: "bound-trap")
            let bound: LoopBound<Int> = await withCheckedContinuation { continuation in
                loop.execute { continuation.resume(returning: LoopBound(1, loop: loop)) }
            }
            _ = bound.value
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("a LoopBound value is used on its loop"))
    }
    #endif
}
