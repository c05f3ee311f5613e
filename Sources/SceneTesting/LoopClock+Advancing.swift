public import SceneSocket
import SceneSync

extension LoopClock {
    /// Runs `operation` while moving this manual clock on by `step` at a time, until it is
    /// done, and answers what it answered: a timeout inside it falls due without the test
    /// waiting for it in real time, wherever in the operation its deadline is set.
    ///
    /// - Each pass advances a whole `step`, so a deadline set `step` or less ahead is
    ///   passed by the next pass; the passes are bounded (10,000), and each yields.
    /// - Every other timer the passes reach runs too, with no real time between passes:
    ///   a heartbeat, for one, finds its pings unanswered. Give timers the test does not
    ///   mean to fire times far beyond what it advances.
    public func advancing<T: Sendable>(by step: Duration, until operation: @escaping @Sendable () async -> T) async -> T {
        let result = Locked<T?>(nil)
        let task = Task {
            let value = await operation()
            result.withLock { $0 = value }
        }
        for _ in 0..<10_000 where result.withLock({ $0 == nil }) {
            await advance(by: step)
            await Task.yield()
        }
        await task.value
        return result.withLock { $0! }
    }
}
