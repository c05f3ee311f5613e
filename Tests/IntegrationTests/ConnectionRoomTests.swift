import Foundation
import SceneClient
import SceneCore
import SceneJSON
import SceneTesting
import Testing

/// A scene process the coordinator started has a connection kept for it until it says
/// hello, so that peers that come meanwhile cannot take the last one and leave its open to
/// time out.
@Suite("Connections kept for scene processes", .timeLimit(.minutes(5)))
struct ConnectionRoomTests {
    /// A manifest with one scene, `gated`, whose process (a shell) writes `started`, then
    /// waits until `gate` exists before it runs `scenectl scene`: in its place (`exec`), or
    /// as its child, in the process group the coordinator started it in.
    func gatedManifest(gate: String, started: String, execs: Bool) throws -> Manifest {
        let run = execs ? #"exec "$2" scene --quiet"# : #""$2" scene --quiet"#
        let script = #"touch "$1"; while [ ! -e "$0" ]; do sleep 0.02; done; "# + run
        let command = JSONValue.array(["/bin/sh", "-c", .string(script), .string(gate), .string(started), .string(scenectlPath())])
        let text = #"{"app": "room", "scenes": [{"id": "gated", "kind": "window", "launch": {"command": \#(command)}}]}"#
        return try Manifest.load(from: Data(text.utf8))
    }

    @Test(
        "a process started one connection below the limit keeps that connection until it says hello: a peer meanwhile is turned away, and the process, when it connects, is taken and its open answered",
        arguments: [true, false])
    func keptUntilHello(execs: Bool) async throws {
        try await withTemporaryFolder { folder in
            let gate = folder.file("gate"), started = folder.file("started")
            let manifest = try gatedManifest(gate: gate, started: started, execs: execs)
            try await withServer(manifest: manifest, configure: { $0.maximumConnections = 3; $0.launchTimeout = .seconds(120) }) { server in
                let control = try await server.connect()
                let opening = Task { try await control.open("gated") }
                defer { opening.cancel() }
                guard await eventually(.seconds(60), { FileManager.default.fileExists(atPath: started) }) else {
                    Issue.record("the scene process did not start; the open: \(await opening.result)")
                    return
                }
                // Two connections, and one kept for the process: the limit of three is reached.
                let second = try await server.connect()
                let third = try RawClient(path: server.path)
                defer { third.close() }
                let answer = try await third.readMessage()
                #expect(answer["error"]?["data"]?["reason"] == "too_many_connections")
                #expect(answer["error"]?["message"]?.stringValue?.contains("1 of them kept for scene processes it started") == true, "\(answer)")
                #expect(try await third.closesWithin())

                // Let go, the process connects into the connection kept for it.
                #expect(FileManager.default.createFile(atPath: gate, contents: nil))
                let opened = try await opening.value
                #expect(opened.instance.scene == "gated")
                #expect(await server.coordinator.connectionCount() == 3)
                try await second.ping()
            }
        }
    }

    @Test("a process is not started when no connection can be kept for it: its open fails launch_failed at once")
    func noRoomNoSpawn() async throws {
        try await withTemporaryFolder { folder in
            let gate = folder.file("gate"), started = folder.file("started")
            let manifest = try gatedManifest(gate: gate, started: started, execs: true)
            try await withServer(manifest: manifest, configure: { $0.maximumConnections = 2; $0.launchTimeout = .seconds(120) }) { server in
                let control = try await server.connect()
                let second = try await server.connect()
                // Had it started, the open would wait for its hello (the gate stays shut).
                let failure = await remote { _ = try await control.open("gated") }
                #expect(failure?.reason == .launchFailed)
                #expect(failure?.data["detail"]?.stringValue?.contains("has none for a process") == true, "\(String(describing: failure))")
                #expect(!FileManager.default.fileExists(atPath: started))
                try await second.ping()
            }
        }
    }
}
