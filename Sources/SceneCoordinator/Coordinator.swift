public import SceneCore
public import SceneFlow
public import SceneJSON
public import SceneLinks
import SceneSocket
import SceneWire
import SceneSync
import Synchronization

/// Serves a registry over the scene protocol on a Unix socket.
///
/// - The registry's routes may be any `Codable` type: a manifest's are JSON
///   (`Coordinator<JSONValue>`), an app's own route enum is served as the JSON it encodes
///   to, and requests' routes are decoded into it (-32602 when they do not fit).
///
/// - One event-loop thread reads and writes every connection, and it is the registry's
///   executor: a request is applied and answered in the turn that read it (one that must
///   wait resumes there), in each connection's arrival order.
/// - ``stop()`` (or a `coordinator.shutdown` request) closes the listener and every
///   connection, removes the socket file, and ends ``waitUntilStopped()``.
public final class Coordinator<R: Route>: Sendable {
    /// The registry served.
    public let registry: SceneRegistry<R>
    /// The configuration it was started with.
    public let configuration: CoordinatorConfiguration
    let loop: EventLoop
    private let server: LoopBound<CoordinatorServer>
    private let supervisor: LoopBound<Supervisor>
    private let stopped = Locked<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let shuttingDown = Atomic<Bool>(false)
    private let writer: StateWriter?

