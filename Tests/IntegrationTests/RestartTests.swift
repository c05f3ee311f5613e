import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneSocket
import SceneTesting
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

extension RestartTests {
    @Test("a restart after a crash waits its backoff on the coordinator's clock, growing with each crash in a row")
    func backoff() async throws {
        let clock = LoopClock.manual()
        let scenectl = scenectlPath()
        let backing = #"{"id": "backing", "kind": "window", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, "restart": {"policy": "permanent", "maxRestarts": 10, "withinSeconds": 600, "backoff": {"initial": 2, "max": 8, "factor": 2}}}"#
        try await withProcesses(extra: [backing], configure: { $0.clock = clock }) { harness in
            let id = try await harness.control.open("backing").instance.id
            var pid = try #require(harness.pid(of: id))
            for wait in [2000, 4000] {
                let spawnsBefore = harness.events.all.filter { $0.type == "scene.spawned" && $0.params["instance"] == .string(id) }.count
                kill(pid, SIGKILL)
                _ = await harness.events.wait { $0.type == "scene.disconnected" && $0.params["instance"] == .string(id) }
                #expect(try await eventually { try await harness.instance(id)?.phase == "disconnected" })
                await clock.advance(by: .milliseconds(wait - 1))
                // Asked after the advance, on the same loop: no new process yet.
                #expect(try await harness.instance(id)?.phase == "disconnected")
                #expect(harness.events.all.filter { $0.type == "scene.spawned" && $0.params["instance"] == .string(id) }.count == spawnsBefore)
                await clock.advance(by: .milliseconds(1))
                pid = try await harness.newPid(of: id, other: pid)
                #expect(try await eventually { try await harness.instance(id)?.phase == "active" })
            }
        }
    }
}
