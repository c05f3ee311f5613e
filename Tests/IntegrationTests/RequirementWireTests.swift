import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneSync
import SceneWire
import Testing

@Suite("Requirements and sessions over the wire")
struct RequirementWireTests {
    @Test("a scene dismissing itself is not asked, but the scenes that require it are: one that refuses fails it close_vetoed, unless forced")
    func sceneClosingItself() async throws {
        let python = repositoryRoot.appendingPathComponent("Examples/python-scene/scene.py").path
        let needy = #"{"id": "needy", "kind": "window", "requires": ["puppet"], "launch": {"command": ["python3", "\#(python)", "--title", "Needy", "--quiet"]}}"#
        try await withProcesses(extra: [needy], configure: patientClose) { harness in
            let asked = Locked<[String]>([])
            let puppet = try await harness.puppet { message in
                asked.withLock { $0.append(message.method) }
                return .success([:])
            }
            let dependent = try await harness.control.open("needy").instance.id
            _ = try await harness.control.callScene(.instance(dependent), method: "edit")  // unsaved: it refuses to close
            #expect(await refusal { _ = try await puppet.scene.dismiss(instance: puppet.id) } == .closeVetoed)
            #expect(!asked.withLock { $0 }.contains("scene.close"))
            #expect(try await harness.instance(dependent)?.phase == "active")
            let gone = try await puppet.scene.dismiss(instance: puppet.id, force: true)
            #expect(gone == [dependent, puppet.id])
            // The events reach the harness through a subscription: waited for, not read at once.
            let dismissed = await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(dependent) }
            #expect(dismissed?.params["reason"] == "requirement_dismissed")
        }
    }

    @Test("session.save and session.list are answered in their turn: a save taken after an open still opening includes it, and a list after it names it")
    func sessionRequestsInTurn() async throws {
        try await withProcesses(configure: { configuration in
            configuration.stateFile = URL(fileURLWithPath: configuration.socketPath).deletingLastPathComponent().path + "/state.json"
        }) { harness in
            let raw = try RawClient(path: harness.path)
            try await raw.hello()
            // All three at once: the open waits for its process's hello.
            try await raw.writeFrame(#"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":"ctl"}}"#)
            try await raw.writeFrame(#"{"jsonrpc":"2.0","id":2,"method":"session.save","params":{"name":"turn"}}"#)
            try await raw.writeFrame(#"{"jsonrpc":"2.0","id":3,"method":"session.list","params":{}}"#)
            var answers: [JSONValue] = []
            for _ in 0..<3 { answers.append(try await raw.readMessage(timeout: .seconds(30))) }
            #expect(answers.map { $0["id"] } == [1, 2, 3])
            #expect(answers[0]["result"]?["instance"]?["phase"] == "active")
            #expect(answers[2]["result"]?["sessions"] == ["turn"])
            let file = URL(fileURLWithPath: harness.path).deletingLastPathComponent().appendingPathComponent("state.json.sessions/turn.json")
            let saved = try JSONParser.parse([UInt8](Data(contentsOf: file)))
            let instances = saved["snapshot"]?["instances"]?.arrayValue ?? []
            #expect(instances.map { $0["id"] } == ["ctl-1"])
            #expect(instances.first?["phase"] == "active")
            #expect(saved["snapshot"]?["closed"] == nil)
        }
    }
}
