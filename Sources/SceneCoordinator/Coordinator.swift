public import SceneCore
public import SceneFlow
import SceneSocket
import Dispatch
import SceneWire
import SceneSync
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
    private let supervisor: LoopBound<Supervisor>
    private let stopped = Locked<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let shuttingDown = Atomic<Bool>(false)
    private let writer: StateWriter?
    private let watcher = Locked<Task<Void, Never>?>(nil)

    /// Binds the socket and starts serving `registry`.
    ///
    /// - Throws: ``SocketPlacementError`` when the path is too long, another server answers
    ///   there, or the socket cannot be bound.
    ///
    /// - `launcher`: the one `registry` was made with, for process-backed scenes (see
    ///   ``start(manifest:configuration:restoring:)``, which makes both).
    public init(registry: SceneRegistry<JSONValue>, configuration: CoordinatorConfiguration, launcher: ProcessLauncher? = nil) throws {
        self.registry = registry
        self.configuration = configuration
        _ = Coordinator.raiseOpenFileLimit
        let journal: Journal?
        if let path = configuration.stateFile, configuration.durable {
            let opened = try Journal(path: CoordinatorState.journalPath(for: path))
            registry.observeEvents { opened.record($0) }
            journal = opened
        } else {
            journal = nil
        }
        let loop = try EventLoop(name: "scene-coordinator")
        self.loop = loop
        let bound = Locked<Result<(LoopBound<CoordinatorServer>, LoopBound<Supervisor>), any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let shutdown = ShutdownHook()
        loop.execute {
            do {
                let server = try CoordinatorServer(registry: registry, configuration: configuration, loop: loop, journal: journal)
                // Set before the first connection can ask for a shutdown.
                server.onShutdownRequest = { shutdown.fire() }
                launcher?.attach(server.supervisor.bound)
                server.supervisor.start()
                bound.withLock { $0 = .success((LoopBound(server, loop: loop), server.supervisor.bound)) }
            } catch {
                bound.withLock { $0 = .failure(error) }
            }
            ready.signal()
        }
        ready.wait()
        let server: LoopBound<CoordinatorServer>
        let supervisor: LoopBound<Supervisor>
        switch bound.withLock({ $0 })! {
        case .success(let made):
            (server, supervisor) = made
        case .failure(let error):
            loop.shutdown()
            throw error
        }
        self.server = server
        self.supervisor = supervisor
        if let path = configuration.stateFile {
            writer = StateWriter(path: path, registry: registry, journal: journal) {
                await withCheckedContinuation { continuation in
                    let running = loop.execute { continuation.resume(returning: supervisor.value.processes) }
                    if !running { continuation.resume(returning: []) }
                }
            }
        } else {
            writer = nil
        }
        shutdown.set { [weak self] in
            guard let self else { return }
            Task { await self.shutdown() }
        }
        watchForChanges()
        // Waiters are released only once every answer has left and the socket is closed.
        loop.whenStopped { [weak self] in self?.markStopped() }
    }

    /// Raised once per process: a coordinator serves many connections.
    private static let raiseOpenFileLimit: Void = { SocketLimits.raiseOpenFileLimit() }()

    /// Stops serving: closes every connection and the listener, then the loop.
    public func stop() {
        watcher.withLock { $0?.cancel() }
        loop.execute { [server] in server.value.close() }
        loop.shutdown()
    }

    /// Makes a registry for `manifest` whose process-backed scenes this coordinator
    /// spawns and supervises, restores `snapshot` into it when given, and starts serving.
    ///
    /// - Restored process-backed instances come back `disconnected`, and their processes
    ///   are started again; they get their paths in their `hello` result.
    /// - With ``CoordinatorConfiguration/stateFile`` set, the state is written within a
    ///   second of every change of instances or paths.
    /// - Throws: ``RegistryConfigurationError``, ``RegistryRestoreError``, or
    ///   ``SocketPlacementError``.
    public static func start(
        manifest: Manifest, configuration: CoordinatorConfiguration, restoring snapshot: RegistrySnapshot<JSONValue>? = nil
    ) async throws -> Coordinator {
        let launcher = ProcessLauncher()
        let registry = try SceneRegistry(manifest: manifest, launcher: launcher)
        if let snapshot { try await registry.restore(snapshot) }
        let coordinator = try Coordinator(registry: registry, configuration: configuration, launcher: launcher)
        let restored = await registry.processInstances().filter { $0.phase != .opening }.map(\.id)
        for id in restored { await registry.processDisconnected(id, exit: nil) }
        let supervisor = coordinator.supervisor
        supervisor.loop.execute { supervisor.value.adopt(restored) }
        return coordinator
    }

    /// Marks the state file for writing on every change of instances, paths or processes.
    private func watchForChanges() {
        guard let writer else { return }
        let events = registry.events(buffering: .unbounded)
        watcher.withLock { task in
            task = Task {
                await writer.changed()
                for await event in events {
                    switch event.event {
                    case .linkHandled, .linkRejected, .requestRejected: continue
                    default: await writer.changed()
                    }
                }
            }
        }
        let supervisor = self.supervisor
        loop.execute { supervisor.value.onChange = { Task { await writer.changed() } } }
    }

    /// Shuts down in order: the state is written, every scene process is closed in stages
    /// (without dismissing its instance), the state is written again without processes,
    /// then the coordinator stops. Later calls wait for the first.
    public func shutdown() async {
        guard !shuttingDown.exchange(true, ordering: .acquiringAndReleasing) else {
            await waitUntilStopped()
            return
        }
        Log.info("shutting down")
        var saved: StateWriter.Taken?
        if let writer {
            let state = await writer.current()
            await writer.write(state)
            saved = state
        }
        await withCheckedContinuation { continuation in
            let supervisor = self.supervisor
            let running = loop.execute { supervisor.value.stopAll { continuation.resume() } }
            if !running { continuation.resume() }
        }
        // The instances are kept (closing their processes dismissed none); no process runs.
        // Taken now: requests answered while the scenes closed are in it.
        if let writer, saved != nil {
            await writer.finish(with: await writer.current(processes: []))
        }
        watcher.withLock { $0?.cancel() }
        stop()
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
    private let state = Locked<(action: (@Sendable () -> Void)?, requested: Bool)>((nil, false))

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
