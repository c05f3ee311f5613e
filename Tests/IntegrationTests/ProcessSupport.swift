import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync
import Testing

/// The repository's root, for the Python example scene.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// An executable built next to scenectl (`swift-scene`).
func builtExecutable(_ name: String) -> String {
    URL(fileURLWithPath: scenectlPath()).deletingLastPathComponent().appendingPathComponent(name).path
}

/// The scenes the process tests use: every kind of scene process, and a "puppet" whose
/// process only sleeps, so that a test can say hello with its token and act as the scene.
func processManifest(extra: [String] = []) -> String {
    let scenectl = scenectlPath()
    let python = repositoryRoot.appendingPathComponent("Examples/python-scene/scene.py").path
    let scenes = [
        #"{"id": "swift", "kind": "window", "launch": {"command": ["\#(builtExecutable("swift-scene"))", "--title", "Swift"]}}"#,
        #"{"id": "py", "kind": "window", "launch": {"command": ["python3", "\#(python)", "--title", "Python", "--quiet"]}}"#,
        #"{"id": "ctl", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--title", "Ctl", "--quiet"]}}"#,
        #"{"id": "flaky", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, "restart": {"policy": "permanent", "maxRestarts": 2, "withinSeconds": 60}}"#,
        #"{"id": "temp", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, "restart": {"policy": "temporary"}}"#,
        #"{"id": "puppet", "kind": "window", "launch": {"command": ["sleep", "120"], "timeout": 60}}"#,
        #"{"id": "mute", "kind": "window", "launch": {"command": ["sleep", "120"], "timeout": 1}}"#,
        #"{"id": "missing", "kind": "window", "launch": {"command": ["/nonexistent/scene-binary"]}}"#,
        #"{"id": "virtual", "kind": "window", "instances": "single"}"#,
    ] + extra
    return #"{"app": "procs", "scenes": [\#(scenes.joined(separator: ",\n"))]}"#
}

/// A coordinator with process-backed scenes, a control connection, and every event.
final class ProcessHarness: Sendable {
    let coordinator: Coordinator<JSONValue>
    let control: SceneConnection
    let events: EventLog
    let path: String

    init(coordinator: Coordinator<JSONValue>, control: SceneConnection, events: EventLog, path: String) {
        self.coordinator = coordinator
        self.control = control
        self.events = events
        self.path = path
    }

    /// The pid `scene.spawned` reported last for `instance`.
    func pid(of instance: String) -> Int32? {
        events.all.last { $0.type == "scene.spawned" && $0.params["instance"] == .string(instance) }
            .flatMap { $0.params["pid"]?.intValue }.map(Int32.init)
    }

    /// Waits (bounded) for a process of `instance` other than `old`, and returns its pid.
    func newPid(of instance: String, other old: Int32? = nil) async throws -> Int32 {
        var found: Int32?
        _ = await eventually(.seconds(20)) {
            found = pid(of: instance).flatMap { $0 == old ? nil : $0 }
            return found != nil
        }
        return try #require(found, "no new process for \(instance)")
    }

    /// The instance object of `id` in the state, if open.
    func instance(_ id: String) async throws -> InstanceObject? {
        try await control.state().instances.first { $0.id == id }
    }

