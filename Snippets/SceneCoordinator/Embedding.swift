import SceneCoordinator
import SceneCore
// snippet.hide

// The Counter of SceneCore's overview.
extension SceneID where Value == NoValue { static let counter: Self = "counter" }

actor Counter: SceneBehavior {
    func answer(_ call: SceneCall) async throws -> ScenePayload { throw SceneError.methodNotFound(call.method) }
}
// snippet.show

let coordinator = try await Coordinator.start(
    scenes: SceneSet(app: "tally") { Window(.counter) { _ in Counter() } },   // as in SceneCore's overview
    configuration: CoordinatorConfiguration(socketPath: CoordinatorConfiguration.defaultSocketPath(app: "tally")))
_ = try await coordinator.registry.scenes.open(.counter)  // in process, on the coordinator's loop
// clients and scene processes connect to the socket meanwhile
await coordinator.shutdown()                       // scene processes closed, behaviours stopped, then it stops
