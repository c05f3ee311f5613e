import CSceneSystem
import Dispatch
import SceneSync

/// Stopping the loop: from synchronous code, from a task, and what runs once it has stopped.
extension EventLoop {
    /// Runs `handler` once the loop has stopped: everything it had queued is flushed and
    /// every descriptor closed.
    ///
    /// - Registered before that, it runs on the loop thread, in the order of registration.
    /// - Registered once every handler has run, it runs at once, on the caller's thread
    ///   (where the loop's own values can no longer be reached).
    public func whenStopped(_ handler: @escaping @Sendable () -> Void) {
        let ended = stopHandlers.withLock { state -> Bool in
            if !state.ran { state.handlers.append(handler) }
            return state.ran
        }
        if ended { handler() }
    }

    /// Stops the loop: every connection and listener is closed, then the thread ends.
    /// Blocks the calling thread until then, unless called on the loop thread itself.
    ///
    /// - For synchronous code only (a program's exit path, a test's synchronous cleanup):
    ///   never call it from a task, whose thread belongs to Swift's cooperative pool and
    ///   would be held for as long as the loop takes to flush and close (seconds, with a
    ///   slow reader). A task uses ``shutdownGracefully()``.
    public func shutdown() {
        beginShutdown()
        if !inEventLoop { finished.wait() }
    }

    /// Stops the loop as ``shutdown()`` does, and returns once the loop thread has done
    /// all its work (its descriptors closed, its stop handlers run), without blocking the
    /// caller's thread: the loop resumes the caller as its last act.
    ///
    /// - Called on the loop thread (from a task that prefers the loop, or an actor of the
    ///   loop), it returns at once after asking the loop to stop: the loop cannot end while
    ///   one of its own jobs waits.
    /// - Any number of callers may wait; each returns once the loop has ended, at once if
    ///   it has.
    public func shutdownGracefully() async {
        beginShutdown()
        if inEventLoop { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = stopHandlers.withLock { state -> Bool in
                if !state.ended { state.endWaiters.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }

    /// Marks the loop as stopping and wakes it; later calls do nothing.
    func beginShutdown() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        submitted.withLock { state in
            if !state.closed { _ = scene_eventfd_signal(wake) }
        }
    }
}
