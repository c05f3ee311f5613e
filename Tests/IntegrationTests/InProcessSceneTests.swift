import Foundation
import NotebookScene
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneTesting
import SceneWire
import Testing

/// In-process scenes beside the process scenes of ``processManifest(extra:)``.
private let inProcessScenes = [
    #"{"id": "left", "kind": "window", "in_process": true}"#,
    #"{"id": "right", "kind": "window", "in_process": true}"#,
    #"{"id": "nb", "kind": "window", "in_process": true}"#,
    #"{"id": "odd", "kind": "window", "in_process": true}"#,
]

/// A behaviour that fails its calls in the ways a scene can.
private actor Odd: SceneBehavior {
    struct Jammed: Error, CustomStringConvertible { var description: String { "the gears jammed" } }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        switch call.method {
        case "jam": throw Jammed()
        case "refuse": throw WireError.domain(reason: "out_of_paper", message: "no paper left", data: ["tray": 2])
        case "hang":
            try await Task.sleep(for: .seconds(3600))
            return .empty
        default: throw SceneError.methodNotFound(call.method)
        }
    }
}

private let behaviors: [String: SceneBehaviorFactory<JSONValue>] = [
    "left": { Notebook(title: "Left", context: $0) },
    "right": { Notebook(title: "Right", context: $0) },
    // The same title as the `swift` scene process, which runs the same type.
    "nb": { Notebook(title: "Swift", context: $0) },
    "odd": { _ in Odd() },
]

private func withMixedScenes<T>(
    clock: LoopClock = .system, configure: (inout CoordinatorConfiguration) -> Void = { _ in },
    _ body: (ProcessHarness) async throws -> T
) async throws -> T {
    try await withProcesses(extra: inProcessScenes, behaviors: behaviors, configure: { $0.clock = clock; configure(&$0) }, body)
}

/// The answer to a `scene.call` (or to the `raw` request instead), or its error object,
/// as the wire carried it.
private func outcome(
    _ control: SceneConnection, _ target: CallTarget, _ method: String, _ params: JSONValue? = nil,
    raw: (method: String, params: JSONValue)? = nil
) async -> JSONValue {
    do {
        if let raw { return ["result": try await control.call(raw.method, params: raw.params)] }
        return ["result": try await control.callScene(target, method: method, params: params, timeout: 60)]
    } catch {
        guard case .remote(let wire) = error else { return ["client": .string(error.description)] }
        return ["error": wire.json]
    }
}

@Suite("In-process scenes over the wire")
struct InProcessSceneTests {
    @Test("calls go round a ring of in-process and process scenes, in both directions")
    func ring() async throws {
        try await withMixedScenes { harness in
            for scene in ["left", "right", "py"] { _ = try await harness.control.open(scene) }
            // in process → a process → in process
            let forward = try await harness.control.callScene(
                .scene("left"), method: "relay",
                params: ["to": ["scene": "py"], "method": "relay", "params": ["to": ["scene": "right"], "method": "title"]])
            #expect(forward == ["title": "Right"])
            // a process → in process → a process
            let backward = try await harness.control.callScene(
                .scene("py"), method: "relay",
                params: ["to": ["scene": "left"], "method": "relay", "params": ["to": ["scene": "py"], "method": "title"]])
            #expect(backward == ["title": "Python"])
        }
    }

    @Test("one behaviour type answers the same calls the same way in process and in a process of its own")
    func sameBothWays() async throws {
        // Both kinds veto an interactive close below.
        try await withMixedScenes(configure: patientClose) { harness in
            let inProcess = try await harness.control.open("nb").instance.id
            let process = try await harness.control.open("swift").instance.id
            _ = try await harness.control.open("left")
            let calls: [(String, JSONValue?)] = [
                ("title", nil), ("echo", ["n": 7, "list": [1, "two"]]), ("teleport", nil), ("relay", ["to": 5]),
                // What each asks through its context: a call, an open, a push onto its own flow.
                ("relay", ["to": ["scene": "left"], "method": "title"]), ("relay", ["to": "left-9", "method": "title"]),
                ("open", "virtual"), ("open", "nowhere"), ("push", ["screen": "page"]),
            ]
            for (method, params) in calls {
                let here = await outcome(harness.control, .instance(inProcess), method, params)
                let there = await outcome(harness.control, .instance(process), method, params)
                #expect(here == there, "\(method)")
            }
            // Unsaved edits veto an interactive close, either way.
            for id in [inProcess, process] {
                _ = try await harness.control.callScene(.instance(id), method: "edit")
                #expect(await refusal { _ = try await harness.control.dismiss(instance: id, force: false) } == .closeVetoed)
                _ = try await harness.control.callScene(.instance(id), method: "save")
                _ = try await harness.control.dismiss(instance: id, force: false)
            }
        }
    }

