import Distributed
import Foundation
import NotebookScene
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneTesting
import SceneWire
import Testing

/// Distributed notebooks: two kinds of scene process (the second declares an interface
/// that allows only small counts), and one in process.
private func distributedScenes() -> [String] {
    let notebook = #"["\#(builtExecutable("swift-scene"))", "--distributed", "--title", "Distributed"]"#
    let strict = #"{"methods": {"save(draft:count:)": {"params": {"type": "object", "required": ["draft", "count"], "properties": {"count": {"enum": [1, 2, 3]}}}}}}"#
    return [
        #"{"id": "dnotes", "kind": "window", "instances": "multiple", "activatable": true, "launch": {"command": \#(notebook)}}"#,
        #"{"id": "dstrict", "kind": "window", "launch": {"command": \#(notebook)}, "interface": \#(strict)}"#,
        #"{"id": "inotes", "kind": "window", "instances": "multiple", "in_process": true}"#,
    ]
}

private let inProcess: [String: SceneBehaviorFactory<JSONValue>] = [
    "inotes": NotebookActor.behavior { NotebookActor(title: "In process", context: $0) }
]

private func withNotebooks<T>(configure: (inout CoordinatorConfiguration) -> Void = { _ in }, _ body: (ProcessHarness) async throws -> T)
    async throws -> T
{
    try await withProcesses(extra: distributedScenes(), behaviors: inProcess, configure: configure, body)
}

