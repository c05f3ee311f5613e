import SceneClient
import SceneJSON
import SceneSync
import SceneTesting
import SceneWire
import Testing

@Suite("Presenting over the wire")
struct PresentWireTests {
    @Test("a scene process presented from an instance finishes itself; the presenter gets its result, on a connection that went on meanwhile")
    func processFinishes() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("virtual")
            let control = harness.control
            let presenting = Task { try await control.present("puppet", from: "virtual-1") }
            let puppet = try await harness.puppet(opening: false)
            defer { puppet.scene.close() }
            // The control connection is not held by the waiting present.
            try await control.ping()
            _ = try await control.send(.push("still-served"), to: "virtual-1")
            try await puppet.scene.finish(result: ["picked": "blue"])
            let result = try await presenting.value
            #expect(result.instance.id == puppet.id)
            #expect(result.result == ["picked": "blue"])
            let finished = await harness.events.wait { $0.kind == .finished }
            #expect(finished?.params["result"] == ["picked": "blue"])
            #expect(await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(puppet.id) } != nil)
        }
    }

    @Test("a presented process is told scene.parent_dismissed when its presenter goes first, then dismissed; the wait ends parent_dismissed")
    func parentDismissed() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("virtual")
            let told = Locked(false)
            let control = harness.control
            let presenting = Task { try await control.present("puppet", from: "virtual-1") }
            let puppet = try await harness.puppet(opening: false) { message in
                if message.method == "scene.parent_dismissed" { told.withLock { $0 = true } }
                return .success([:])
            }
            defer { puppet.scene.close() }
            _ = try await control.dismiss(instance: "virtual-1")
            #expect(await refusal { _ = try await presenting.value } == .parentDismissed)
            #expect(await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(puppet.id) }?.params["reason"] == "parent_dismissed")
            #expect(told.withLock { $0 })
        }
    }

    @Test("a finish for an instance nobody presented is not_presented; a scene may finish only itself")
    func finishRefusals() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("virtual")
            #expect(await refusal { try await harness.control.finish("virtual-1", result: 1) } == .notPresented)
            let puppet = try await harness.puppet()
            defer { puppet.scene.close() }
            #expect(await refusal { try await puppet.scene.finish("virtual-1", result: 1) } == .forbidden)
            #expect(await refusal { try await puppet.scene.finish(result: 1) } == .notPresented)
        }
    }
}
