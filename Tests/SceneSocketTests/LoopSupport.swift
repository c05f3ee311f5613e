import SceneSocket

/// Runs `body` with a new event loop, then shuts the loop down and awaits its end (on
/// success or throw) without holding the test's thread.
func withLoop<T>(_ name: String, clock: LoopClock = .system, _ body: (EventLoop) async throws -> T) async throws -> T {
    let loop = try EventLoop(name: name, clock: clock)
    do {
        let result = try await body(loop)
        await loop.shutdownGracefully()
        return result
    } catch {
        await loop.shutdownGracefully()
        throw error
    }
}
