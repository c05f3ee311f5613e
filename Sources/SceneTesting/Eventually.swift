public import Testing
import SceneSync

/// Polls `condition` until it holds, and answers whether it did before `timeout` passed.
///
/// For a state that no event announces. The timeout is a guard against a hang, not a
/// measure of speed: keep it long (the default is a minute), so that a slow or loaded
/// machine — a sanitizer makes every step several times slower — never fails a test that
/// is only late.
///
/// - Polls at once, then ever less often (from 1 ms up to 50 ms apart), so that a long
///   wait does not keep a thread of the cooperative pool busy.
/// - When the time runs out, records a ``ThreadDump`` and reports where it is as a test
///   issue at `sourceLocation`, then checks `condition` a last time.
public func eventually(
    _ timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
    if try await condition() { return true }
    let dump = await ThreadDump.record(because: "a condition at \(sourceLocation)")
    Issue.record("waited \(timeout) for a condition; every thread's backtrace: \(dump)", sourceLocation: sourceLocation)
    return false
}

/// A wake-up that a waiter leaves where the event it awaits will happen: the first of
/// ``resume()`` and the waiter's deadline ends the wait, once.
package final class Wake: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// The awaited event happened: the waiter goes on (at most once, whoever calls).
    package func resume() { end(true) }

    fileprivate func arm(_ continuation: CheckedContinuation<Bool, Never>, timeout: Duration) {
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            end(false)
        }
        state.withLock { state in
            state.continuation = continuation
            state.timer = timer
        }
    }

    private func end(_ happened: Bool) {
        let (continuation, timer) = state.withLock { state in
            defer { state = State() }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(returning: happened)
    }
}

/// Waits for an event that `register` arranges to announce with the ``Wake`` it is given;
/// answers whether it came within `timeout` (a guard against a hang: keep it long).
///
/// - `register` runs once the wake is armed: it may resume it at once, when the event has
///   happened already.
package func waitForWake(within timeout: Duration, _ register: (Wake) -> Void) async -> Bool {
    let wake = Wake()
    return await withCheckedContinuation { continuation in
        wake.arm(continuation, timeout: timeout)
        register(wake)
    }
}
