public import Foundation
import Glibc
public import SceneClient
public import SceneCoordinator
public import SceneCore
public import SceneJSON
public import SceneSocket
import SceneFlow
import SceneSync
import SceneWire

/// A coordinator started in the test's own process on a temporary socket, with the waits
/// an integration test needs and the cleanup it must not forget.
///
/// - ``run(manifest:behaviors:clock:keepsState:connectsControl:configure:_:)`` makes a private temporary
///   folder, starts the coordinator in it (process scenes of any command, in-process
///   behaviours, virtual scenes), records every event its registry emits from the first,
///   connects a control client, runs the test, and then — whether the test passed, failed or threw — stops the
///   coordinator, ends every scene process it started, and removes the folder.
/// - Every wait has a deadline; a wait that runs out throws ``TestCoordinatorError``,
///   which says what was awaited and what was seen meanwhile.
/// - With `clock: LoopClock.manual()`, the coordinator's timers (heartbeats, launch
///   timeouts, the staged stop, relayed call timeouts, and in-process behaviours' start,
///   call and close timeouts) wait for the test to advance ``clock``.
///
/// ```swift
/// try await TestCoordinator.run(manifest: manifest) { coordinator in
///     let notes = try await coordinator.control.open("notes").instance.id
///     try await coordinator.waitUntilActive(notes)
///     try coordinator.kill(notes)
///     _ = try await coordinator.event { $0.kind == .restarted }
/// }
/// ```
public final class TestCoordinator: Sendable {
    /// The temporary folder the coordinator's socket (and state file) live in.
    public let folder: String
    /// The coordinator's socket.
    public let socketPath: String
    /// The clock its timers run on.
    public let clock: LoopClock
    private let scenes: SceneSet<JSONValue>
    private let configuration: CoordinatorConfiguration
    private let connectsControl: Bool
    private let running: Locked<Running>
    private let log = EventLog()

    private struct Running {
        var coordinator: Coordinator<JSONValue>
        var control: SceneConnection?
        var clients: [SceneConnection] = []
    }

    /// The coordinator serving now (a new one after ``restart()``).
    public var coordinator: Coordinator<JSONValue> { running.withLock { $0.coordinator } }

    /// A control client, connected (unless the run was made with `connectsControl: false`,
    /// when asking for it traps: use ``connect(client:)``).
    public var control: SceneConnection {
        guard let control = running.withLock({ $0.control }) else {
            preconditionFailure("this test coordinator was run with connectsControl: false; use connect(client:)")
        }
        return control
    }

    /// Every event the registry emitted so far, in order (across restarts), as a
    /// subscription receives them.
    public var events: [WireEvent] { log.all }

    /// How many events there are so far: a mark for ``event(_:after:timeout:where:)``, to
    /// wait for an event that comes after it.
    public var eventCount: Int { log.count }

    /// Runs `body` against a coordinator serving `manifest`, its in-process scenes running
    /// `behaviors` (see ``run(scenes:clock:keepsState:connectsControl:configure:_:)``).
    public static func run<T>(
        manifest: Manifest, behaviors: [String: SceneBehaviorFactory<JSONValue>] = [:], clock: LoopClock = .system,
        keepsState: Bool = false, connectsControl: Bool = true,
        configure: (inout CoordinatorConfiguration) -> Void = { _ in }, _ body: (TestCoordinator) async throws -> T
    ) async throws -> T {
        try await run(
            scenes: SceneSet(manifest, behaviors: behaviors), clock: clock, keepsState: keepsState, connectsControl: connectsControl,
            configure: configure, body)
    }

