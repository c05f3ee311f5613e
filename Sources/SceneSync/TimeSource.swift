/// Where a rule that runs outside an event loop reads the time and waits for it: an
/// in-process scene's call, start and close timeouts, its close grace at shutdown, and its
/// restart window. Nil where one is asked for means the system's monotonic clock, read
/// the fastest way there is; a test gives a manual clock (a SceneSocket `LoopClock`) and
/// advances it instead of waiting.
public protocol TimeSource: Sendable {
    /// Now, in nanoseconds on the source's own monotonic scale.
    var nanoseconds: UInt64 { get }
    /// Returns once the source reads `deadline` (in its nanoseconds) or later, or the task
    /// is cancelled.
    func sleep(untilNanoseconds deadline: UInt64) async
}
