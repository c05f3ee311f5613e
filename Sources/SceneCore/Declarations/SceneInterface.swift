public import SceneJSON

/// What a scene answers and announces: its methods, with the shape of their params and
/// results, and its signals, with the shape of their payloads.
///
/// A scene that declares an interface is held to it before its code runs:
/// - a call or notification of a method it does not declare is refused -32601
///   (`data.method`), and params that break the method's schema -32602 (`data.path`);
/// - a signal it emits that it does not declare is refused `unknown_signal`, and a payload
///   that breaks the signal's schema -32602.
///
/// Results are described for callers and tools; they are not checked.
public struct SceneInterface: Hashable, Sendable {
    /// One method: the schema of its params and of its result, when given.
    public struct Method: Hashable, Sendable {
        /// What `params` must look like; nil takes any params.
        public var params: JSONSchema?
        /// What the method answers, for callers to read.
        public var result: JSONSchema?

        /// A method with the schemas given.
        public init(params: JSONSchema? = nil, result: JSONSchema? = nil) {
            self.params = params
            self.result = result
        }
    }

    /// One signal: the schema of its payload, when given.
    public struct Signal: Hashable, Sendable {
        /// What the payload must look like; nil takes any payload.
        public var payload: JSONSchema?

        /// A signal with the schema given.
        public init(payload: JSONSchema? = nil) {
            self.payload = payload
        }
    }

    /// The methods, by name.
    public var methods: [String: Method]
    /// The signals, by name.
    public var signals: [String: Signal]

    /// An interface with the methods and signals given.
    public init(methods: [String: Method] = [:], signals: [String: Signal] = [:]) {
        self.methods = methods
        self.signals = signals
    }

    /// Reads an interface as a manifest writes it: `{"methods": {name: {"params"?,
    /// "result"?}}, "signals": {name: {"payload"?}}}`.
    ///
    /// - Throws: `JSONSchemaError` with every problem, by its path under `path`.
    public init(json: JSONValue, path: String = "interface") throws(JSONSchemaError) {
        var problems: [JSONProblem] = []
        func report(_ at: String, _ message: String) { problems.append(JSONProblem(path: at, message: message)) }
        func schema(_ value: JSONValue?, at: String) -> JSONSchema? {
            guard let value else { return nil }
            do {
                return try JSONSchema(json: value, path: at)
            } catch {
                problems += error.problems
                return nil
            }
        }
        func entries(_ key: String, allowed: Set<String>) -> [(name: String, members: [String: JSONValue], path: String)] {
            guard let value = json[key] else { return [] }
            guard case .object(let byName) = value else {
                report("\(path).\(key)", "must be an object, by name")
                return []
            }
            var found: [(String, [String: JSONValue], String)] = []
            for name in byName.keys.sorted() {
                let at = "\(path).\(key).\(name)"
                if name.isEmpty { report(at, "a name must not be empty") }
                guard case .object(let members)? = byName[name] else {
                    report(at, "must be an object")
                    continue
                }
                for unknown in members.keys.sorted() where !allowed.contains(unknown) {
                    report("\(at).\(unknown)", "unknown member (expected \(allowed.sorted().joined(separator: ", ")))")
                }
                found.append((name, members, at))
            }
            return found
        }
        guard case .object(let members) = json else {
            throw JSONSchemaError(problems: [JSONProblem(path: path, message: "must be an object with methods and signals")])
        }
        for unknown in members.keys.sorted() where unknown != "methods" && unknown != "signals" {
            report("\(path).\(unknown)", "unknown member (expected methods, signals)")
        }
        var methods: [String: Method] = [:]
        for (name, fields, at) in entries("methods", allowed: ["params", "result"]) {
            if SceneCall.isReserved(name) { report(at, "names that begin with scene. or flow. are the coordinator's own") }
            methods[name] = Method(params: schema(fields["params"], at: "\(at).params"), result: schema(fields["result"], at: "\(at).result"))
        }
        var signals: [String: Signal] = [:]
        for (name, fields, at) in entries("signals", allowed: ["payload"]) {
            signals[name] = Signal(payload: schema(fields["payload"], at: "\(at).payload"))
        }
        guard problems.isEmpty else { throw JSONSchemaError(problems: problems) }
        self.methods = methods
        self.signals = signals
    }

    /// The interface as a manifest writes it, and as `scene.describe` answers it.
    public var json: JSONValue {
        var methodsJSON: [String: JSONValue] = [:]
        for (name, method) in methods {
            var fields: [String: JSONValue] = [:]
            if let params = method.params { fields["params"] = params.json }
            if let result = method.result { fields["result"] = result.json }
            methodsJSON[name] = .object(fields)
        }
        var signalsJSON: [String: JSONValue] = [:]
        for (name, signal) in signals {
            signalsJSON[name] = .object(signal.payload.map { ["payload": $0.json] } ?? [:])
        }
        return ["methods": .object(methodsJSON), "signals": .object(signalsJSON)]
    }

    /// Why a call of `method` with `params` (`{}` when none) is refused before it reaches
    /// the scene `scene`: -32601 for a method not declared, -32602 for params that break
    /// its schema; nil when it may go on.
    public func refusal(ofCall method: String, params: JSONValue?, scene: String) -> SceneError? {
        guard let declared = methods[method] else {
            return SceneError(
                code: -32601, message: "scene \"\(scene)\" declares no method \(method)",
                data: ["method": .string(method), "scene": .string(scene)])
        }
        guard let schema = declared.params, let problem = schema.violation(of: params ?? .object([:]), at: "params") else {
            return nil
        }
        return Self.invalid(problem, "\(method) of scene \"\(scene)\"")
    }

    /// Why a payload of signal `signal` breaks its schema (-32602); nil when it fits or the
    /// signal is not declared (``signals`` says whether it is).
    public func refusal(ofPayload payload: JSONValue?, signal: String, scene: String) -> SceneError? {
        guard let schema = signals[signal]?.payload, let problem = schema.violation(of: payload ?? .null, at: "payload") else {
            return nil
        }
        return Self.invalid(problem, "signal \(signal) of scene \"\(scene)\"")
    }

    private static func invalid(_ problem: JSONProblem, _ what: String) -> SceneError {
        SceneError(
            code: -32602, message: "Invalid params: \(problem.path) \(problem.message) (\(what))",
            data: ["path": .string(problem.path), "detail": .string(problem.message)])
    }
}
