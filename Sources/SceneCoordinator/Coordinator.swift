public import SceneCore
public import SceneFlow
import SceneSocket
import Dispatch
import SceneWire
import Synchronization

/// Serves a registry over the scene protocol on a Unix socket.
///
/// - One event-loop thread reads and writes every connection; requests that touch the
///   registry hop to it, in each connection's arrival order.
/// - ``stop()`` (or a `coordinator.shutdown` request) closes the listener and every
///   connection, removes the socket file, and ends ``waitUntilStopped()``.
public final class Coordinator: Sendable {
    /// The registry served.
    public let registry: SceneRegistry<JSONValue>
    public let configuration: CoordinatorConfiguration
    let loop: EventLoop
    private let server: LoopBound<CoordinatorServer>
    private let stopped = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Binds the socket and starts serving `registry`.
    ///
    /// - Throws: ``SocketPlacementError`` when the path is too long, another server answers
    ///   there, or the socket cannot be bound.
    public init(registry: SceneRegistry<JSONValue>, configuration: CoordinatorConfiguration) throws {
        self.registry = registry
        self.configuration = configuration
        _ = Coordinator.raiseOpenFileLimit
        let loop = try EventLoop(name: "scene-coordinator")
        self.loop = loop
        let bound = Mutex<Result<LoopBound<CoordinatorServer>, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let shutdown = ShutdownHook()
        loop.execute {
            do {
                let server = try CoordinatorServer(registry: registry, configuration: configuration, loop: loop)
                // Set before the first connection can ask for a shutdown.
                server.onShutdownRequest = { shutdown.fire() }
                bound.withLock { $0 = .success(LoopBound(server, loop: loop)) }
            } catch {
                bound.withLock { $0 = .failure(error) }
            }
            ready.signal()
        }
        ready.wait()
        switch bound.withLock({ $0 })! {
        case .success(let server):
            self.server = server
        case .failure(let error):
            loop.shutdown()
            throw error
        }
        shutdown.set { [weak self] in
            guard let self else { return }
            // On the loop, after the answer that asked for it has been flushed.
            self.loop.execute { self.stopFromLoop() }
        }
        // Waiters are released only once every answer has left and the socket is closed.
        loop.whenStopped { [weak self] in self?.markStopped() }
    }

    /// Raised once per process: a coordinator serves many connections.
    private static let raiseOpenFileLimit: Void = { SocketLimits.raiseOpenFileLimit() }()

    /// Stops serving: closes every connection and the listener, then the loop.
    public func stop() {
        loop.execute { [server] in server.value.close() }
        loop.shutdown()
    }

    /// Called on the loop thread once a `coordinator.shutdown` answer is queued; the loop
    /// flushes it before it stops.
    private func stopFromLoop() {
        server.value.close()
        loop.shutdown()
    }

    private func markStopped() {
        let waiters = stopped.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the coordinator has stopped.
    public func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let done = stopped.withLock { state in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }

    /// How many connections are open now.
    public func connectionCount() async -> Int {
        await withCheckedContinuation { continuation in
            let running = loop.execute { [server] in continuation.resume(returning: server.value.sessionCount) }
            if !running { continuation.resume(returning: 0) }
        }
    }
}

/// What a `coordinator.shutdown` request runs: set once the coordinator exists; a request
/// that comes earlier is remembered and runs when it is set.
final class ShutdownHook: Sendable {
    private let state = Mutex<(action: (@Sendable () -> Void)?, requested: Bool)>((nil, false))

    func set(_ action: @escaping @Sendable () -> Void) {
        let run = state.withLock { state -> Bool in
            state.action = action
            return state.requested
        }
        if run { action() }
    }

    func fire() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            state.requested = true
            return state.action
        }
        action?()
    }
}
