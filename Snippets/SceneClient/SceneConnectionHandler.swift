import Foundation
import SceneClient
import SceneWire
// snippet.hide
import SceneCoordinator
import SceneCore
import SceneJSON

/// Whether a close request says `force`.
func forced(_ message: IncomingMessage) -> Bool { message.params?["force"] == true }
let hasUnsavedEdits = false

// As in SceneProcessHost.swift: a coordinator in this process whose scene "notes" waits
// for a process to attach, and this program that attaches.
let socket = FileManager.default.temporaryDirectory.appendingPathComponent("scene-handler-\(getpid()).sock").path
let manifest = try Manifest.load(from: Data(#"{"app": "notes", "scenes": [{"id": "notes", "kind": "window", "attach": {}}]}"#.utf8))
let coordinator = try await Coordinator.start(manifest: manifest, configuration: CoordinatorConfiguration(socketPath: socket))
let control = try await SceneConnection.connect(path: socket, client: "docs")
setenv("SCENE_SOCKET", socket, 1)
setenv("SCENE_TOKEN", try await control.issueToken(scene: "notes").token, 1)
Task {
    // Until the process has attached (a call before that is refused not_open).
    while true {
        if let title = try? await control.callScene(.scene("notes"), method: "title") {
            precondition(title == ["title": "Notes"], "\(title)")
            break
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    control.close()
    await coordinator.shutdown()
}
// snippet.show

let connection = try await SceneConnection.connectAsScene(client: "notes", answering: { message in
    switch message.method {
    case CoordinatorMethod.close: return .success(["accepted": .bool(forced(message) || !hasUnsavedEdits)])
    case "title": return .success(["title": "Notes"])
    default: return .failure(.methodNotFound(message.method))
    }
})
print(connection.hello.instance!.path)   // the path it had, after a restart
await connection.waitUntilClosed()       // then exit: the coordinator restarts, never the scene