    /// Runs `body` against a coordinator serving `scenes` (their behaviours beside them) in
    /// a fresh temporary folder.
    ///
    /// - `keepsState`: the coordinator keeps a state file in the folder, so that
    ///   ``restart()`` brings its instances back.
    /// - `connectsControl`: whether ``control`` is connected; a test that counts the
    ///   coordinator's connections says `false` and connects its own clients.
    /// - `configure` adjusts the configuration (socket and state file are set already).
    /// - Afterwards, pass or fail: every client closed, the coordinator stopped, every
    ///   scene process it started ended, the folder removed.
    public static func run<T>(
        scenes: SceneSet<JSONValue>, clock: LoopClock = .system,
        keepsState: Bool = false, connectsControl: Bool = true,
        configure: (inout CoordinatorConfiguration) -> Void = { _ in }, _ body: (TestCoordinator) async throws -> T
    ) async throws -> T {
        var template = Array("/tmp/sctest-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestCoordinatorError.setUp("cannot make a temporary folder") }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = CoordinatorConfiguration(socketPath: "\(folder)/scenes.sock")
        configuration.clock = clock
        if keepsState { configuration.stateFile = "\(folder)/state.json" }
        configure(&configuration)
        let harness = try await TestCoordinator(
            folder: folder, scenes: scenes, configuration: configuration,
            connectsControl: connectsControl)
        do {
            let result = try await body(harness)
            await harness.tearDown()
            return result
        } catch {
            await harness.tearDown()
            throw error
        }
    }

    private init(
        folder: String, scenes: SceneSet<JSONValue>, configuration: CoordinatorConfiguration, connectsControl: Bool
    ) async throws {
        self.folder = folder
        self.connectsControl = connectsControl
        self.socketPath = configuration.socketPath
        self.clock = configuration.clock
        self.scenes = scenes
        self.configuration = configuration
        let (coordinator, control) = try await Self.start(
            scenes: scenes, configuration: configuration, restoring: nil, log: log,
            connectsControl: connectsControl)
        running = Locked(Running(coordinator: coordinator, control: control))
    }

    private static func start(
        scenes: SceneSet<JSONValue>, configuration: CoordinatorConfiguration,
        restoring snapshot: RegistrySnapshot<JSONValue>?, log: EventLog, connectsControl: Bool
    ) async throws -> (Coordinator<JSONValue>, SceneConnection?) {
        // The log follows the registry itself from before any restored process starts, so
        // it holds every event, a restart's first spawns included.
        let coordinator = try await Coordinator.start(
            app: scenes.app, declarations: scenes.declarations, linkPolicy: scenes.linkPolicy, immersive: scenes.immersive,
            behaviors: scenes.behaviors, configuration: configuration, restoring: snapshot, observing: { log.follow($0) })
        guard connectsControl else { return (coordinator, nil) }
        do {
            let control = try await SceneConnection.connect(path: configuration.socketPath, client: "test-coordinator", timeout: 60)
            return (coordinator, control)
        } catch {
            await coordinator.stop()
            throw error
        }
    }

    // MARK: Clients

    /// Another control client, closed at teardown.
    public func connect(client: String = "tests") async throws -> SceneConnection {
        let connection = try await SceneConnection.connect(path: socketPath, client: client, timeout: 60)
        running.withLock { $0.clients.append(connection) }
        return connection
    }

    // MARK: Waiting

    /// The first event that `matches` accepts, from the start or from mark `after` (an
    /// ``eventCount`` taken earlier); waits for it at most `timeout`.
    @discardableResult
    public func event(
        _ description: String = "a matching event", after mark: Int = 0, timeout: Duration = .seconds(60),
        where matches: @escaping @Sendable (WireEvent) -> Bool
    ) async throws -> WireEvent {
        if let found = await log.first(from: mark, within: timeout, where: matches) { return found }
        throw TestCoordinatorError.timedOut(
            awaiting: description, within: timeout, seen: log.all.map(Self.describe),
            threads: await ThreadDump.clause(afterWaiting: timeout, for: description))
    }

    /// Waits until instance `id` is active (now or later), at most `timeout`.
    public func waitUntilActive(_ id: String, timeout: Duration = .seconds(60)) async throws {
        // Only an event after the state was read counts: an old one may be stale.
        let mark = eventCount
        let state = await coordinator.registry.state()
        if state.instances.first(where: { $0.id.description == id })?.phase == .active { return }
        try await event("\(id) to become active", after: mark, timeout: timeout) { event in
            switch event.type {
            case "scene.opened": return event.params["instance"]?["id"] == .string(id)
            case "scene.phase_changed": return event.params["instance"] == .string(id) && event.params["phase"] == "active"
            default: return false
            }
        }
    }

    /// The pid of the newest process started for instance `id`, if one was.
    public func pid(of id: String) -> Int32? {
        log.all.last { $0.kind == .spawned && $0.params["instance"] == .string(id) }
            .flatMap { $0.params["pid"]?.intValue }.flatMap { Int32(exactly: $0) }
    }

    /// Sends `signal` (SIGKILL by default) to the process group of instance `id`'s newest
    /// process.
    public func kill(_ id: String, signal: Int32 = SIGKILL) throws {
        // A pid of 0 or 1 would signal far more than one scene's group.
        guard let pid = pid(of: id), pid > 1 else { throw TestCoordinatorError.noProcess(id) }
        _ = Glibc.kill(-pid, signal)
    }

    /// Waits until process `pid` has exited and been reaped, at most `timeout`.
    public func waitForExit(_ pid: Int32, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while Glibc.kill(pid, 0) == 0 || errno != ESRCH {
            guard ContinuousClock.now < deadline else {
                throw TestCoordinatorError.timedOut(
                    awaiting: "process \(pid) to exit", within: timeout, seen: log.all.map(Self.describe),
                    threads: await ThreadDump.clause(afterWaiting: timeout, for: "process \(pid) to exit"))
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    // MARK: Restarting

    /// Shuts the coordinator down (its state written, its scene processes closed) and
    /// starts a new one on the same socket and state file, which restores the instances;
    /// ``control`` is a new client, subscribed.
    ///
    /// - Needs `keepsState: true`. With a manual clock, a scene process that does not exit
    ///   when closed holds the shutdown until the test advances the clock past the grace
    ///   times.
    public func restart() async throws {
        guard let path = configuration.stateFile else { throw TestCoordinatorError.setUp("restart needs keepsState: true") }
        let (old, control) = running.withLock { ($0.coordinator, $0.control) }
        control?.close()
        await old.shutdown()
        await old.waitUntilStopped()
        let state = try StateFile.read(path)
        if let state { _ = StateFile.endLeftovers(of: state) }
        let (coordinator, newControl) = try await Self.start(
            scenes: scenes, configuration: configuration, restoring: state?.snapshot, log: log,
            connectsControl: connectsControl)
        running.withLock {
            $0.coordinator = coordinator
            $0.control = newControl
        }
    }

    // MARK: Teardown

    private func tearDown() async {
        let (coordinator, connections) = running.withLock { ($0.coordinator, [$0.control].compactMap { $0 } + $0.clients) }
        for connection in connections { connection.close() }
        // Stopping kills every scene process's group and reaps it before it returns.
        await coordinator.stop()
        log.stop()
    }

    private static func describe(_ event: WireEvent) -> String {
        "#\(event.seq) \(event.type) \(event.params)"
    }
}

/// Why a ``TestCoordinator`` could not do what a test asked.
public enum TestCoordinatorError: Error, CustomStringConvertible {
    /// Something the harness itself needs failed.
    case setUp(String)
    /// A wait ran out: what it awaited, how long, every event seen meanwhile, and where the
    /// ``ThreadDump`` taken then is (as a clause of the description; empty for a wait
    /// shorter than ``ThreadDump/worthwhileAfter``).
    case timedOut(awaiting: String, within: Duration, seen: [String], threads: String)
    /// No process was started for this instance.
    case noProcess(String)

    /// What went wrong, with what was seen.
    public var description: String {
        switch self {
        case .setUp(let detail): return "test coordinator: \(detail)"
        case .timedOut(let what, let timeout, let seen, let threads):
            let recent = seen.suffix(20)
            return "waited \(timeout) for \(what)\(threads); saw \(seen.count) events"
                + (recent.isEmpty ? "" : ", the last \(recent.count):\n" + recent.joined(separator: "\n"))
        case .noProcess(let id): return "no process was started for \(id)"
        }
    }
}

/// Every event a test coordinator's subscriptions saw, with waiters woken as they arrive.
private final class EventLog: Sendable {
    private struct State {
        /// As the registry emitted them; made wire events only when a test reads them.
        var raw: [SequencedEvent<JSONValue>] = []
        /// The wire form of the first `converted.count` raw events.
        var converted: [WireEvent] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        /// Waits whose time ran out before they were registered.
        var expired: Set<UInt64> = []
        var readers: [Task<Void, Never>] = []

        /// Every event in wire form, converting those not converted yet.
        var events: [WireEvent] {
            mutating get {
                if converted.count < raw.count { converted += raw[converted.count...].map(WireEvent.init) }
                return converted
            }
        }
    }

    private struct Waiter {
        /// The first index it may match.
        let from: Int
        let matches: @Sendable (WireEvent) -> Bool
        let continuation: CheckedContinuation<WireEvent?, Never>
    }

    private let state = Locked(State())

    var all: [WireEvent] { state.withLock { $0.events } }

    var count: Int { state.withLock { $0.raw.count } }

    /// Appends every event `registry` emits from now on.
    func follow(_ registry: SceneRegistry<JSONValue>) {
        let (_, stream) = registry.subscribe(buffering: .unbounded)
        let reader = Task { [self] in
            for await event in stream { append(event) }
        }
        state.withLock { $0.readers.append(reader) }
    }

    func stop() {
        for reader in state.withLock({ $0.readers }) { reader.cancel() }
    }

    // A test's matcher never runs under the lock: it may read the log itself.
    private func append(_ raw: SequencedEvent<JSONValue>) {
        let (index, waiters) = state.withLock { state -> (Int, [UInt64: Waiter]) in
            state.raw.append(raw)
            return (state.raw.count - 1, state.waiters)
        }
        // Made a wire event only when a test waits for one.
        guard !waiters.isEmpty else { return }
        let event = WireEvent(raw)
        for (key, waiter) in waiters where index >= waiter.from && waiter.matches(event) { resolve(key, with: event) }
    }

    /// Answers wait `key` with `event`, once: whoever takes the waiter first answers it.
    private func resolve(_ key: UInt64, with event: WireEvent?) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.waiters.removeValue(forKey: key) { return waiter }
            if event == nil { state.expired.insert(key) }
            return nil
        }
        waiter?.continuation.resume(returning: event)
    }

    /// The first event from index `from` that `matches` accepts, seen already or arriving
    /// within `timeout`.
    func first(
        from: Int, within timeout: Duration, where matches: @escaping @Sendable (WireEvent) -> Bool
    ) async -> WireEvent? {
        let key = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task { [self] in
            // Cancelled once the wait is answered: then nothing is left to time out.
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            resolve(key, with: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            // Registered before the events so far are read: one arriving meanwhile is
            // matched by `append`, one before is in the copy.
            let seen = state.withLock { state -> [WireEvent]? in
                if state.expired.remove(key) != nil { return nil }
                state.waiters[key] = Waiter(from: from, matches: matches, continuation: continuation)
                return Array(state.events.dropFirst(from))
            }
            guard let seen else { return continuation.resume(returning: nil) }
            if let found = seen.first(where: matches) { resolve(key, with: found) }
        }
    }
}
