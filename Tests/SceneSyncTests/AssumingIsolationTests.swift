import SceneSync
import Testing

private struct Refusal: Error, Equatable {
    let reason: String
}

private actor Counter {
    var count = 0

    /// Counts through synchronous code that is not isolated to the counter, as a server's
    /// loop reaches a registry whose executor it is.
    func countFromNonisolatedCode() -> Int { Self.count(self) }

    /// Counts, then refuses with `refusal`, from synchronous code that is not isolated.
    func countThenRefuseFromNonisolatedCode(_ refusal: Refusal) -> Refusal? {
        Self.countThenRefuse(self, refusal)
    }

    nonisolated static func countThenRefuse(_ counter: Counter, _ refusal: Refusal) -> Refusal? {
        do throws(Refusal) {
            try counter.assumingIsolation(established: false) { (counter) throws(Refusal) in
                counter.count += 1
                throw refusal
            }
            return nil
        } catch {
            return error
        }
    }

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

    @Test("what the operation throws reaches the caller as it is, typed, after what it did before throwing")
    func rethrowsTyped() async {
        let counter = Counter()
        #expect(await counter.countThenRefuseFromNonisolatedCode(Refusal(reason: "no")) == Refusal(reason: "no"))
        #expect(await counter.count == 1)
    }

    #if compiler(>=6.2)
    // Exit tests (a child process that must trap) need Swift Testing 6.2 or later.
    @Test("entering from another executor traps rather than running the operation")
    func trapsOffTheExecutor() async {
        await #expect(processExitsWith: .failure) {
            _ = Counter.count(Counter())
        }
    }

    @Test("isolation not established by the caller is checked by the runtime: from another executor it traps")
    func unestablishedIsChecked() async {
        await #expect(processExitsWith: .failure) {
            _ = Counter().assumingIsolation(established: false) { $0.count }
        }
    }
    #endif
}
