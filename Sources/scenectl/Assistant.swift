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

    /// The assistant's scene.
    static let scene: SceneID<NoValue> = "assistant"

    /// What the assistant serves: `title`, `greet`, and the signal `greeted`.
    static let interface: SceneInterface = {
        let json: JSONValue = [
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
        ]
        // A schema written here and tested with the demo: it always reads.
        return try! SceneInterface(json: json)
    }()

    /// The assistant's title, as `title` answers it.
    struct Title: Codable, Sendable { var title: String }
    /// Whom `greet` greets (`you` when nobody is named).
    struct Greet: Codable, Sendable { var name: String? }
    /// A greeting, and how many there have been.
    struct Greeting: Codable, Sendable {
        var greeting: String
        var greeted: Int
    }
    /// The payload of the signal `greeted`.
    struct Greeted: Codable, Sendable {
        var name: String
        var count: Int
    }

    static let title: SceneMethod<NoValue, Title> = "title"
    static let greet: SceneMethod<Greet, Greeting> = "greet"
    static let greetedSignal = "greeted"

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        if try call.params(of: Self.title) != nil {
            return Self.title.answer(Title(title: "Assistant (in process)"))
        }
        if let greet = try call.params(of: Self.greet) {
            greeted += 1
            let name = greet.name ?? "you"
            try await context.emit(Self.greetedSignal, with: Greeted(name: name, count: greeted))
            return Self.greet.answer(Greeting(greeting: "hello, \(name)", greeted: greeted))
        }
        throw SceneError.methodNotFound(call.method)
    }
}
