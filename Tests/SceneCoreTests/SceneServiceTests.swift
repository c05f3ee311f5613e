import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import Testing

/// A scene that records the calls that reach it, emits what it is asked to, and may fail
/// to start.
private actor Service: SceneBehavior {
    typealias R = Screen
    let heard: Heard
    let failsToStart: Bool
    let context: SceneContext<Screen>

    init(_ context: SceneContext<Screen>, heard: Heard, failsToStart: Bool = false) {
        self.context = context
        self.heard = heard
        self.failsToStart = failsToStart
    }

    func start() async throws {
        struct CannotStart: Error {}
        if failsToStart { throw CannotStart() }
    }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        heard.add("call \(call.method)")
        switch call.method {
        case "emit":
            let json = try call.params.json()
            try await context.emit(json["signal"]?.stringValue ?? "", payload: json["payload"])
            return .empty
        case "relay":
            // Calls another instance through this behaviour's context, as the params say.
            let json = try call.params.json()
            let target = InstanceID(json["to"]?.stringValue ?? "")!
            let timeout = json["timeout"]?.doubleValue.map { Duration.milliseconds(Int64($0 * 1000)) }
            return try await context.call(
                .instance(target), json["method"]?.stringValue ?? "", params: ScenePayload(json: json["params"] ?? [:]),
                timeout: timeout)
        default:
            return ScenePayload(json: ["instance": .string(context.instance.description)])
        }
    }

    func receive(_ notification: SceneCall) async { heard.add("notify \(notification.method)") }
}

private let interface: SceneInterface = {
    let json: JSONValue = [
        "methods": [
            "whoami": [:], "emit": [:],
            "find": ["params": ["type": "object", "required": ["doc"], "properties": ["doc": ["type": "string"]]]],
        ],
        "signals": ["saved": ["payload": ["type": "object", "required": ["doc"], "properties": ["doc": ["type": "string"]]]]],
    ]
    return try! SceneInterface(json: json)
}()

private func serviceRegistry(heard: Heard, failsToStart: Bool = false) throws -> SceneRegistry<Screen> {
    try SceneRegistry<Screen>(
        app: "services",
        declarations: [
            SceneDeclaration(id: "svc", kind: .window, hosting: .inProcess, activatable: true, interface: interface),
            SceneDeclaration(id: "free", kind: .window, hosting: .inProcess),
            SceneDeclaration(id: "broken", kind: .window, hosting: .inProcess, restart: RestartPolicy(mode: .temporary), activatable: true),
        ],
        behaviors: [
            "svc": { Service($0, heard: heard) }, "free": { Service($0, heard: heard) },
            "broken": { Service($0, heard: heard, failsToStart: true) },
        ])
}

private func failure(_ body: () async throws(SceneError) -> Void) async -> SceneError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

@Suite("Scenes as services in process: activation, interfaces, signals, describe")
struct SceneServiceTests {
    @Test("a call to an activatable scene with no open instance opens one, and that instance answers it")
    func activation() async throws {
        let registry = try serviceRegistry(heard: Heard())
        let answer = try await registry.call(SceneCall(method: "whoami"), to: .scene("svc")).json()
        #expect(answer["instance"] == "svc-1")
        #expect(await registry.instances(of: "svc") == [InstanceID(scene: "svc", number: 1)])
    }

