import SceneSync
import Testing

private actor Counter {
    var count = 0

    /// Counts through synchronous code that is not isolated to the counter, as a server's
    /// loop reaches a registry whose executor it is.
    func countFromNonisolatedCode() -> Int { Self.count(self) }

    nonisolated static func count(_ counter: Counter) -> Int {
        counter.assumingIsolation { counter in
            counter.count += 1
            return counter.count
        }
    }
}

@Suite("Entering an actor's isolation from its own executor")
struct AssumingIsolationTests {
    @Test("an operation run on the actor's executor is isolated to it: it changes the actor's state and returns its result")
    func runsIsolated() async {
        let counter = Counter()
        #expect(await counter.countFromNonisolatedCode() == 1)
        #expect(await counter.countFromNonisolatedCode() == 2)
        #expect(await counter.count == 2)
    }

    #if compiler(>=6.2)
    // Exit tests (a child process that must trap) need Swift Testing 6.2 or later.
    @Test("entering from another executor traps rather than running the operation")
    func trapsOffTheExecutor() async {
        await #expect(processExitsWith: .failure) {
            _ = Counter.count(Counter())
        }
    }
    #endif
}
