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
import SceneTesting
import Testing

/// The repository's root, for the Python example scene.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// An executable built next to scenectl (`swift-scene`).
func builtExecutable(_ name: String) -> String {
    URL(fileURLWithPath: scenectlPath()).deletingLastPathComponent().appendingPathComponent(name).path
}

/// The scenes the process tests use: every kind of scene process, and a "puppet" whose
/// process only sleeps, so that a test can say hello with its token and act as the scene.
func processManifest(extra: [String] = [], groups: [String] = []) -> String {
    let scenectl = scenectlPath()
    let python = repositoryRoot.appendingPathComponent("Examples/python-scene/scene.py").path
    let scenes = [
        #"{"id": "swift", "kind": "window", "launch": {"command": ["\#(builtExecutable("swift-scene"))", "--title", "Swift"]}}"#,
        #"{"id": "py", "kind": "window", "launch": {"command": ["python3", "\#(python)", "--title", "Python", "--quiet"]}}"#,
        #"{"id": "ctl", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--title", "Ctl", "--quiet"]}}"#,
        #"{"id": "flaky", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, "restart": {"policy": "permanent", "maxRestarts": 2, "withinSeconds": 60}}"#,
        #"{"id": "temp", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, "restart": {"policy": "temporary"}}"#,
        #"{"id": "puppet", "kind": "window", "launch": {"command": ["sleep", "120"], "timeout": 60}}"#,
        #"{"id": "decider", "kind": "window", "launch": {"command": ["sleep", "120"], "timeout": 60}, "decides": true, "decideTimeout": 2, "scope": [{"when": {}, "present": "push"}]}"#,
        #"{"id": "mute", "kind": "window", "launch": {"command": ["sleep", "120"], "timeout": 1}}"#,
        #"{"id": "missing", "kind": "window", "launch": {"command": ["/nonexistent/scene-binary"]}}"#,
        #"{"id": "virtual", "kind": "window", "instances": "single"}"#,
    ] + extra
    return #"{"app": "procs", "scenes": [\#(scenes.joined(separator: ",\n"))], "groups": [\#(groups.joined(separator: ", "))]}"#
}

/// A coordinator with process-backed scenes, a control connection, and every event: a
/// ``TestCoordinator`` with the helpers the process tests share.
final class ProcessHarness: Sendable {
    let test: TestCoordinator
    let events: HarnessEvents

    init(_ test: TestCoordinator) {
        self.test = test
        self.events = HarnessEvents(test: test)
    }

    var coordinator: Coordinator<JSONValue> { test.coordinator }
    var control: SceneConnection { test.control }
    var path: String { test.socketPath }

    /// The pid `scene.spawned` reported last for `instance`.
    func pid(of instance: String) -> Int32? { test.pid(of: instance) }

