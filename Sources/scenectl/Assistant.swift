import SceneCore
import SceneFlow
import SceneJSON

/// The demo's in-process scene: a behaviour that runs inside `scenectl` itself, beside
/// the scene processes, and answers calls as they do. It is a service: the first call to
/// it opens it (it is activatable), its interface is declared, and each greeting is
/// announced as the signal `greeted`.
actor Assistant: SceneBehavior {
    private var greeted = 0
    private let context: SceneContext<JSONValue>

    init(context: SceneContext<JSONValue>) {
        self.context = context
    }

    /// The assistant's manifest entry: in process, single, activatable, with its interface.
    static let declaration: JSONValue = [
        "id": "assistant", "kind": "window", "instances": "single", "in_process": true, "activatable": true,
        "interface": [
            "methods": [
                "title": ["result": ["type": "object", "properties": ["title": ["type": "string"]]]],
                "greet": [
                    "params": ["type": "object", "properties": ["name": ["type": "string"]]],
                    "result": ["type": "object", "properties": ["greeting": ["type": "string"], "greeted": ["type": "integer"]]],
                ],
            ],
            "signals": [
                "greeted": ["payload": ["type": "object", "properties": ["name": ["type": "string"], "count": ["type": "integer"]], "required": ["name", "count"]]]
            ],
        ],
    ]

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        switch call.method {
        case "title":
            return ScenePayload(json: ["title": "Assistant (in process)"])
        case "greet":
            greeted += 1
            let name = try call.params.json()["name"]?.stringValue ?? "you"
            try await context.emit("greeted", payload: ["name": .string(name), "count": .integer(greeted)])
            return ScenePayload(json: ["greeting": .string("hello, \(name)"), "greeted": .integer(greeted)])
        default:
            throw SceneError.methodNotFound(call.method)
        }
    }
}
