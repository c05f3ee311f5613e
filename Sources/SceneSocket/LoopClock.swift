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
    public let isManual: Bool
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
    public var secondsSinceStart: Double { (now - origin) / .seconds(1) }

    /// Moves a manual clock forward by `duration`, then runs every timer now due on each
    /// loop that reads it, on that loop's thread, in deadline order; returns once they
    /// ran. Work submitted to those loops before the call runs first, at the time before,
    /// so a timer it schedules counts from there. A system clock cannot be moved: calling
    /// this on it traps.
    public func advance(by duration: Duration) async {
        precondition(isManual, "only a manual clock is advanced")
        let loops = state.withLock { state -> [EventLoop] in
            state.loops.removeAll { $0.loop == nil }
            return state.loops.compactMap(\.loop)
        }
        for loop in loops { await Self.onLoop(loop) {} }
        state.withLock { $0.offset += max(duration, .zero) }
        for loop in loops { await Self.onLoop(loop) { loop.runDueTimers() } }
    }

    /// Runs `body` on `loop`'s thread and returns once it ran (at once when the loop stopped).
    private static func onLoop(_ loop: EventLoop, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = loop.execute {
                body()
                continuation.resume()
            }
            if !running { continuation.resume() }
        }
    }

    /// Remembers `loop`, so that advancing wakes it.
    func attach(_ loop: EventLoop) {
        guard isManual else { return }
        state.withLock { $0.loops.append(WeakLoop(loop: loop)) }
    }
}