    /// Reads a spawned process's `SCENE_TOKEN` from `/proc/<pid>/environ`.
    func token(of pid: Int32) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            if text.hasPrefix("SCENE_TOKEN=") { return String(text.dropFirst("SCENE_TOKEN=".count)) }
        }
        throw SocketError("environ", code: ENOENT)
    }

    /// Opens a puppet instance and says hello for it with its process's token: the
    /// returned connection is that scene. `handler` answers what the coordinator sends.
    func puppet(
        handler: @escaping IncomingHandler = { _ in .success([:]) }
    ) async throws -> (id: String, pid: Int32, scene: SceneConnection) {
        try await puppet { path, token in
            try await SceneConnection.connect(path: path, client: "puppet", role: .scene, token: token, timeout: 10, handler: handler)
        }
    }

    /// A puppet whose connection answers at once, on the client's loop thread.
    func puppet(answering: @escaping ImmediateHandler) async throws -> (id: String, pid: Int32, scene: SceneConnection) {
        try await puppet { path, token in
            try await SceneConnection.connect(path: path, client: "puppet", role: .scene, token: token, timeout: 10, answering: answering)
        }
    }

    private func puppet(
        connect: (_ path: String, _ token: String) async throws -> SceneConnection
    ) async throws -> (id: String, pid: Int32, scene: SceneConnection) {
        let before = Set(events.all.filter { $0.type == "scene.spawned" }.compactMap { $0.params["pid"]?.intValue })
        let control = self.control
        let opening = Task { try await control.open("puppet") }
        var spawned: WireEvent?
        _ = await eventually(.seconds(20)) {
            spawned = events.all.last { $0.type == "scene.spawned" && !before.contains($0.params["pid"]?.intValue ?? -1) }
            return spawned != nil
        }
        let event = try #require(spawned, "the puppet's process did not start")
        let pid = Int32(try #require(event.params["pid"]?.intValue))
        let token = try token(of: pid)
        let scene = try await connect(path, token)
        let opened = try await opening.value
        #expect(scene.hello.instance?.id == opened.instance.id)
        return (opened.instance.id, pid, scene)
    }
}

/// Every event a subscription saw, for polling.
final class EventLog: Sendable {
    private final class Store: Sendable {
        let events = Locked<[WireEvent]>([])
    }

    private let store = Store()
    private let reader = Locked<Task<Void, Never>?>(nil)

    func start(_ stream: EventStream<WireEvent>) {
        let store = self.store
        let task = Task {
            for await event in stream { store.events.withLock { $0.append(event) } }
        }
        reader.withLock { $0 = task }
    }

    var all: [WireEvent] { store.events.withLock { $0 } }

    /// Waits (bounded) for an event that satisfies `match`.
    func wait(_ timeout: Duration = .seconds(20), for match: @escaping (WireEvent) -> Bool) async -> WireEvent? {
        var found: WireEvent?
        _ = await eventually(timeout) {
            found = all.first(where: match)
            return found != nil
        }
        return found
    }

    func stop() { reader.withLock { $0?.cancel() } }
}

/// Runs `body` against a coordinator serving ``processManifest(extra:)`` in a temporary
/// folder; afterwards stops it and checks that no process it spawned is left.
func withProcesses<T>(
    extra: [String] = [], behaviors: [String: SceneBehaviorFactory<JSONValue>] = [:],
    configure: (inout CoordinatorConfiguration) -> Void = { _ in },
    _ body: (ProcessHarness) async throws -> T
) async throws -> T {
    try await withTemporaryFolder { folder in
        let manifest = try Manifest.load(from: Data(processManifest(extra: extra).utf8))
        var configuration = CoordinatorConfiguration(socketPath: folder.file("procs.sock"))
        configuration.closeGrace = .milliseconds(500)
        configuration.terminateGrace = .milliseconds(500)
        configure(&configuration)
        let coordinator = try await Coordinator.start(manifest: manifest, behaviors: behaviors, configuration: configuration)
        let events = EventLog()
        var spawned: [Int32] = []
        defer {
            coordinator.stop()
            events.stop()
        }
        let control = try await SceneConnection.connect(path: configuration.socketPath, client: "tests", timeout: 20)
        defer { control.close() }
        let (_, stream) = try await control.subscribe()
        events.start(stream)
        let harness = ProcessHarness(coordinator: coordinator, control: control, events: events, path: configuration.socketPath)
        let result = try await body(harness)
        spawned = events.all.filter { $0.type == "scene.spawned" }.compactMap { $0.params["pid"]?.intValue }.map(Int32.init)
        // A coordinator that stops ends every scene process (and reaps it) before it returns.
        coordinator.stop()
        for pid in spawned {
            #expect(kill(pid, 0) != 0 && errno == ESRCH, "scene process \(pid) outlived its coordinator")
        }
        return result
    }
}

/// The reason of a refused call.
func refusal(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
    do {
        try await body()
        Issue.record("expected a refusal", sourceLocation: sourceLocation)
        return nil
    } catch let error as ClientError {
        return error.reason
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
