import SceneCore
import Testing

/// The counter of SceneCore's overview (Sources/SceneCore/SceneCore.docc/SceneCore.md) and
/// of the README's tour, kept here as written so the documentation cannot drift.
actor Counter: SceneBehavior {
    var count = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard call.method == "add" else { throw SceneError.methodNotFound(call.method) }
        count += try call.params.decode(Int.self)
        return ScenePayload(count)
    }

    func close(force: Bool) async -> Bool { force || count == 0 }
}

/// Runs the counter example of SceneCore's overview as written: the catalog page
/// Sources/SceneCore/SceneCore.docc/SceneCore.md ("Scene behaviours: the code of a scene")
/// shows it, and so does the README's tour.
@Suite("The documented in-process scene example runs as written")
struct SceneBehaviorExampleTests {
    @Test("the documented counter adds what it is called with and refuses an interactive close once it has counted")
    func counter() async throws {
        let manifest = try Manifest(json: ["app": "tally", "scenes": [["id": "counter", "kind": "window", "in_process": true]]])
        let registry = try SceneRegistry(manifest: manifest, behaviors: ["counter": { _ in Counter() }])
        let counter = try await registry.open("counter").instance.id
        let total = try await registry.call(SceneCall(method: "add", params: ScenePayload(5)), to: .instance(counter))
        #expect(try total.decode(Int.self) == 5)
        await #expect(throws: RegistryRejection.closeVetoed(counter)) { try await registry.dismiss(counter, force: false) }
    }
}
