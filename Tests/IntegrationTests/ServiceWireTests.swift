import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneSync
import SceneWire
import Testing

/// The interface the process tests' services declare.
private let serviceInterface = #"""
    "interface": {"methods": {"title": {}, "save": {}, "edit": {}, "find": {"params": {"type": "object", "required": ["doc"], "properties": {"doc": {"type": "string"}}}, "result": {"type": "object"}}},
                  "signals": {"saved": {"payload": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}}}}
    """#

private func services() -> [String] {
    let python = repositoryRoot.appendingPathComponent("Examples/python-scene/scene.py").path
    return [
        #"{"id": "pysvc", "kind": "window", "activatable": true, "launch": {"command": ["python3", "\#(python)", "--title", "Service", "--quiet"]}, \#(serviceInterface)}"#,
        #"{"id": "ipuppet", "kind": "window", "launch": {"command": ["sleep", "120"], "timeout": 60}, \#(serviceInterface)}"#,
        #"{"id": "gone", "kind": "window", "activatable": true, "launch": {"command": ["/nonexistent/scene-binary"]}}"#,
    ]
}

@Suite("Scenes as services over the wire: activation, interfaces, signals")
struct ServiceWireTests {
    @Test("a call to an activatable process scene with none open opens one, and its process answers once it is active")
    func activation() async throws {
        try await withProcesses(extra: services()) { harness in
            let answer = try await harness.control.callScene(.scene("pysvc"), method: "title")
            #expect(answer["title"] == "Service")
            #expect(try await harness.instance("pysvc-1")?.phase == "active")
        }
    }

    @Test("two concurrent first calls to an activatable scene open one instance, and both are answered by it")
    func concurrentActivation() async throws {
        try await withProcesses(extra: services()) { harness in
            let first = try await SceneConnection.connect(path: harness.path, client: "first", timeout: 30)
            let second = try await SceneConnection.connect(path: harness.path, client: "second", timeout: 30)
            defer { first.close(); second.close() }
            async let a = first.callScene(.scene("pysvc"), method: "title")
            async let b = second.callScene(.scene("pysvc"), method: "title")
            let (one, two) = try await (a, b)
            #expect(one["title"] == "Service" && two["title"] == "Service")
            let instances = try await harness.control.state().instances
            // The events reach the harness through a subscription: the first is waited for.
            _ = await harness.events.wait { $0.kind == .opened && $0.params["instance"]?["scene"] == "pysvc" }
            let opened = harness.events.all.filter { $0.kind == .opened && $0.params["instance"]?["scene"] == "pysvc" }
            #expect(opened.count == 1)
            #expect(instances.filter { $0.scene == "pysvc" }.count == 1)
        }
    }

    @Test("an activation whose launch fails answers the call with the launch's reason; without activatable the call is not_open")
    func failedActivation() async throws {
        try await withProcesses(extra: services()) { harness in
            let failed = await remote { _ = try await harness.control.callScene(.scene("gone"), method: "title") }
            #expect(failed?.reason == .launchFailed)
            let closed = await remote { _ = try await harness.control.callScene(.scene("py"), method: "title") }
            #expect(closed?.reason == .notOpen)
            let instances = try await harness.control.state().instances
            #expect(instances.filter { $0.scene == "py" || $0.scene == "gone" }.isEmpty)
        }
    }

    @Test("an undeclared method is -32601 and params that break the schema -32602 with their path, from the coordinator, never reaching the scene")
    func interfaceChecks() async throws {
        try await withProcesses(extra: services()) { harness in
            let reached = Locked<[String]>([])
            let (id, _, scene) = try await harness.puppet(of: "ipuppet") { message in
                if !message.method.hasPrefix("scene.") { reached.withLock { $0.append(message.method) } }
                return .success(["ok": true])
            }
            defer { scene.close() }
            let undeclared = await remote { _ = try await harness.control.callScene(.instance(id), method: "erase") }
            #expect(undeclared?.code == -32601)
            #expect(undeclared?.data["method"] == "erase")
            let broken = await remote { _ = try await harness.control.callScene(.instance(id), method: "find", params: ["doc": 7]) }
            #expect(broken?.code == -32602)
            #expect(broken?.data["path"] == "params.doc")
            let missing = await remote { try await harness.control.notifyScene(.instance(id), method: "find", params: [:]) }
            #expect(missing?.code == -32602)
            #expect(try await harness.control.callScene(.instance(id), method: "find", params: ["doc": "7"]) == ["ok": true])
            #expect(reached.withLock { $0 } == ["find"])
        }
    }

    @Test("a scene's declared signal reaches signal subscribers as signal.emitted; an undeclared one is unknown_signal; a bad payload -32602")
    func signals() async throws {
        try await withProcesses(extra: services()) { harness in
            let (id, _, scene) = try await harness.puppet(of: "ipuppet")
            defer { scene.close() }
            let listener = try await SceneConnection.connect(path: harness.path, client: "listener", timeout: 20)
            defer { listener.close() }
            let (_, events) = try await listener.subscribe(EventFilter(topics: [.signal]))
            let watchdog = deadline(closing: listener)
            defer { watchdog.cancel() }
            try await scene.emit("saved", payload: ["title": "Draft"])
            #expect(await remote { try await scene.emit("printed") }?.reason == .unknownSignal)
            let broken = await remote { try await scene.emit("saved", payload: ["title": 3]) }
            #expect(broken?.code == -32602)
            #expect(broken?.data["path"] == "payload.title")
            #expect(await remote { try await scene.emit("saved", payload: ["title": "x"], instance: "pysvc-9") }?.reason == .forbidden)
            var iterator = events.makeAsyncIterator()
            let signal = try #require(await iterator.next()?.signal)
            #expect(signal.instance == id && signal.scene == "ipuppet" && signal.signal == "saved")
            #expect(try signal.payload(as: [String: String].self) == ["title": "Draft"])
        }
    }

    @Test("the Python example scene announces a save as the signal saved")
    func pythonSignal() async throws {
        try await withProcesses { harness in
            let id = try await harness.control.open("py").instance.id
            _ = try await harness.control.callScene(.instance(id), method: "save")
            let event = await harness.events.wait { $0.kind == .signalEmitted && $0.params["instance"] == .string(id) }
            #expect(event?.signal?.signal == "saved")
            #expect(event?.signal?.payload == ["title": "Python"])
        }
    }

    @Test("scene.describe answers the declared interface, kind, instances, max and activation; an unknown scene is unknown_scene")
    func describe() async throws {
        try await withProcesses(extra: services()) { harness in
            let described = try await harness.control.describe("pysvc")
            let declared = try JSONParser.parse(Array("{\(serviceInterface)}".utf8))["interface"]
            #expect(described.interface == declared)
            #expect(described.kind == "window" && described.instances == "multiple" && described.max == nil && described.activatable)
            let plain = try await harness.control.describe("virtual")
            #expect(plain.interface == .null && plain.instances == "single" && plain.max == 1 && !plain.activatable)
            #expect(await remote { _ = try await harness.control.describe("nowhere") }?.reason == .unknownScene)
        }
    }
}
