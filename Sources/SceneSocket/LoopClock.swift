public import SceneSync

/// Where an event loop reads the time its timers run on: the system's monotonic clock,
/// or, for tests, a manual clock that stands still until the test advances it.
///
/// - Everything a loop schedules (`scheduleOnLoop(after:_:)`) is due on its clock: a
///   coordinator's heartbeats, launch timeouts, staged stops, relayed call timeouts and
///   state-write debounce all follow a manual clock, so a test moves time instead of
///   sleeping.
/// - Rules that measure time (restart windows) read ``now`` from the same clock.
public final class LoopClock: TimeSource {
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
        /// Tasks sleeping on a manual clock, by deadline (nanoseconds since the origin).
        var sleepers: [(deadline: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
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

    /// Nanoseconds since the clock was made.
    public var nanoseconds: UInt64 { UInt64(clamping: Self.nanoseconds(now - origin)) }

    /// Returns once the clock reads `deadline` (``nanoseconds``) or later: at once when it
    /// does already; on the system clock after the time left; on a manual clock when an
    /// ``advance(by:)`` reaches it.
    public func sleep(untilNanoseconds deadline: UInt64) async {
        guard isManual else {
            let left = deadline > nanoseconds ? deadline - nanoseconds : 0
            try? await Task.sleep(for: .nanoseconds(Int64(clamping: left)))
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let due = state.withLock { state -> Bool in
                guard deadline > UInt64(clamping: Self.nanoseconds(state.offset)) else { return true }
                state.sleepers.append((deadline, continuation))
                return false
            }
            if due { continuation.resume() }
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
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
            var next: ContinuousClock.Instant? = state.withLock { state in
                state.sleepers.map(\.deadline).min().map { origin + .nanoseconds(Int64(clamping: $0)) }
            }
            for loop in loops {
                let deadline = await Self.onLoop(loop) { loop.nextTimerDeadline() }
                if let deadline, deadline < (next ?? target) { next = deadline }
            }
            let step = min(next ?? target, target)
            let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.offset = max(state.offset, step - origin)
                let reached = UInt64(clamping: Self.nanoseconds(state.offset))
                let due = state.sleepers.filter { $0.deadline <= reached }
                state.sleepers.removeAll { $0.deadline <= reached }
                return due.map(\.continuation)
            }
            for sleeper in woken { sleeper.resume() }
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
