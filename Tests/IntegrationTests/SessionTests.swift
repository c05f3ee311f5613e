import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneWire
import Testing

private func stateBeside(_ configuration: inout CoordinatorConfiguration) {
    configuration.stateFile = URL(fileURLWithPath: configuration.socketPath).deletingLastPathComponent().path + "/state.json"
}

@Suite("Sessions: saving and loading sets of open instances")
struct SessionTests {
    @Test("a saved session loads back its instances with their values, paths and focus, in place of what is open; list and delete")
    func roundTrip() async throws {
        try await withServer(configure: stateBeside) { server in
            let client = try await server.connect()
            _ = try await client.open("main")
            let viewer = try await client.open("viewer", value: "7").instance.id
            _ = try await client.send(.push(["screen": "page"]), to: viewer)
            _ = try await client.open("notes")
            _ = try await client.focus(viewer)
            try await client.saveSession("work")
            #expect(FileManager.default.fileExists(atPath: server.folder.file("run/state.json.sessions/work.json")))
            _ = try await client.dismiss(scene: "notes")
            _ = try await client.open("globe")

            let opened = try await client.loadSession("work")
            let state = try await client.state()
            #expect(Set(state.instances.map(\.id)) == Set(opened))
            #expect(state.instances.map(\.scene).sorted() == ["main", "notes", "viewer"])
            let loadedViewer = try #require(state.instances.first { $0.scene == "viewer" })
            #expect(loadedViewer.value == "7" && loadedViewer.path == [.push(["screen": "page"])])
            #expect(state.focused == loadedViewer.id)

            #expect(try await client.sessions() == ["work"])
            try await client.deleteSession("work")
            #expect(try await client.sessions().isEmpty)
            #expect(await refusal { try await client.deleteSession("work") } == .unknownSession)
            #expect(await refusal { _ = try await client.loadSession("work") } == .unknownSession)
            do {
                try await client.saveSession("no/slash")
                Issue.record("a name with a slash was saved")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.code == -32602)
            }
        }
    }

    @Test("a load that an open instance refuses to close fails close_vetoed and changes nothing; force loads it anyway")
    func vetoedLoad() async throws {
        try await withProcesses(configure: { stateBeside(&$0); patientClose(&$0) }) { harness in
            try await harness.control.saveSession("empty")
            let id = try await harness.control.open("py").instance.id
            _ = try await harness.control.callScene(.instance(id), method: "edit")  // unsaved: it refuses to close
            #expect(await refusal { _ = try await harness.control.loadSession("empty") } == .closeVetoed)
            #expect(try await harness.instance(id)?.phase == "active")
            #expect(try await harness.control.loadSession("empty", force: true).isEmpty)
            #expect(try await harness.instance(id) == nil)
        }
    }
}