    /// Waits (bounded) for a process of `instance` other than `old`, and returns its pid.
    func newPid(of instance: String, other old: Int32? = nil) async throws -> Int32 {
        var found: Int32?
        _ = await eventually {
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

    /// Opens a puppet instance (of `scene`, whose process only sleeps) and says hello for
    /// it with its process's token: the returned connection is that scene. `handler`
    /// answers what the coordinator sends.
    ///
    /// With `opening` false the test opens it otherwise (a `scene.present`, a program):
    /// this waits for the newest process of `scene` and says hello for it.
    func puppet(
        of scene: String = "puppet", opening: Bool = true, handler: @escaping IncomingHandler = { _ in .success([:]) }
    ) async throws -> (id: String, pid: Int32, scene: SceneConnection) {
        try await puppet(of: scene, opening: opening) { path, token in
            try await SceneConnection.connect(path: path, client: "puppet", role: .scene, token: token, timeout: 60, handler: handler)
        }
    }

    /// A puppet whose connection answers at once, on the client's loop thread.
    func puppet(answering: @escaping ImmediateHandler) async throws -> (id: String, pid: Int32, scene: SceneConnection) {
        try await puppet(of: "puppet", opening: true) { path, token in
            try await SceneConnection.connect(path: path, client: "puppet", role: .scene, token: token, timeout: 60, answering: answering)
        }
    }

    private func puppet(
        of scene: String, opening: Bool, connect: (_ path: String, _ token: String) async throws -> SceneConnection
    ) async throws -> (id: String, pid: Int32, scene: SceneConnection) {
        let before = Set(events.all.filter { $0.kind == .spawned }.compactMap { $0.params["pid"]?.intValue })
        let control = self.control
        let open = opening ? Task { try await control.open(scene) } : nil
        var spawned: WireEvent?
        _ = await eventually {
            spawned = events.all.last { event in
                guard event.kind == .spawned, event.params["instance"]?.stringValue?.hasPrefix("\(scene)-") == true else { return false }
                return !opening || !before.contains(event.params["pid"]?.intValue ?? -1)
            }
            return spawned != nil
        }
        let event = try #require(spawned, "the puppet's process did not start")
        let pid = Int32(try #require(event.params["pid"]?.intValue))
        let token = try token(of: pid)
        let connection = try await connect(path, token)
        let id = try #require(connection.hello.instance?.id)
        if let open { #expect(try await open.value.instance.id == id) }
        return (id, pid, connection)
    }
}

/// Every event the harness's subscription saw.
struct HarnessEvents: Sendable {
    let test: TestCoordinator

    var all: [WireEvent] { test.events }

    /// Waits (bounded) for an event that satisfies `match`; nil when none came in time.
    func wait(_ timeout: Duration = .seconds(60), for match: @escaping @Sendable (WireEvent) -> Bool) async -> WireEvent? {
        try? await test.event(timeout: timeout, where: match)
    }
}

/// For a test that asserts a veto: `closeGrace` is also how long a scene has to answer
/// `scene.close`, and a late answer counts as accepted. ``withProcesses`` shortens it to
/// 500 ms, so that a process that does not exit is stopped soon; a loaded machine (the
/// sanitizer runs) can keep a scene's answer longer than that. The scenes these tests
/// close exit as soon as their connection closes, so the longer grace costs no time.
func patientClose(_ configuration: inout CoordinatorConfiguration) {
    configuration.closeGrace = .seconds(60)
}

/// Runs `body` against a coordinator serving ``processManifest(extra:)`` in a temporary
/// folder; afterwards stops it and checks that no process it spawned is left.
func withProcesses<T>(
    extra: [String] = [], groups: [String] = [], behaviors: [String: SceneBehaviorFactory<JSONValue>] = [:],
    configure: (inout CoordinatorConfiguration) -> Void = { _ in },
    _ body: (ProcessHarness) async throws -> T
) async throws -> T {
    let manifest = try Manifest.load(from: Data(processManifest(extra: extra, groups: groups).utf8))
    var spawned: [Int32] = []
    let result = try await TestCoordinator.run(manifest: manifest, behaviors: behaviors, configure: { configuration in
        configuration.closeGrace = .milliseconds(500)
        configuration.terminateGrace = .milliseconds(500)
        // The scenes without a launch timeout of their own (the Swift, Python and scenectl
        // ones) start in a second or two, but under a sanitizer, several at once beside 32
        // running tests, the default 10 s of real time is nearer than a test should be.
        // Tests on the manual clock advance it by 20 s at most, never while one starts.
        configuration.launchTimeout = .seconds(60)
        configure(&configuration)
    }) { test in
        defer { spawned = test.events.filter { $0.kind == .spawned }.compactMap { $0.params["pid"]?.intValue }.map(Int32.init) }
        return try await body(ProcessHarness(test))
    }
    // A coordinator that stops ends every scene process (and reaps it) before it returns.
    for pid in spawned {
        #expect(kill(pid, 0) != 0 && errno == ESRCH, "scene process \(pid) outlived its coordinator")
    }
    return result
}

/// The reason of a refused call.
func refusal(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> ReasonCode? {
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

/// The coordinator's error object a client call was refused with; nil when it succeeded
/// or failed otherwise.
func remote(_ body: () async throws -> Void) async -> WireError? {
    do {
        try await body()
        return nil
    } catch let error as ClientError {
        if case .remote(let wire) = error { return wire }
        return nil
    } catch {
        return nil
    }
}
