import SceneCore
import SceneFlow

/// The demo's in-process scene: a behaviour that runs inside `scenectl` itself, beside
/// the scene processes, and answers calls as they do.
actor Assistant: SceneBehavior {
    private var greeted = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        switch call.method {
        case "title":
            return ScenePayload(json: ["title": "Assistant (in process)"])
        case "greet":
            greeted += 1
            let name = try call.params.json()["name"]?.stringValue ?? "you"
            return ScenePayload(json: ["greeting": .string("hello, \(name)"), "greeted": .integer(greeted)])
        default:
            throw SceneError.methodNotFound(call.method)
        }
    }
}