    @Test("a handler's own error is answered as it threw it; any other is scene_failed; one that never answers is call_timeout")
    func failures() async throws {
        let clock = LoopClock.manual()
        try await withMixedScenes(clock: clock) { harness in
            _ = try await harness.control.open("odd")
            let jammed = await outcome(harness.control, .scene("odd"), "jam")
            #expect(jammed["error"]?["code"] == -32000)
            #expect(jammed["error"]?["data"]?["reason"] == "scene_failed")
            #expect(jammed["error"]?["data"]?["detail"] == "the gears jammed")
            let refused = await outcome(harness.control, .scene("odd"), "refuse")
            #expect(refused["error"] == ["code": -32000, "message": "no paper left", "data": ["reason": "out_of_paper", "tray": 2]])
            let missing = await outcome(harness.control, .scene("odd"), "nope")
            #expect(missing["error"]?["code"] == -32601)
            let control = harness.control
            let hung = await clock.advancing(by: .seconds(1)) {
                await refusal { _ = try await control.callScene(.scene("odd"), method: "hang", timeout: 1) }
            }
            #expect(hung == .callTimeout)
            #expect(await refusal { _ = try await harness.control.callScene(.instance("odd-9"), method: "jam") } == .notOpen)
        }
    }

    @Test("a scene process calls an in-process scene as it calls a process, and the reverse")
    func processCallsInProcess() async throws {
        try await withMixedScenes { harness in
            _ = try await harness.control.open("left")
            _ = try await harness.control.open("ctl")
            let fromProcess = try await harness.control.callScene(
                .scene("ctl"), method: "relay", params: ["to": ["scene": "left"], "method": "echo", "params": ["x": 1]])
            #expect(fromProcess == ["x": 1])
            let toProcess = try await harness.control.callScene(
                .scene("left"), method: "relay", params: ["to": ["scene": "ctl"], "method": "title"])
            #expect(toProcess == ["title": "Ctl"])
        }
    }
}

@Suite("A coordinator embedded in a program")
struct EmbeddedCoordinatorTests {
    /// Records what it hears.
    actor Listener: SceneBehavior {
        let heard: Locked<[String]>
        init(_ heard: Locked<[String]>) { self.heard = heard }
        func receive(_ notification: SceneCall) async { heard.withLock { $0.append("notify \(notification.method)") } }
        func close(force: Bool) async -> Bool {
            heard.withLock { $0.append("close force=\(force)") }
            return true
        }
        func stop() async { heard.withLock { $0.append("stop") } }
    }

    @Test("a coordinator started from declarations serves its in-process scenes on the program's socket, asks its close policy, and stops them at shutdown")
    func fromDeclarations() async throws {
        try await withTemporaryFolder { folder in
            let heard = Locked<[String]>([])
            let coordinator = try await Coordinator.start(
                app: "embedded",
                declarations: [
                    SceneDeclaration(id: "listener", kind: .window, hosting: .inProcess),
                    SceneDeclaration(id: "plain", kind: .window),
                ],
                behaviors: ["listener": { @Sendable _ in Listener(heard) }],
                closePolicy: { $0.scene != "plain" },
                configuration: CoordinatorConfiguration(socketPath: folder.file("embedded.sock")))
            try await stopping(coordinator) { coordinator in
            let control = try await SceneConnection.connect(path: folder.file("embedded.sock"), client: "tests", timeout: 60)
            defer { control.close() }
            _ = try await control.open("listener")
            let plain = try await control.open("plain").instance.id
            try await control.notifyScene(.scene("listener"), method: "ding")
            #expect(await eventually { heard.withLock { $0 }.contains("notify ding") })
            #expect(await refusal { _ = try await control.dismiss(instance: plain, force: false) } == .closeVetoed)
            await coordinator.shutdown()
            #expect(heard.withLock { $0 }.suffix(2) == ["close force=true", "stop"])
            }
        }
    }
}

