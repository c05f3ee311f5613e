import SceneSync
public import Testing

/// Polls `condition` until it holds, and answers whether it did before `timeout` passed.
///
/// For a state that no event announces. The timeout is a guard against a hang, not a
/// measure of speed: keep it long (the default is a minute), so that a slow or loaded
/// machine — a sanitizer makes every step several times slower — never fails a test that
/// is only late.
///
/// - Polls at once, then ever less often (from 1 ms up to 50 ms apart), so that a long
///   wait does not keep a thread of the cooperative pool busy.
/// - Checks `condition` a last time when the time runs out. If it still does not hold and
///   the wait was at least ``ThreadDump/worthwhileAfter``, records a ``ThreadDump`` and
///   reports where it is as a test issue at `sourceLocation`, beside the caller's own
///   failed expectation.
/// - A cancelled task stops polling and answers whether `condition` holds then.
public func eventually(
    _ timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        do {
            try await Task.sleep(for: pause)
        } catch {
            return try await condition()
        }
        pause = min(pause * 2, .milliseconds(50))
    }
    if try await condition() { return true }
    let dump = await ThreadDump.clause(afterWaiting: timeout, for: "a condition at \(sourceLocation)")
    if !dump.isEmpty {
        Issue.record("waited \(timeout) for a condition\(dump)", sourceLocation: sourceLocation)
    }
    return false
}

/// A wake-up that a waiter leaves where the event it awaits will happen: the first of
/// ``resume()``, the waiter's deadline and the waiting task's cancellation ends the wait,
/// once.
package final class Wake: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var timer: Task<Void, Never>?
        /// Set once the wait has ended (or ended before it was armed).
        var ended: Bool?
    }

    private let state = Locked(State())

    /// The awaited event happened: the waiter goes on (at most once, whoever calls).
    package func resume() { end(true) }

    /// Arms the wait: the continuation is stored before the timer exists, so that a
    /// timer that fires at once still finds it; a wait that ended before (a cancelled
    /// task) is answered at once.
    fileprivate func arm(_ continuation: CheckedContinuation<Bool, Never>, timeout: Duration) {
        let early = state.withLock { state -> Bool? in
            if let ended = state.ended { return ended }
            state.continuation = continuation
            return nil
        }
        if let early { return continuation.resume(returning: early) }
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            end(false)
        }
        let ended = state.withLock { state -> Bool in
            if state.ended == nil { state.timer = timer }
            return state.ended != nil
        }
        if ended { timer.cancel() }
    }

    fileprivate func end(_ happened: Bool) {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, Task<Void, Never>?) in
            guard state.ended == nil else { return (nil, nil) }
            state.ended = happened
            defer {
                state.continuation = nil
                state.timer = nil
            }
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
/// - A cancelled task's wait ends at once, answering false (unless the event came first).
package func waitForWake(within timeout: Duration, _ register: (Wake) -> Void) async -> Bool {
    let wake = Wake()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            wake.arm(continuation, timeout: timeout)
            register(wake)
        }
    } onCancel: {
        wake.end(false)
    }
}