    /// Starts an event loop, makes the registry it serves on it, binds the socket and
    /// starts serving.
    ///
    /// - `registry` makes the registry with the executor it is given, the coordinator's
    ///   event loop (`SceneRegistry(manifest:launcher:executor:)`): the registry and
    ///   its instances then run on the loop thread, and a request that need not wait is
    ///   read, applied and answered there in one turn.
    /// - `launcher`: the one the registry is made with, for process-backed scenes (see
    ///   ``start(manifest:behaviors:closePolicy:configuration:restoring:)``, which makes both).
    /// - Throws: what `registry` throws, `RegistryRestoreError` when `snapshot` does not
    ///   fit, `SocketPlacementError` when the path is too long, another server answers
    ///   there, or the socket cannot be bound, or ``CoordinatorSetupError``. The loop is
    ///   stopped again on failure.
    /// - `snapshot`: restored into the registry before the socket is bound (see
    ///   `SceneRegistry.restore(_:)`).
    /// - The set-up that must happen on the loop thread is awaited, never waited for with
    ///   the caller's thread held, so the caller may be a task (the registry and the
    ///   journal's file are made on the caller's thread).
    public init(
        configuration: CoordinatorConfiguration, launcher: ProcessLauncher? = nil,
        restoring snapshot: RegistrySnapshot<R>? = nil,
        registry makeRegistry: (_ executor: any SerialExecutor) throws -> SceneRegistry<R>
    ) async throws {
        self.configuration = configuration
        _ = CoordinatorLimits.raiseOpenFileLimit
        let loop = try EventLoop(name: "scene-coordinator", clock: configuration.clock)
        let registry: SceneRegistry<R>
        let journal: Journal?
        let history: LoopBound<EventHistory>
        do {
            registry = try makeRegistry(loop)
            guard registry.executor.map({ $0 as AnyObject }) === loop else {
                throw CoordinatorSetupError.registryNotOnLoop
            }
            journal = try Self.openJournal(configuration, continuing: registry)
            // The history and the journal see every event from the first, a restore's too,
            // so that a subscriber resumes over a restart without a gap.
            history = try await Self.onLoop(loop) {
                let history = EventHistory(limit: configuration.historyLimit)
                history.seed(journal?.events(after: 0) ?? [])
                return LoopBound(history, loop: loop)
            }
            if let journal { Served(registry: registry).observeEvents { journal.record($0) } }
            Served(registry: registry).observeEvents { event in history.value.append(event) }
            if let snapshot {
                try await Self.onLoop(loop) {
                    registry.assumingIsolation { registry in
                        Result { () throws(RegistryRestoreError) in try registry.restore(snapshot) }
                    }
                }.get()
            }
        } catch {
            await loop.shutdownGracefully()
            throw error
        }
        self.registry = registry
        self.loop = loop
        // The attach tokens a durable coordinator gave out are good across its restart.
        let kept = configuration.stateFile.flatMap { (try? StateFile.read($0)) ?? nil }?.tokens ?? []
        let shutdown = ShutdownHook()
        let made = try? await Self.onLoop(loop) { () -> Result<(LoopBound<CoordinatorServer>, LoopBound<Supervisor>), any Error> in
            do {
                let server = try CoordinatorServer(
                    registry: Served(registry: registry), configuration: configuration, loop: loop, journal: journal,
                    history: history.value, tokens: kept)
                // Set before the first connection can ask for a shutdown.
                server.onShutdownRequest = { shutdown.fire() }
                launcher?.attach(server.supervisor.bound)
                server.supervisor.start()
                return .success((LoopBound(server, loop: loop), server.supervisor.bound))
            } catch {
                return .failure(error)
            }
        }
        let server: LoopBound<CoordinatorServer>
        let supervisor: LoopBound<Supervisor>
        switch made ?? .failure(CoordinatorSetupError.loopStopped) {
        case .success(let made):
            (server, supervisor) = made
        case .failure(let error):
            await loop.shutdownGracefully()
            throw error
        }
        self.server = server
        self.supervisor = supervisor
        if let path = configuration.stateFile {
            let tokens = server
            writer = StateWriter(path: path, registry: Served(registry: registry), journal: journal, tokens: kept) {
                await withCheckedContinuation { continuation in
                    let running = loop.execute {
                        continuation.resume(returning: .init(processes: supervisor.value.processes, tokens: tokens.value.tokens.all))
                    }
                    if !running { continuation.resume(returning: nil) }
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

    /// The journal of a durable coordinator, opened before anything is emitted; the
    /// registry numbers its events on from the last one the journal or the state file's
    /// mark knows, so numbers never repeat across restarts. Nil unless durable.
    private static func openJournal(_ configuration: CoordinatorConfiguration, continuing registry: SceneRegistry<R>) throws -> Journal? {
        guard let path = configuration.stateFile, configuration.durable else { return nil }
        // The state file was read and checked by whoever passed its snapshot; here only its
        // mark and origin count.
        let state = (try? StateFile.read(path)) ?? nil
        let journal = try Journal(
            path: CoordinatorState.journalPath(for: path), keep: configuration.historyLimit,
            origin: state?.origin ?? SceneToken.make().text, marked: state?.journal?.seq ?? 0)
        registry.continueNumbering(after: journal.numberedAfter)
        return journal
    }

    /// Runs `body` on `loop`'s thread and returns what it made; the caller's task waits
    /// without holding its thread.
    ///
    /// - Throws: ``CoordinatorSetupError/loopStopped`` when the loop has stopped already.
    private static func onLoop<T: Sendable>(
        _ loop: EventLoop, _ body: @escaping @Sendable () -> T
    ) async throws(CoordinatorSetupError) -> T {
        let made: T? = await withCheckedContinuation { continuation in
            let accepted = loop.execute { continuation.resume(returning: body()) }
            if !accepted { continuation.resume(returning: nil) }
        }
        guard let made else { throw .loopStopped }
        return made
    }

    /// Stops serving: closes every connection and the listener, then the loop; returns
    /// once the loop has ended (every scene process it started killed and reaped, the
    /// socket file removed), without blocking the caller's thread.
    ///
    /// - Called on the loop thread itself (a task that prefers it), it returns once the
    ///   stop is asked for: the loop cannot end while it waits.
    public func stop() async {
        // A write retried after a failure would record no process: the loop is gone.
        await writer?.stop()
        loop.execute { [server] in server.value.close() }
        await loop.shutdownGracefully()
    }

    /// Starts a coordinator serving `scenes`, their behaviours beside them (see
    /// ``start(app:declarations:linkPolicy:immersive:behaviors:closePolicy:configuration:restoring:)``).
    public static func start(
        scenes: SceneSet<R>, closePolicy: ClosePolicy? = nil, configuration: CoordinatorConfiguration,
        restoring snapshot: RegistrySnapshot<R>? = nil
    ) async throws -> Coordinator<R> {
        try await start(
            app: scenes.app, declarations: scenes.declarations, linkPolicy: scenes.linkPolicy, immersive: scenes.immersive,
            behaviors: scenes.behaviors, closePolicy: closePolicy, configuration: configuration, restoring: snapshot)
    }

    /// Makes a registry for `manifest` whose process-backed scenes this coordinator
    /// spawns and supervises, and whose in-process scenes run the `behaviors` given by
    /// scene id; restores `snapshot` into it when given, and starts serving on the
    /// configuration's socket path.
    ///
    /// - `closePolicy` is asked before any instance closes interactively (see
    ///   `SceneRegistry.init(app:declarations:linkPolicy:linkLimits:immersive:behaviors:processes:closePolicy:timeouts:time:reopenLimit:executor:)`).
    /// - Restored process-backed instances come back `disconnected`, and their processes
    ///   are started again; they get their paths in their `hello` result. Restored
    ///   in-process instances get new behaviours.
    /// - With ``CoordinatorConfiguration/stateFile`` set, the state is written within a
    ///   second of every change of instances or paths.
    /// - Throws: `RegistryConfigurationError`, `RegistryRestoreError`, or
    ///   `SocketPlacementError`.
    public static func start(
        manifest: Manifest, behaviors: [String: SceneBehaviorFactory<JSONValue>] = [:], closePolicy: ClosePolicy? = nil,
        configuration: CoordinatorConfiguration, restoring snapshot: RegistrySnapshot<JSONValue>? = nil
    ) async throws -> Coordinator<JSONValue> where R == JSONValue {
        try await start(
            app: manifest.app, declarations: manifest.scenes, linkPolicy: manifest.linkPolicy, immersive: manifest.immersive,
            behaviors: behaviors, closePolicy: closePolicy, configuration: configuration, restoring: snapshot)
    }

    /// ``start(manifest:behaviors:closePolicy:configuration:restoring:)`` for scenes
    /// declared in Swift, with routes of any `Codable` type: a registry of the app's own
    /// route enum is served as the JSON its routes encode to.
    public static func start(
        app: String, declarations: [SceneDeclaration<R>], linkPolicy: LinkOriginPolicy = .closed,
        immersive: ImmersivePolicy = .reject, behaviors: [String: SceneBehaviorFactory<R>] = [:],
        closePolicy: ClosePolicy? = nil, configuration: CoordinatorConfiguration,
        restoring snapshot: RegistrySnapshot<R>? = nil
    ) async throws -> Coordinator<R> {
        try await start(
            app: app, declarations: declarations, linkPolicy: linkPolicy, immersive: immersive, behaviors: behaviors,
            closePolicy: closePolicy, configuration: configuration, restoring: snapshot, observing: nil)
    }

    /// ``start(app:declarations:linkPolicy:immersive:behaviors:closePolicy:configuration:restoring:)``,
    /// with `observing` given the registry before any restored process is started, so that
    /// an observer (a test harness) sees every event from the first.
    package static func start(
        app: String, declarations: [SceneDeclaration<R>], linkPolicy: LinkOriginPolicy = .closed,
        immersive: ImmersivePolicy = .reject, behaviors: [String: SceneBehaviorFactory<R>] = [:],
        closePolicy: ClosePolicy? = nil, configuration: CoordinatorConfiguration,
        restoring snapshot: RegistrySnapshot<R>? = nil, observing: ((SceneRegistry<R>) -> Void)?
    ) async throws -> Coordinator<R> {
        let launcher = ProcessLauncher()
        let coordinator = try await Coordinator(configuration: configuration, launcher: launcher, restoring: snapshot) { executor in
            try SceneRegistry(
                app: app, declarations: declarations, linkPolicy: linkPolicy, immersive: immersive, behaviors: behaviors,
                processes: launcher, closePolicy: closePolicy, timeouts: configuration.sceneTimeouts,
                time: configuration.clock.isManual ? configuration.clock : nil, reopenLimit: configuration.reopenLimit,
                executor: executor)
        }
        let registry = coordinator.registry
        observing?(registry)
        let restored = await registry.processInstances().filter { $0.phase != .opening }.map(\.id)
        for id in restored { await registry.processDisconnected(id, exit: nil) }
        let supervisor = coordinator.supervisor
        supervisor.loop.execute { supervisor.value.adopt(restored) }
        return coordinator
    }

    /// Marks the state file for writing on every change of instances, paths or processes.
    private func watchForChanges() {
        guard let writer else { return }
        let server = self.server
        loop.execute { server.value.writeState(with: writer) }
    }

    /// Shuts down in order: the state is written, every scene process is closed in stages
    /// and every in-process behaviour stopped (without dismissing their instances), the
    /// state is written again without processes, then the coordinator stops. Later calls
    /// wait for the first.
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
        await registry.stopBehaviors()
        // The instances are kept (closing their processes dismissed none); no process runs.
        // Taken now: requests answered while the scenes closed are in it.
        if let writer, saved != nil {
            await writer.finish(with: await writer.current(processes: []))
        }
        await stop()
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

/// What every coordinator of a process shares.
enum CoordinatorLimits {
    /// Raised once per process: a coordinator serves many connections.
    static let raiseOpenFileLimit: Void = { SocketLimits.raiseOpenFileLimit() }()
}

/// Why a coordinator could not be set up around a registry.
public enum CoordinatorSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The registry was not made with the executor the coordinator handed it.
    case registryNotOnLoop
    /// The coordinator's event loop stopped while it was being set up.
    case loopStopped

    /// The error's snake_case code: `registry_not_on_loop` or `loop_stopped`.
    public var code: String {
        switch self {
        case .registryNotOnLoop: "registry_not_on_loop"
        case .loopStopped: "loop_stopped"
        }
    }

    public var description: String {
        switch self {
        case .registryNotOnLoop: "the registry must be made with the executor the coordinator gives it (its event loop)"
        case .loopStopped: "the coordinator's event loop stopped while it was being set up"
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
