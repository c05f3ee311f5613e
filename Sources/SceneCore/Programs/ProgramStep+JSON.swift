import SceneFlow
public import SceneJSON

/// Why a program's step, as JSON, is not a step: which step, and what is wrong, with the
/// path of the member (`steps[2].params.from: …`).
public struct ProgramDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The step's index, from 0.
    public let step: Int
    /// What is wrong, starting with the member's path.
    public let description: String

    /// An error from its members.
    public init(step: Int, description: String) {
        self.step = step
        self.description = description
    }
}

extension ProgramStep {
    /// The methods a program step may use, in the protocol's order.
    public static var methods: [String] {
        ["scene.open", "scene.push", "scene.focus", "scene.dismiss", "immersive.dismiss", "scene.route", "flow.send",
         "flow.apply", "link.open"]
    }

    /// Reads step `index` of a program: `{"method", "params"}`, the params those of the
    /// method. Wherever they take an instance id (`from`, `instance`), `"$k"` names the
    /// instance of step `k`'s result; ``problem(in:)`` checks that `k` is an earlier step
    /// whose result has one. Members a method does not know are ignored, as its own
    /// request ignores them.
    public init(json: JSONValue, at index: Int) throws(ProgramDecodingError) {
        let path = "steps[\(index)]"
        func fail(_ message: String) -> ProgramDecodingError { ProgramDecodingError(step: index, description: message) }
        guard case .object(let step) = json else { throw fail("\(path): a step must be an object {method, params}") }
        guard case .string(let method)? = step["method"] else { throw fail("\(path).method: must be a method name") }
        guard Self.methods.contains(method) else {
            throw fail("\(path).method: \"\(method)\" cannot be a program step (one of \(Self.methods.joined(separator: ", ")))")
        }
        let params: [String: JSONValue]
        switch step["params"] {
        case nil, .null?: params = [:]
        case .object(let members)?: params = members
        default: throw fail("\(path).params: must be an object")
        }
        func member(_ key: String) -> JSONValue? {
            guard let value = params[key], !value.isNull else { return nil }
            return value
        }
        func string(_ key: String) throws(ProgramDecodingError) -> String {
            guard case .string(let text)? = params[key] else { throw fail("\(path).params.\(key): must be a string") }
            return text
        }
        func flag(_ key: String) throws(ProgramDecodingError) -> Bool {
            switch params[key] {
            case nil, .null?: return false
            case .bool(let value)?: return value
            default: throw fail("\(path).params.\(key): must be true or false")
            }
        }
        func reference(_ key: String) throws(ProgramDecodingError) -> InstanceRef {
            let text = try string(key)
            if text.hasPrefix("$"), let k = Int(text.dropFirst()), String(k) == text.dropFirst() { return .step(k) }
            guard let id = InstanceID(text) else {
                throw fail("\(path).params.\(key): \"\(text)\" is not an instance id (<scene>-<n>) or $k")
            }
            return .id(id)
        }
        func decoded<T: Decodable>(_ key: String, as type: T.Type) throws(ProgramDecodingError) -> T {
            guard let value = params[key] else { throw fail("\(path).params.\(key): missing") }
            do {
                return try value.decode(as: T.self)
            } catch {
                throw fail("\(path).params.\(key): \(error)")
            }
        }
        switch method {
        case "scene.open":
            self = .open(scene: try string("scene"), value: member("value"))
        case "scene.push":
            self = .push(scene: try string("scene"), value: member("value"), from: try reference("from"))
        case "scene.focus":
            self = .focus(try reference("instance"))
        case "scene.dismiss":
            switch (params["instance"], params["scene"]) {
            case (_?, nil): self = .dismiss(try reference("instance"), force: try flag("force"))
            case (nil, _?): self = .dismissScene(try string("scene"), value: member("value"), force: try flag("force"))
            default: throw fail("\(path).params: give either instance, or scene (with an optional value)")
            }
        case "immersive.dismiss":
            self = .dismissImmersive
        case "scene.route":
            guard params["route"] != nil else { throw fail("\(path).params.route: missing") }
            self = .route(try decoded("route", as: R.self), from: try reference("from"))
        case "flow.send":
            self = .send(try decoded("intent", as: FlowIntent<R>.self), to: try reference("instance"))
        case "flow.apply":
            self = .apply(try decoded("plan", as: [RouteStep<R>].self), to: try reference("instance"))
        default:
            self = .link(try string("url"))
        }
    }

    /// The step as a program's JSON carries it: `{"method", "params"}`, `$k` for a
    /// reference to step `k` (the inverse of ``init(json:at:)``).
    ///
    /// - Throws: `scene_failed` when a route cannot be JSON (a non-finite number).
    public func json() throws(SceneError) -> JSONValue {
        func ref(_ ref: InstanceRef) -> JSONValue {
            switch ref {
            case .id(let id): return .string(id.description)
            case .step(let k): return .string("$\(k)")
            }
        }
        func encoded(_ value: some Encodable & Sendable) throws(SceneError) -> JSONValue { try ScenePayload(value).json() }
        var params: [String: JSONValue] = [:]
        switch self {
        case .open(let scene, let value):
            params = ["scene": .string(scene)]
            params["value"] = value
        case .push(let scene, let value, let from):
            params = ["scene": .string(scene), "from": ref(from)]
            params["value"] = value
        case .focus(let instance):
            params = ["instance": ref(instance)]
        case .dismiss(let instance, let force):
            params = ["instance": ref(instance), "force": .bool(force)]
        case .dismissScene(let scene, let value, let force):
            params = ["scene": .string(scene), "force": .bool(force)]
            params["value"] = value
        case .dismissImmersive:
            break
        case .route(let route, let from):
            params = ["route": try encoded(route), "from": ref(from)]
        case .send(let intent, let instance):
            params = ["intent": try encoded(intent), "instance": ref(instance)]
        case .apply(let steps, let instance):
            params = ["plan": try encoded(steps), "instance": ref(instance)]
        case .link(let url):
            params = ["url": .string(url)]
        }
        return ["method": .string(method), "params": .object(params)]
    }

    /// Reads a whole program's steps and checks their references: a step that is not a
    /// step, or a `$k` that is not an earlier step or names one whose result has no
    /// instance, is an error before anything runs.
    public static func program(json steps: [JSONValue]) throws(ProgramDecodingError) -> [ProgramStep] {
        var program: [ProgramStep] = []
        for (index, step) in steps.enumerated() { program.append(try ProgramStep(json: step, at: index)) }
        if let problem = problem(in: program) {
            let member = program[problem.step].referenceMember
            throw ProgramDecodingError(step: problem.step, description: "steps[\(problem.step)].params.\(member): \(problem.detail)")
        }
        return program
    }

    /// The member of the params that names the step's instance.
    var referenceMember: String {
        switch self {
        case .push, .route: return "from"
        default: return "instance"
        }
    }
}