/// The `SceneError` a typed call threw.
private func thrown(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> SceneError? {
    do {
        try await body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch let error as SceneError {
        return error
    } catch {
        Issue.record("not a SceneError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite("Scenes as distributed actors across processes: typed calls are scene.calls")
struct DistributedWireTests {
    @Test("a control client's typed call opens an activatable process scene and is answered by its distributed actor")
    func clientToProcess() async throws {
        try await withNotebooks { harness in
            let system = harness.control.actorSystem
            let notes = try NotebookActor.resolve(id: .scene("dnotes"), using: system)
            #expect(try await notes.save(draft: "hello", count: 2) == 10)
            #expect(try await notes.title() == "Distributed")
            #expect(try await notes.saved() == ["hello"])
            #expect(try await harness.instance("dnotes-1")?.phase == "active")
        }
    }

    @Test("a process scene calls another process scene through the coordinator, with a reference it was handed")
    func processToProcess() async throws {
        try await withNotebooks { harness in
            let system = harness.control.actorSystem
            _ = try await harness.control.open("dnotes")
            _ = try await harness.control.open("dnotes")
            try await harness.test.waitUntilActive("dnotes-1")
            try await harness.test.waitUntilActive("dnotes-2")
            let first = try NotebookActor.resolve(id: .instance(InstanceID("dnotes-1")!), using: system)
            let second = try NotebookActor.resolve(id: .instance(InstanceID("dnotes-2")!), using: system)
            #expect(try await first.relay(to: second, draft: "across") == 6)
            #expect(try await second.saved() == ["across"])
            #expect(try await first.saved() == [])
            // A reference returned from another process is resolved here, and callable.
            let returned = try await second.itself()
            #expect(returned.id == .instance(InstanceID("dnotes-2")!))
            #expect(try await returned.title() == "Distributed")
        }
    }

    @Test("an in-process scene and a process scene call each other with typed calls")
    func inProcessAndProcess() async throws {
        try await withNotebooks { harness in
            let system = harness.control.actorSystem
            _ = try await harness.control.open("inotes")
            let inside = try NotebookActor.resolve(id: .scene("inotes"), using: system)
            let outside = try NotebookActor.resolve(id: .scene("dnotes"), using: system)
            #expect(try await inside.title() == "In process")
            // In process → process: the in-process actor calls the process through the registry.
            #expect(try await inside.relay(to: outside, draft: "out") == 3)
            #expect(try await outside.saved() == ["out"])
            // Process → in process: the process calls back over its connection.
            #expect(try await outside.relay(to: inside, draft: "back") == 4)
            #expect(try await inside.saved() == ["back"])
            // The embedding program's own system reaches both.
            let local = try NotebookActor.resolve(id: .scene("dnotes"), using: harness.coordinator.registry.actorSystem)
            #expect(try await local.saved() == ["out"])
        }
    }

    @Test("a @Resolvable protocol is answered by a Swift scene process and by the Python scene, which the caller cannot tell apart")
    func resolvableAcrossLanguages() async throws {
        try await withNotebooks { harness in
            let system = harness.control.actorSystem
            _ = try await harness.control.open("py")
            try await harness.test.waitUntilActive("py-1")
            let python = try $NotebookService.resolve(id: .scene("py"), using: system)
            #expect(try await python.save(draft: "snake", count: 3) == 15)
            #expect(try await python.title() == "Python")
            let swift = try $NotebookService.resolve(id: .scene("dnotes"), using: system)
            #expect(try await swift.save(draft: "swift", count: 3) == 15)
            // A Swift scene calls the Python one by the protocol, too.
            let notes = try NotebookActor.resolve(id: .scene("dnotes"), using: system)
            #expect(try await notes.relay(toService: .scene("py"), draft: "hiss") == 4)
        }
    }

    @Test("a scene's SceneError reaches a remote caller as thrown; any other error is scene_failed")
    func thrownAcrossTheWire() async throws {
        try await withNotebooks { harness in
            let notes = try NotebookActor.resolve(id: .scene("dnotes"), using: harness.control.actorSystem)
            let own = await thrown { _ = try await notes.refuse(reason: "no_ink") }
            #expect(own?.reason == "no_ink")
            #expect(own?.message == "the notebook refuses")
            let other = await thrown { _ = try await notes.fail() }
            #expect(other?.reason == .sceneFailed)
        }
    }

    @Test("typed calls to an unknown scene, a closed instance or a virtual scene are the wire's errors")
    func wireErrors() async throws {
        try await withNotebooks { harness in
            let system = harness.control.actorSystem
            let unknown = await thrown { _ = try await NotebookActor.resolve(id: .scene("nowhere"), using: system).title() }
            #expect(unknown?.reason == .unknownScene)
            let closed = await thrown { _ = try await NotebookActor.resolve(id: .instance(InstanceID("dnotes-9")!), using: system).title() }
            #expect(closed?.reason == .notOpen)
            _ = try await harness.control.open("virtual")
            let virtual = await thrown { _ = try await NotebookActor.resolve(id: .scene("virtual"), using: system).title() }
            #expect(virtual?.reason == .notConnected)
        }
    }

    @Test("a typed call not answered in time is call_timeout; one whose instance is dismissed meanwhile is not_connected")
    func timeoutAndDismissal() async throws {
        try await withNotebooks(configure: { $0.callTimeout = .seconds(1) }) { harness in
            let notes = try NotebookActor.resolve(id: .scene("dnotes"), using: harness.control.actorSystem)
            let late = await thrown { _ = try await notes.hang(seconds: 30) }
            #expect(late?.reason == .callTimeout)
            #expect(late?.data["method"] == "hang(seconds:)")
        }
        try await withNotebooks { harness in
            let notes = try NotebookActor.resolve(id: .scene("dnotes"), using: harness.control.actorSystem)
            async let call = thrown { _ = try await notes.hang(seconds: 30) }
            let hanging = await harness.events.wait { $0.type == "signal.emitted" && $0.params["signal"] == "hanging" }
            #expect(hanging != nil)
            _ = try await harness.control.dismiss(instance: "dnotes-1", force: true)
            #expect(await call?.reason == .notConnected)
        }
    }

    @Test("a declared interface refuses a typed call that breaks its schema before the scene runs; bad params in JSON are -32602")
    func interfaceAndBadParams() async throws {
        try await withNotebooks { harness in
            _ = try await harness.control.open("dstrict")
            try await harness.test.waitUntilActive("dstrict-1")
            let strict = try NotebookActor.resolve(id: .scene("dstrict"), using: harness.control.actorSystem)
            let bad = await thrown { _ = try await strict.save(draft: "big", count: 7) }
            #expect(bad?.code == -32602)
            #expect(bad?.data["path"] == "params.count")
            let undeclared = await thrown { _ = try await strict.title() }
            #expect(undeclared?.code == -32601)
            #expect(try await strict.save(draft: "ok", count: 2) == 4)
            // A caller in JSON whose argument does not decode: the scene answers -32602.
            _ = try await harness.control.open("dnotes")
            try await harness.test.waitUntilActive("dnotes-1")
            let wrong = await remote {
                _ = try await harness.control.callScene(.scene("dnotes"), method: "save(draft:count:)", params: ["draft": 5, "count": 1])
            }
            #expect(wrong?.code == -32602)
        }
    }
}
