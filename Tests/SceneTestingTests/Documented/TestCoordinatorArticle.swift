import Foundation
import SceneClient
import SceneCore
import SceneTesting
import Testing

// snippet.hide
// SceneTesting.docc/SceneTesting.md, "Testing several scenes together".
struct TestCoordinatorArticle {
// snippet.show
/// A manifest whose "notes" scene is the repository's Python example, a process that is
/// restarted whenever it dies (`swift test` runs in the package's folder).
let manifestText = #"""
    {"app": "notes", "scenes": [{"id": "notes", "kind": "window",
      "launch": {"command": ["python3", "Examples/python-scene/scene.py"]}, "restart": {"policy": "permanent"}}]}
    """#

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
