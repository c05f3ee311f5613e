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
            #expect(await harness.events.wait { $0.kind == .restarted && $0.params["instance"] == .string(id) } != nil)
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
            #expect(await refusal { _ = try await harness.control.restart(virtual) } == .notConnected)
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
    func start() async throws { heard.add("start") }
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
                let spawnsBefore = harness.events.all.filter { $0.kind == .spawned && $0.params["instance"] == .string(id) }.count
                kill(pid, SIGKILL)
                _ = await harness.events.wait { $0.kind == .disconnected && $0.params["instance"] == .string(id) }
                #expect(try await eventually { try await harness.instance(id)?.phase == "disconnected" })
                await clock.advance(by: .milliseconds(wait - 1))
                // Asked after the advance, on the same loop: no new process yet.
                #expect(try await harness.instance(id)?.phase == "disconnected")
                #expect(harness.events.all.filter { $0.kind == .spawned && $0.params["instance"] == .string(id) }.count == spawnsBefore)
                await clock.advance(by: .milliseconds(1))
                pid = try await harness.newPid(of: id, other: pid)
                #expect(try await eventually { try await harness.instance(id)?.phase == "active" })
            }
        }
    }
}

/// Three scenectl scene processes `g1`, `g2`, `g3` in one group of `strategy`.
private func grouped(_ strategy: String, maxRestarts: Int = 5) -> (scenes: [String], groups: [String]) {
    let scenectl = scenectlPath()
    let scenes = (1...3).map { number in
        #"{"id": "g\#(number)", "kind": "window", "instances": "single", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, "restart": {"policy": "permanent", "maxRestarts": 10, "withinSeconds": 600}}"#
    }
    return (scenes, [#"{"id": "trio", "strategy": "\#(strategy)", "scenes": ["g1", "g2", "g3"], "maxRestarts": \#(maxRestarts), "withinSeconds": 600}"#])
}

extension RestartTests {
    @Test(
        "when a grouped scene's process dies and restarts, its group's strategy restarts the others it names, keeping their paths",
        arguments: [("one_for_one", [false, true, false]), ("one_for_all", [true, true, true]), ("rest_for_one", [false, true, true])])
    func groupStrategies(strategy: String, restarted: [Bool]) async throws {
        let (scenes, groups) = grouped(strategy)
        try await withProcesses(extra: scenes, groups: groups) { harness in
            var pids: [Int32] = []
            for scene in ["g1", "g2", "g3"] {
                let id = try await harness.control.open(scene).instance.id
                _ = try await harness.control.send(.push(["screen": "kept"]), to: id)
                pids.append(try #require(harness.pid(of: id)))
            }
            kill(pids[1], SIGKILL)
            _ = try await harness.newPid(of: "g2-1", other: pids[1])
            for (index, expected) in restarted.enumerated() where expected {
                _ = try await harness.newPid(of: "g\(index + 1)-1", other: pids[index])
            }
            for (index, scene) in ["g1-1", "g2-1", "g3-1"].enumerated() {
                #expect(try await eventually { try await harness.instance(scene)?.phase == "active" })
                #expect((harness.pid(of: scene) != pids[index]) == restarted[index], "\(scene)")
                let path = try await harness.control.callScene(.instance(scene), method: "path")
                #expect(path["path"] == [["type": "push", "route": ["screen": "kept"]]])
            }
        }
    }

    @Test("a group that restarts more often than its intensity allows is dismissed whole")
    func groupIntensity() async throws {
        let (scenes, groups) = grouped("one_for_one", maxRestarts: 0)
        try await withProcesses(extra: scenes, groups: groups) { harness in
            for scene in ["g1", "g2", "g3"] { _ = try await harness.control.open(scene) }
            kill(try #require(harness.pid(of: "g1-1")), SIGKILL)
            #expect(try await eventually { try await harness.control.state().instances.allSatisfy { !$0.scene.hasPrefix("g") } })
            // The events reach the harness through a subscription: waited for, not read at once.
            #expect(await eventually {
                harness.events.all.filter { $0.kind == .dismissed && $0.params["reason"] == "restart_intensity" }.count == 3
            })
        }
    }
}

/// A behaviour that records its starts and ends with an error when called `end`.
private actor Ending: SceneBehavior {
    let heard: Heard
    let context: SceneContext<JSONValue>
    init(_ context: SceneContext<JSONValue>, heard: Heard) {
        self.context = context
        self.heard = heard
    }
    func start() async throws { heard.add("start") }
    func answer(_ call: SceneCall) async throws -> ScenePayload {
        context.end(throwing: SceneError.sceneFailed("asked to fail"))
        return .empty
    }
}

extension RestartTests {
    @Test("a group may mix a process scene and an in-process one: each one's restart after an end restarts the other")
    func mixedGroup() async throws {
        let heard = Heard()
        let scenectl = scenectlPath()
        let restart = #""restart": {"policy": "permanent", "maxRestarts": 10, "withinSeconds": 600}"#
        try await withProcesses(
            extra: [
                #"{"id": "worker", "kind": "window", "instances": "single", "launch": {"command": ["\#(scenectl)", "scene", "--quiet"]}, \#(restart)}"#,
                #"{"id": "helper", "kind": "window", "instances": "single", "in_process": true, \#(restart)}"#,
            ],
            groups: [#"{"id": "mix", "strategy": "one_for_all", "scenes": ["worker", "helper"], "maxRestarts": 10, "withinSeconds": 600}"#],
            behaviors: ["helper": { Ending($0, heard: heard) }]
        ) { harness in
            let helper = try await harness.control.open("helper").instance.id
            let worker = try await harness.control.open("worker").instance.id
            let first = try #require(harness.pid(of: worker))
            // The process dies: the behaviour restarts with it.
            kill(first, SIGKILL)
            let second = try await harness.newPid(of: worker, other: first)
            #expect(await eventually { heard.all == ["start", "start"] })
            #expect(try await eventually { try await harness.instance(helper)?.phase == "active" })
            // The behaviour fails: the process restarts with it.
            #expect(try await eventually { try await harness.instance(worker)?.phase == "active" })
            _ = try await harness.control.callScene(.instance(helper), method: "end")
            _ = try await harness.newPid(of: worker, other: second)
            #expect(await eventually { heard.all == ["start", "start", "start"] })
        }
    }
}
