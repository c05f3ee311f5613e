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
        let loop = try EventLoop(name: "timer-test")
        defer { loop.shutdown() }
        let fired = Fired()
        loop.execute {
            loop.scheduleOnLoop(after: .milliseconds(60)) { fired.order.withLock { $0.append(3) } }
            let cancelled = loop.scheduleOnLoop(after: .milliseconds(40)) { fired.order.withLock { $0.append(99) } }
            loop.scheduleOnLoop(after: .milliseconds(20)) { fired.order.withLock { $0.append(2) } }
            loop.scheduleOnLoop(after: .zero) { fired.order.withLock { $0.append(1) } }
            loop.cancel(cancelled)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while fired.order.withLock({ $0.count }) < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        // Past the cancelled one's deadline too.
        try await Task.sleep(for: .milliseconds(50))
        #expect(fired.order.withLock { $0 } == [1, 2, 3])
    }
}
