import SceneSync
import SceneTesting
import Testing

@Suite("Waiting for an event with a guard: the first of the event, the deadline and cancellation ends the wait, once")
struct WakeTests {
    @Test("an event that comes before the deadline ends the wait with true")
    func eventFirst() async {
        let pending = Locked<Wake?>(nil)
        let waiting = Task { await waitForWake(within: .seconds(60)) { wake in pending.withLock { $0 = wake } } }
        #expect(await eventually { pending.withLock { $0 } != nil })
        pending.withLock { $0 }?.resume()
        pending.withLock { $0 }?.resume()
        #expect(await waiting.value)
    }

    @Test("an event that has come already, announced while registering, ends the wait at once")
    func alreadyCame() async {
        #expect(await waitForWake(within: .seconds(60)) { $0.resume() })
    }

    @Test("a deadline that passes first, however short, ends the wait with false; a later event changes nothing")
    func deadlineFirst() async {
        let kept = Locked<Wake?>(nil)
        #expect(await waitForWake(within: .zero) { wake in kept.withLock { $0 = wake } } == false)
        #expect(await waitForWake(within: .milliseconds(1)) { _ in } == false)
        kept.withLock { $0 }?.resume()
    }

    @Test("a cancelled waiting task's wait ends with false")
    func cancelled() async {
        let waiting = Task { await waitForWake(within: .seconds(3600)) { _ in } }
        waiting.cancel()
        #expect(await waiting.value == false)
    }
}
