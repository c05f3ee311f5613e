import Foundation
import SceneCoordinator
import SceneCore
import SceneJSON

// The app's scenes: "assistant" runs in this process, as the actor below.
let manifest = try Manifest.load(from: Data(#"""
{"app": "helper", "scenes": [
{"id": "assistant", "kind": "window", "instances": "single", "in_process": true, "activatable": true,
 "interface": {"methods": {"greet": {"params": {"type": "object", "properties": {"name": {"type": "string"}}}}},
               "signals": {"greeted": {"payload": {"type": "object", "required": ["name", "count"]}}}}}
]}
"""#.utf8))

struct Greeting: Codable, Sendable { var name: String }
extension SceneMethod where Params == Greeting, Answer == String { static let greet: Self = "greet" }

actor Assistant {
    let context: SceneContext<JSONValue>
    var count = 0

    init(context: SceneContext<JSONValue>) { self.context = context }
}

extension Assistant: SceneBehavior {
    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let greeting = try call.params(of: .greet) else { throw SceneError.methodNotFound(call.method) }
        count += 1
        try await context.emit("greeted", payload: ["name": .string(greeting.name), "count": .integer(count)])
        return SceneMethod.greet.answer("hello, \(greeting.name)")
    }
}

let coordinator = try await Coordinator.start(
    manifest: manifest, behaviors: ["assistant": { Assistant(context: $0) }],
    configuration: CoordinatorConfiguration(socketPath: CoordinatorConfiguration.defaultSocketPath(app: "helper")))
// Clients and scene processes reach it on its socket; the program itself asks in process
// (the first call opens the assistant: it is activatable):
print(try await coordinator.registry.scenes.call(.greet, Greeting(name: "you"), on: .scene("assistant")))
// A real app serves until it is told to stop: await coordinator.waitUntilStopped()
await coordinator.shutdown()
