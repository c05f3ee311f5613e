import Foundation
import SceneClient
import SceneCore
import SceneTesting
import Testing

/// The repository's Python example scene, found from this file's place in it.
let script = URL(fileURLWithPath: #filePath)
    .appendingPathComponent("../../../../Examples/python-scene/scene.py").standardized.path

/// A manifest whose "notes" scene is that script, a process restarted whenever it dies.
let manifestText = """
    {"app": "notes", "scenes": [{"id": "notes", "kind": "window",
      "launch": {"command": ["python3", "\(script)"]}, "restart": {"policy": "permanent"}}]}
    """

// snippet.hide
// SceneTesting.docc/SceneTesting.md, "Testing several scenes together".
struct TestCoordinatorArticle {
// snippet.show
@Test("a killed permanent scene comes back with a new process")
func restarted() async throws {
    let manifest = try Manifest.load(from: Data(manifestText.utf8))
    try await TestCoordinator.run(manifest: manifest) { coordinator in
        let notes = try await coordinator.control.open("notes").instance.id
        try await coordinator.waitUntilActive(notes)
        let first = try #require(coordinator.pid(of: notes))
        try coordinator.kill(notes)
        try await coordinator.event("notes restarted") { $0.type == "scene.restarted" }
        try await coordinator.waitUntilActive(notes)
        #expect(coordinator.pid(of: notes) != first)
    }
}
// snippet.hide
}