    @Test("concurrent first calls to an activatable scene open one instance, though its policy allows many")
    func concurrentActivation() async throws {
        let registry = try serviceRegistry(heard: Heard())
        let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<12 { group.addTask { try await registry.call(SceneCall(method: "whoami"), to: .scene("svc")).json() } }
            return try await group.reduce(into: [JSONValue]()) { $0.append($1) }
        }
        #expect(Set(answers.compactMap { $0["instance"]?.stringValue }) == ["svc-1"])
        #expect(await registry.instances(of: "svc").count == 1)
    }

    @Test("a call to a scene that is not activatable, with none open, stays not_open")
    func notActivatable() async throws {
        let registry = try serviceRegistry(heard: Heard())
        let error = await failure { () throws(SceneError) in _ = try await registry.call(SceneCall(method: "whoami"), to: .scene("free")) }
        #expect(error?.reason == .notOpen)
        #expect(await registry.instances(of: "free").isEmpty)
    }

    @Test("an activation whose start fails answers the call with the start's reason")
    func failedActivation() async throws {
        let registry = try serviceRegistry(heard: Heard())
        let error = await failure { () throws(SceneError) in _ = try await registry.call(SceneCall(method: "whoami"), to: .scene("broken")) }
        #expect(error?.reason == .launchFailed)
        #expect(await registry.instances(of: "broken").isEmpty)
    }

    @Test("a method the interface does not declare is -32601, params that break it -32602 with the path; neither reaches the scene")
    func interfaceChecks() async throws {
        let heard = Heard()
        let registry = try serviceRegistry(heard: heard)
        let id = try await registry.open("svc").instance.id
        let undeclared = await failure { () throws(SceneError) in _ = try await registry.call(SceneCall(method: "erase"), to: .instance(id)) }
        #expect(undeclared?.code == -32601)
        #expect(undeclared?.data["method"] == "erase")
        let wrong = await failure { () throws(SceneError) in
            _ = try await registry.call(SceneCall(method: "find", params: ScenePayload(json: ["doc": 7])), to: .instance(id))
        }
        #expect(wrong?.code == -32602)
        #expect(wrong?.data["path"] == "params.doc")
        let unnotified = await failure { () throws(SceneError) in try await registry.notify(SceneCall(method: "erase"), to: .instance(id)) }
        #expect(unnotified?.code == -32601)
        _ = try await registry.call(SceneCall(method: "find", params: ScenePayload(json: ["doc": "7"])), to: .instance(id))
        #expect(heard.all == ["call find"])
    }

    @Test("a behaviour's call through its context is admitted as the registry's own: the target's interface, reserved names and the timeout's range refuse it before it reaches the target")
    func contextCallsAreAdmitted() async throws {
        let heard = Heard()
        let registry = try serviceRegistry(heard: heard)
        let svc = try await registry.open("svc").instance.id
        let caller = try await registry.open("free").instance.id
        func relay(_ params: JSONValue) async -> Result<JSONValue, SceneError> {
            do throws(SceneError) {
                return .success(try await registry.call(SceneCall(method: "relay", params: ScenePayload(json: params)), to: .instance(caller)).json())
            } catch {
                return .failure(error)
            }
        }
        func refusal(_ params: JSONValue) async -> SceneError? {
            if case .failure(let error) = await relay(params) { return error }
            return nil
        }
        let to = JSONValue.string(svc.description)
        #expect(await refusal(["to": to, "method": "erase"])?.code == -32601)
        #expect(await refusal(["to": to, "method": "find", "params": ["doc": 7]])?.data["path"] == "params.doc")
        #expect(await refusal(["to": to, "method": "scene.close"])?.reason == .reservedMethod)
        #expect(await refusal(["to": to, "method": "whoami", "timeout": 0])?.code == -32602)
        #expect(await refusal(["to": to, "method": "whoami", "timeout": 3601])?.code == -32602)
        #expect(heard.all == Array(repeating: "call relay", count: 5))
        let answer = try await relay(["to": to, "method": "find", "params": ["doc": "7"]]).get()
        #expect(answer["instance"] == to)
        #expect(heard.all.last == "call find")
    }

    @Test("a declared signal is a signal.emitted event; an undeclared one is unknown_signal, a payload that breaks its schema -32602, with no event")
    func signals() async throws {
        let registry = try serviceRegistry(heard: Heard())
        let id = try await registry.open("svc").instance.id
        let (start, events) = registry.subscribe(buffering: .unbounded)
        func emit(_ signal: String, _ payload: JSONValue) async -> SceneError? {
            await failure { () throws(SceneError) in
                _ = try await registry.call(SceneCall(method: "emit", params: ScenePayload(json: ["signal": .string(signal), "payload": payload])), to: .instance(id))
            }
        }
        #expect(await emit("saved", ["doc": "a"]) == nil)
        #expect(await emit("printed", ["doc": "a"])?.reason == .unknownSignal)
        let broken = await emit("saved", ["doc": 1])
        #expect(broken?.code == -32602)
        #expect(broken?.data["path"] == "payload.doc")
        var seen: [RegistryEvent<Screen>] = []
        for await event in events {
            seen.append(event.event)
            if seen.count == 2 { break }
        }
        #expect(seen == [
            .signalEmitted(id, signal: "saved", payload: ["doc": "a"]),
            .requestRejected(request: "scene.emit", reason: .unknownSignal(scene: "svc", signal: "printed")),
        ])
        #expect(registry.sequence == start + 2)
    }

    @Test("a scene without an interface may emit any signal; a closed instance may not")
    func freeSignals() async throws {
        let registry = try serviceRegistry(heard: Heard())
        let id = try await registry.open("free").instance.id
        try await registry.emit("anything", payload: nil, from: id)
        _ = try await registry.dismiss(id, force: true)
        let closed = await failure { () throws(SceneError) in try await registry.emit("anything", payload: nil, from: id) }
        #expect(closed?.reason == .notOpen)
    }

    @Test("describe answers the declaration: kind, instances, max, activation and interface; an unknown scene is unknown_scene")
    func describe() throws {
        let registry = try serviceRegistry(heard: Heard())
        let description = try registry.describe("svc")
        #expect(description.kind == .window)
        #expect(description.instances == .multiple(max: nil))
        #expect(description.max == nil)
        #expect(description.activatable)
        #expect(description.interface == interface)
        #expect(try registry.describe("free").interface == nil)
        #expect(throws: RegistryRejection.unknownScene("nowhere")) { try registry.describe("nowhere") }
    }
}
