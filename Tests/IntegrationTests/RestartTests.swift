import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneSync
import SceneWire
import Testing

@Suite("Restarting a scene on purpose")
struct RestartTests {
    @Test("scene.restart stops a scene's process and starts a new one at once, the path kept, whatever its restart policy")
    func restartProcess() async throws {
        try await withProcesses { harness in
            // A temporary scene is never restarted after an end: a restart asked for still is.
            let id = try await harness.control.open("temp").instance.id
            _ = try await harness.control.send(.push(["screen": "draft"]), to: id)
            let old = try #require(harness.pid(of: id))
            let answered = try await harness.control.restart(id)
            #expect(answered.id == id)
            let new = try await harness.newPid(of: id, other: old)
            #expect(new != old)
            #expect(await harness.events.wait { $0.type == "scene.restarted" && $0.params["instance"] == .string(id) } != nil)
            #expect(await eventually { kill(old, 0) != 0 })
            let path = try await harness.control.callScene(.instance(id), method: "path")
            #expect(path["path"] == [["type": "push", "route": ["screen": "draft"]]])
            #expect(try await harness.instance(id)?.phase == "active")
        }
    }

    @Test("scene.restart of an in-process scene stops its behaviour and starts a new one; a virtual instance is not_connected")
    func restartInProcess() async throws {
        let heard = Heard()
        try await withProcesses(
            extra: [#"{"id": "inproc", "kind": "window", "in_process": true}"#],
            behaviors: ["inproc": { _ in Echo(heard: heard) }]
        ) { harness in
            let id = try await harness.control.open("inproc").instance.id
            _ = try await harness.control.restart(id)
            #expect(heard.all == ["start", "stop", "start"])
            #expect(try await harness.control.callScene(.instance(id), method: "ping") == ["pong": true])
            let virtual = try await harness.control.open("virtual").instance.id
            #expect(await refusal { _ = try await harness.control.restart(virtual) } == "not_connected")
        }
    }
}

/// What a behaviour heard, in order.
private final class Heard: Sendable {
    private let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A behaviour that records its start and stop and answers `ping`.
private actor Echo: SceneBehavior {
    let heard: Heard
    init(heard: Heard) { self.heard = heard }
    func start(in context: SceneContext<JSONValue>) async throws { heard.add("start") }
    func stop() async { heard.add("stop") }
    func answer(_ call: SceneCall) async throws -> ScenePayload { ScenePayload(json: ["pong": true]) }
}