/// An app's own routes.
enum Page: Hashable, Codable, Sendable {
    case inbox
    case message(id: Int)
}

/// Pushes a message page onto its own flow when called `show`, typed all the way.
actor Reader: SceneBehavior {
    typealias R = Page
    let context: SceneContext<Page>

    init(_ context: SceneContext<Page>) { self.context = context }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        let id = try call.params.decode(Int.self)
        let path = try await context.send(.push(.message(id: id)))
        return ScenePayload(path.count)
    }
}

@Suite("A coordinator of an app's own routes")
struct TypedCoordinatorTests {
    @Test("a registry of an app's own route enum is served as the JSON its routes encode to; routes that do not decode are -32602")
    func typedRoutes() async throws {
        try await withTemporaryFolder { folder in
            let coordinator = try await Coordinator<Page>.start(
                app: "mail",
                declarations: [
                    SceneDeclaration(id: "reader", kind: .window, hosting: .inProcess),
                    SceneDeclaration(id: "plain", kind: .window),
                ],
                behaviors: ["reader": { @Sendable in Reader($0) }],
                configuration: CoordinatorConfiguration(socketPath: folder.file("mail.sock")))
            try await stopping(coordinator) { coordinator in
            let control = try await SceneConnection.connect(path: folder.file("mail.sock"), client: "tests", timeout: 60)
            defer { control.close() }
            let reader = try await control.open("reader").instance.id
            let (_, events) = try await control.subscribe(topics: [.flow])
            // The behaviour pushes a typed route; the wire sees its JSON.
            #expect(try await control.callScene(.instance(reader), method: "show", params: 7) == 1)
            let path = try await control.call("flow.send", params: ["instance": .string(reader), "intent": ["type": "push", "route": ["inbox": [:]]]])
            #expect(path["path"] == [["type": "push", "route": ["message": ["id": 7]]], ["type": "push", "route": ["inbox": [:]]]])
            var changes = events.makeAsyncIterator()
            #expect(await changes.next()?.params["path"] == [["type": "push", "route": ["message": ["id": 7]]]])
            let typed = try await coordinator.registry.info(InstanceID(reader)!).path
            #expect(typed == [.push(.message(id: 7)), .push(.inbox)])
            let plain = try await control.open("plain").instance.id
            let refused = await outcome(
                control, .instance(plain), "", nil,
                raw: ("flow.send", ["instance": .string(plain), "intent": ["type": "push", "route": ["screen": 3]]]))
            #expect(refused["error"]?["code"] == -32602)
            let state = try await control.state()
            #expect(state.instances.first { $0.id == reader }?.path.count == 2)
            }
        }
    }
}

@Suite("The mixed-app example")
struct MixedAppExampleTests {
    @Test("mixed-app runs its ring of in-process and process scenes, exits 0 with each answer, and leaves no temporary folder")
    func runs() async throws {
        try await withTemporaryFolder { folder in
        let child = try ChildProcess([], environment: ["TMPDIR": folder.path], executable: builtExecutable("mixed-app"))
        defer { child.kill() }
        let code = await child.wait()
        let output = child.standardOutput
        #expect(code == 0, "\(child.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        #expect(output.contains(#"answer: {"title":"Right (in process)"}"#))
        #expect(output.contains(#"answer: {"title":"Python (a process)"}"#))
        // Its typed calls: to Python by the protocol, in process → a Swift process with a
        // handed reference, and a Swift process → Python.
        #expect(output.contains("from a client → 15"))
        #expect(output.contains(#"dnotes.saved() → ["ring"]"#))
        #expect(output.contains("by the protocol → 4"))
        }
    }
}
