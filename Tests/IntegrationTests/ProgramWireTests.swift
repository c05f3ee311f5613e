import SceneClient
import SceneCore
import SceneJSON
import SceneTesting
import SceneWire
import Testing

@Suite("Programs over the wire")
struct ProgramWireTests {
    @Test("a program waits for a step's scene process to start, then runs the steps after it")
    func waitsForProcess() async throws {
        try await withProcesses { harness in
            let result = try await harness.control.program([.open(scene: "ctl", value: nil), .send(.push("page"), to: .step(0))])
            #expect(result.completed == 2)
            #expect(result.results[0]["instance"]?["phase"] == "active")
            #expect(result.results[1]["path"] == [["type": "push", "route": "page"]])
        }
    }

    @Test("a failing step's error carries its index and the results before it; those steps stay applied")
    func failureData() async throws {
        try await withProcesses { harness in
            do {
                try await harness.control.program([.open(scene: "virtual", value: nil), .open(scene: "nope", value: nil)])
                Issue.record("the program must fail at step 1")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .unknownScene)
                #expect(wire.data["step"] == 1)
                #expect(wire.data["results"]?.arrayValue?.count == 1)
            }
            #expect(try await harness.instance("virtual-1") != nil)
        }
    }

    @Test("a scene's program is scoped as its requests are: its own instance by default; a forbidden step refuses the program before it runs")
    func sceneScoped() async throws {
        try await withProcesses { harness in
            let puppet = try await harness.puppet()
            defer { puppet.scene.close() }
            // Written as JSON: a step that leaves out its instance, which a scene's own is.
            let own = try await puppet.scene.call(
                WireCalls.sceneProgram, ProgramParams(steps: [["method": "flow.send", "params": ["intent": ["type": "push", "route": "a"]]]]))
            #expect(own.results[0]["path"] == [["type": "push", "route": "a"]])
            #expect(await refusal {
                try await puppet.scene.program([.open(scene: "virtual", value: nil), .focus(.step(0))])
            } == .forbidden)
            #expect(try await harness.instance("virtual-1") == nil)
        }
    }
}
