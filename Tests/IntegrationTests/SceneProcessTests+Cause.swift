import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync
import SceneTesting
import Testing

// Whose change a scene process's path change was.
extension SceneProcessTests {
    @Test("a path change a scene asks for is caused by scene; one a control client asks for, by control")
    func causeNamesWhoAsked() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("virtual")
            let puppet = try await harness.puppet()
            defer { puppet.scene.close() }
            _ = try await puppet.scene.send(.push("mine"), to: puppet.id)
            _ = try await harness.control.send(.sheet("theirs"), to: puppet.id)
            // The harness's log follows the registry's events as they are delivered to it.
            _ = await harness.events.wait { $0.kind == .flowChanged && $0.params["cause"]?["by"] == "control" }
            let changes = harness.events.all.filter { $0.kind == .flowChanged }.map { $0.params["cause"] }
            #expect(changes == [["by": "scene", "intent": "push"], ["by": "control", "intent": "sheet"]])
        }
    }
}
