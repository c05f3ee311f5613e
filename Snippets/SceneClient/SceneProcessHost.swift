import Foundation
import SceneClient
import SceneCore
// snippet.hide
import SceneCoordinator
import SceneJSON

/// The smallest notebook: it answers its title.
actor Notebook: SceneBehavior {
    let title: String
    init(title: String, context: SceneContext<JSONValue>) { self.title = title }
    func answer(_ call: SceneCall) async throws -> ScenePayload { ScenePayload(json: ["title": .string(title)]) }
}

// A coordinator in this process whose scene "notes" waits for a process to attach; this
// program attaches as that process, with the token a scene process finds in its
// environment, and the coordinator's shutdown ends it.
let socket = FileManager.default.temporaryDirectory.appendingPathComponent("scene-process-\(getpid()).sock").path
let manifest = try Manifest.load(from: Data(#"{"app": "notes", "scenes": [{"id": "notes", "kind": "window", "attach": {}}]}"#.utf8))
let coordinator = try await Coordinator.start(manifest: manifest, configuration: CoordinatorConfiguration(socketPath: socket))
let control = try await SceneConnection.connect(path: socket, client: "docs")
setenv("SCENE_SOCKET", socket, 1)
setenv("SCENE_TOKEN", try await control.issueToken(scene: "notes").token, 1)
Task {
    // Until the process has attached (a call before that is refused not_open).
    while (try? await control.callScene(.scene("notes"), method: "title"))?["title"] != "notes-1" {
        try await Task.sleep(for: .milliseconds(10))
    }
    print("notes-1 answers its title; the coordinator shuts down")
    control.close()
    await coordinator.shutdown()
}
// snippet.show

switch try await SceneProcess.run(client: "swift-scene", { context in
    Notebook(title: context.instance.description, context: context)
}) {
case .finished: exit(0)            // the connection closed: the coordinator stopped the scene
case .failed: exit(1)              // its restart policy decides what follows
}
