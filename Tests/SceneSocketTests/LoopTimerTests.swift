import SceneSocket
import SceneSync
import Testing

@Suite("Loop timers")
struct LoopTimerTests {
    final class Fired: Sendable {
        let order = Locked<[Int]>([])
    }

    @Test("timers run on the loop in deadline order, and a cancelled one never runs")
    func order() async throws {
        let clock = LoopClock.manual()
        try await withLoop("timer-test", clock: clock) { loop in
            let fired = Fired()
            await withCheckedContinuation { (scheduled: CheckedContinuation<Void, Never>) in
                loop.execute {
                    loop.scheduleOnLoop(after: .milliseconds(60)) { fired.order.withLock { $0.append(3) } }
                    let cancelled = loop.scheduleOnLoop(after: .milliseconds(40)) { fired.order.withLock { $0.append(99) } }
                    loop.scheduleOnLoop(after: .milliseconds(20)) { fired.order.withLock { $0.append(2) } }
                    loop.scheduleOnLoop(after: .zero) { fired.order.withLock { $0.append(1) } }
                    loop.cancel(cancelled)
                    scheduled.resume()
                }
            }
            await clock.advance(by: .zero)
            #expect(fired.order.withLock { $0 } == [1])
            // Past the cancelled one's deadline too.
            await clock.advance(by: .milliseconds(100))
            #expect(fired.order.withLock { $0 } == [1, 2, 3])
        }
    }

    @Test("one advance of a manual clock runs a timer that a timer scheduled within the span")
    func chained() async throws {
        let clock = LoopClock.manual()
        try await withLoop("chain-test", clock: clock) { loop in
            let fired = Fired()
            loop.schedule(after: .seconds(1)) {
                fired.order.withLock { $0.append(1) }
                loop.scheduleOnLoop(after: .seconds(1)) { fired.order.withLock { $0.append(2) } }
            }
            await clock.advance(by: .seconds(2))
            #expect(fired.order.withLock { $0 } == [1, 2])
        }
    }

    @Test("a timer on a manual clock is not due until the clock is advanced to its deadline")
    func manualClock() async throws {
        let clock = LoopClock.manual()
        try await withLoop("manual-test", clock: clock) { loop in
            let fired = Fired()
            // Submitted before the advance: scheduled at the time before it.
            loop.schedule(after: .seconds(3600)) { fired.order.withLock { $0.append(1) } }
            await clock.advance(by: .seconds(3599))
            #expect(fired.order.withLock { $0 }.isEmpty)
            await clock.advance(by: .seconds(1))
            #expect(fired.order.withLock { $0 } == [1])
        }
    }
}
