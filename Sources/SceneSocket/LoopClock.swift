import SceneSync

/// Where an event loop reads the time its timers run on: the system's monotonic clock,
/// or, for tests, a manual clock that stands still until the test advances it.
///
/// - Everything a loop schedules (`scheduleOnLoop(after:_:)`) is due on its clock: a
///   coordinator's heartbeats, launch timeouts, staged stops, relayed call timeouts and
///   state-write debounce all follow a manual clock, so a test moves time instead of
///   sleeping.
/// - Rules that measure time (restart windows) read ``now`` from the same clock.
public final class LoopClock: Sendable {
    /// The system's monotonic clock.
    public static let system = LoopClock(manual: false)

    /// A clock that stands still until ``advance(by:)`` moves it.
    public static func manual() -> LoopClock { LoopClock(manual: true) }

    /// Whether the clock moves only when advanced.
    package let isManual: Bool
    private let origin = ContinuousClock.now
    private let state = Locked(State())

    private struct State {
        var offset: Duration = .zero
        /// The loops that read it; weakly, since each loop holds its clock.
        var loops: [WeakLoop] = []
    }

    private struct WeakLoop: Sendable {
        weak let loop: EventLoop?
    }

    private init(manual: Bool) {
        isManual = manual
    }

    /// The time now.
    public var now: ContinuousClock.Instant {
        isManual ? origin + state.withLock { $0.offset } : .now
    }

    /// How long since the clock was made, in seconds.
    package var secondsSinceStart: Double { (now - origin) / .seconds(1) }

    /// Moves a manual clock forward by `duration`, stopping at each timer deadline on the
    /// way: at each, every timer then due runs, on its loop's thread, so a timer that a
    /// timer schedules within the span runs too (a heartbeat's next beat, a staged stop's
    /// next stage). Returns once the clock reached its new time and everything due ran.
    /// Work submitted to the loops before the call runs first, at the time before.
    /// A system clock cannot be moved: calling this on it traps.
    public func advance(by duration: Duration) async {
        precondition(isManual, "only a manual clock is advanced")
        let loops = state.withLock { state -> [EventLoop] in
            state.loops.removeAll { $0.loop == nil }
            return state.loops.compactMap(\.loop)
        }
        for loop in loops { await Self.onLoop(loop) {} }
        let target = now + max(duration, .zero)
        while true {
            var next: ContinuousClock.Instant?
            for loop in loops {
                let deadline = await Self.onLoop(loop) { loop.nextTimerDeadline() }
                if let deadline, deadline < (next ?? target) { next = deadline }
            }
            let step = min(next ?? target, target)
            state.withLock { $0.offset = max($0.offset, step - origin) }
            for loop in loops { await Self.onLoop(loop) { loop.runDueTimers() } }
            if step >= target { break }
        }
    }

    /// Runs `body` on `loop`'s thread and answers what it did (nil at once when the loop
    /// has stopped).
    @discardableResult
    private static func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> T?) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let running = loop.execute { continuation.resume(returning: body()) }
            if !running { continuation.resume(returning: nil) }
        }
    }

    /// Remembers `loop`, so that advancing wakes it.
    func attach(_ loop: EventLoop) {
        guard isManual else { return }
        state.withLock { $0.loops.append(WeakLoop(loop: loop)) }
    }
}
