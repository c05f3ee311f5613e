import SceneFlow
public import SceneJSON

/// A call or notification to a scene: a method name and its params, as `scene.call` and
/// `scene.notify` carry them.
public struct SceneCall: Sendable {
    /// The method: any name not beginning with `scene.` or `flow.` (those are the
    /// coordinator's own).
    public let method: String
    /// The params.
    public let params: ScenePayload

    /// Creates a call of `method`; params default to `{}`.
    public init(method: String, params: ScenePayload = .empty) {
        self.method = method
        self.params = params
    }

    /// The longest a call may wait for its answer: an hour, as on the wire.
    public static let maximumTimeout = Duration.seconds(3600)

    /// Admits this call to `scene`, which declares `interface` (nil: none), before it goes
    /// anywhere: answers how long it may wait for its answer (`timeout`, or `standard` when
    /// nil). Every call made through a registry (``SceneRegistry/call(_:to:timeout:)``, and a
    /// behaviour's context calling through its own) passes here first, whatever backs its
    /// target.
    ///
    /// - Throws: `reserved_method`; -32601 for a method the interface does not declare,
    ///   -32602 for params that break its schema; -32602 for a timeout that is not
    ///   positive or is over ``maximumTimeout``.
    func admitted(to scene: String, interface: SceneInterface?, timeout: Duration?, standard: Duration) throws(SceneError)
        -> Duration
    {
        guard !Self.isReserved(method) else { throw .reservedMethod(method) }
        if let refusal = interface?.refusal(of: self, scene: scene) { throw refusal }
        let wait = timeout ?? standard
        guard wait > .zero, wait <= Self.maximumTimeout else {
            throw .invalidParams("timeout: must be a positive number of seconds, at most 3600")
        }
        return wait
    }

    /// Whether `method` is one of the coordinator's own names, which no scene may be called by.
    public static func isReserved(_ method: String) -> Bool {
        // Compared as bytes: every call is checked, and both prefixes are ASCII.
        var bytes = method.utf8.makeIterator()
        switch bytes.next() {
        case UInt8(ascii: "s"): return "cene.".utf8.allSatisfy { bytes.next() == $0 }
        case UInt8(ascii: "f"): return "low.".utf8.allSatisfy { bytes.next() == $0 }
        default: return false
        }
    }
}

extension SceneInterface {
    /// Why `call` to `scene` breaks this interface (its params, as JSON, too); nil when it
    /// keeps to it.
    func refusal(of call: SceneCall, scene: String) -> SceneError? {
        do {
            return refusal(ofCall: call.method, params: try call.params.json(), scene: scene)
        } catch {
            return error
        }
    }
}

/// The params or result of a call between scenes: a Swift value while the call stays in
/// process, JSON once it crosses a socket.
///
/// - A value passed in process reaches the other side as the same value: decoding it as
///   its own type is a cast, with no JSON made.
/// - Decoding as another type, or a payload that came over the wire, goes through JSON, so
///   both sides only have to agree on the JSON shape, as a process would.
public struct ScenePayload: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        case json(JSONValue)
        case value(any Encodable & Sendable)
    }

    @usableFromInline
    let storage: Storage

    /// `{}`.
    public static let empty = ScenePayload(json: .object([:]))

    /// A payload of JSON.
    @inlinable
    public init(json: JSONValue) {
        storage = .json(json)
    }

    /// A payload of a Swift value, which becomes JSON only if it has to cross a socket.
    @inlinable
    public init<T: Encodable & Sendable>(_ value: T) {
        if T.self == JSONValue.self {
            storage = .json(value as! JSONValue)
        } else {
            storage = .value(value)
        }
    }

    /// The payload as a `T`: the value itself when it is one, else decoded from its JSON.
    ///
    /// - Throws: ``SceneError`` -32602 (invalid params) saying what does not fit.
    @inlinable
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(SceneError) -> T {
        if case .value(let value) = storage, let same = value as? T { return same }
        return try decodeFromJSON(T.self)
    }

    /// The payload as the answer of a call or a presentation, a `T`: an answer that is not
    /// one is the callee's failure, `scene_failed`, not the caller's params' (-32602).
    public func decodeAnswer<T: Decodable>(_ type: T.Type = T.self) throws(SceneError) -> T {
        do {
            return try decode(T.self)
        } catch {
            throw .sceneFailed("the answer is not a \(T.self): \(error.message)")
        }
    }

    /// The value this payload holds, when it holds a `T` as it was made (in process).
    package func value<T>(as type: T.Type) -> T? {
        if case .value(let value) = storage { return value as? T }
        return nil
    }

    /// The payload as the answer of a typed call, a `T`, with `context` for what reads it
    /// (a distributed actor in it is resolved through the system there).
    ///
    /// - Throws: `scene_failed` when it is not one.
    package func decodeAnswer<T: Decodable>(_ type: T.Type, context: some DecodingContext) throws(SceneError) -> T {
        switch storage {
        case .value(let value): if let same = value as? T { return same }
        case .json(let json): if let primitive = json.primitive(as: T.self) { return primitive }
        }
        do {
            return try json().decoded(as: T.self, context: context)
        } catch {
            throw .sceneFailed("the answer is not a \(T.self): \(error)")
        }
    }

    /// The payload decoded from its JSON (see ``decode(_:)``).
    @usableFromInline
    func decodeFromJSON<T: Decodable>(_ type: T.Type) throws(SceneError) -> T {
        try Self.decode(T.self, from: try json())
    }

    /// The payload as JSON.
    ///
    /// - Throws: ``SceneError`` `scene_failed` when the value cannot be encoded (a
    ///   non-finite number, say).
    public func json() throws(SceneError) -> JSONValue {
        switch storage {
        case .json(let json):
            return json
        case .value(let value):
            do {
                // A typed call's arguments are an object of their own members.
                if let arguments = value as? SceneArguments { return try arguments.json() }
                return try JSONValue.encoded(value)
            } catch {
                throw .sceneFailed("the payload cannot be encoded as JSON: \(error)")
            }
        }
    }

    /// Appends the payload's JSON text (the text of ``json()``); a typed call's arguments
    /// are written member by member, with no object made for them.
    ///
    /// - Throws: ``SceneError`` `scene_failed` when the value cannot be encoded; `output`
    ///   may then hold part of it.
    package func write(to output: inout [UInt8]) throws(SceneError) {
        guard case .value(let value) = storage, let arguments = value as? SceneArguments else {
            return try json().write(to: &output)
        }
        do {
            try arguments.write(to: &output)
        } catch {
            throw .sceneFailed("the payload cannot be encoded as JSON: \(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws(SceneError) -> T {
        do {
            return try json.decoded(as: T.self)
        } catch {
            throw .invalidParams(String(describing: error))
        }
    }
}

/// Which instance a call goes to.
///
/// Its JSON is the wire's `to`: an instance as its id (`"viewer-2"`), a scene as
/// `{"scene": id}`.
public enum SceneTarget: Codable, Hashable, Sendable, CustomStringConvertible {
    /// This instance.
    case instance(InstanceID)
    /// The most recently focused open instance of this scene, or its newest.
    case scene(String)

    /// The scene the target is an instance of.
    public var scene: String {
        switch self {
        case .instance(let id): return id.scene
        case .scene(let scene): return scene
        }
    }

    public var description: String {
        switch self {
        case .instance(let id): return id.description
        case .scene(let scene): return scene
        }
    }

    /// Reads an instance id, or `{"scene": id}`.
    public init(from decoder: any Decoder) throws {
        switch try TargetForm(from: decoder) {
        case .instance(let text):
            guard let id = InstanceID(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not an instance id"))
            }
            self = .instance(id)
        case .scene(let scene):
            self = .scene(scene)
        }
    }

    /// Writes an instance as its id, a scene as `{"scene": id}`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .instance(let id): try TargetForm.instance(id.description).encode(to: encoder)
        case .scene(let scene): try TargetForm.scene(scene).encode(to: encoder)
        }
    }
}

/// The wire's form of a call's target (`to`): an instance as its id, a plain string; a
/// scene as `{"scene": id}`. ``SceneTarget`` and the wire's `CallTarget` read and write
/// themselves through it.
package enum TargetForm: Codable, Sendable {
    case instance(String)
    case scene(String)

    private enum CodingKeys: String, CodingKey { case scene }

    package init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .instance(text)
            return
        }
        self = .scene(try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .scene))
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .instance(let id):
            var container = encoder.singleValueContainer()
            try container.encode(id)
        case .scene(let scene):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(scene, forKey: .scene)
        }
    }
}

/// Why a call between scenes failed: a JSON-RPC error object, the same whether the call
/// stayed in process or crossed a socket.
///
/// - The coordinator's own failures are -32000 with `data.reason`: `not_open`,
///   `not_connected`, `call_timeout`, `reserved_method`, `unknown_scene`, `scene_failed`.
/// - A scene's own errors pass through unchanged.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON-RPC error code; -32000 for a domain failure, whose reason is in ``data``.
    public let code: Int
    /// Human-readable text; never match on it.
    public let message: String
    /// The error's `data` members: `reason` and its values, for a domain failure.
    public let data: [String: JSONValue]
    /// The instance a `not_open` error made from ``RegistryRejection/instanceNotOpen(_:)``
    /// names, carried as a value for whoever explains the error (a coordinator adds the
    /// scene's instances open now). Not part of the error object: errors are equal by
    /// their code, message and data.
    package let notOpenInstance: InstanceID?

    /// Creates an error object from its members.
    public init(code: Int, message: String, data: [String: JSONValue] = [:]) {
        self.init(code: code, message: message, data: data, notOpenInstance: nil)
    }

    private init(code: Int, message: String, data: [String: JSONValue], notOpenInstance: InstanceID?) {
        self.code = code
        self.message = message
        self.data = data
        self.notOpenInstance = notOpenInstance
    }

    /// This error with `more` added to its data and its message replaced: a failure
    /// within a larger request (a transaction's intent, a program's step). It still names
    /// the instance it named.
    package func adding(_ more: [String: JSONValue], message: String) -> SceneError {
        SceneError(code: code, message: message, data: data.merging(more) { _, new in new }, notOpenInstance: notOpenInstance)
    }

    /// Whether two errors have the same code, message and data.
    public static func == (lhs: SceneError, rhs: SceneError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.data == rhs.data
    }

    /// Hashes the code, message and data.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(data)
    }

    /// `data.reason`, when there is one.
    public var reason: ReasonCode? { data["reason"]?.stringValue.map(ReasonCode.init(rawValue:)) }

    public var description: String {
        reason.map { "\(message) (\($0))" } ?? message
    }

    /// -32000 with `data.reason` `reason`.
    public static func domain(reason: ReasonCode, message: String, data: [String: JSONValue] = [:]) -> SceneError {
        var data = data
        data["reason"] = .string(reason.rawValue)
        return SceneError(code: -32000, message: message, data: data)
    }

    /// -32000 `forbidden`: a scene asked for `method`, which a scene may not ask (`message`
    /// says why), or asked it for another instance than its own.
    public static func forbidden(_ method: String, _ message: String) -> SceneError {
        .domain(reason: .forbidden, message: message, data: ["method": .string(method)])
    }

    /// -32000 for a registry reason (`not_open`, `unknown_scene`, …).
    public init(_ reason: some CodedReason) {
        var data = reason.fields
        data["reason"] = .string(reason.code)
        var named: InstanceID?
        if case .instanceNotOpen(let id)? = reason as? RegistryRejection { named = id }
        self.init(code: -32000, message: reason.description, data: data, notOpenInstance: named)
    }

    /// -32601: the scene has no such method.
    public static func methodNotFound(_ method: String) -> SceneError {
        SceneError(code: -32601, message: "Method not found", data: ["method": .string(method)])
    }

    /// -32602: the params do not fit the method.
    public static func invalidParams(_ detail: String) -> SceneError {
        SceneError(code: -32602, message: "Invalid params", data: ["detail": .string(detail)])
    }

    /// `scene_failed`: the scene's handler threw an error that is not a call error.
    public static func sceneFailed(_ detail: String) -> SceneError {
        .domain(reason: .sceneFailed, message: "the scene failed: \(detail)", data: ["detail": .string(detail)])
    }

    /// `not_connected`: the instance is open but nothing answers for it now.
    public static func notConnected(_ instance: InstanceID) -> SceneError {
        .domain(
            reason: .notConnected, message: "\(instance) has no connected process",
            data: ["instance": .string(instance.description)])
    }

    /// `call_timeout`: no answer in time.
    public static func callTimeout(_ instance: InstanceID, method: String, after timeout: Duration) -> SceneError {
        .domain(
            reason: .callTimeout, message: "\(instance) did not answer \(method) within \(timeout)",
            data: ["instance": .string(instance.description), "method": .string(method)])
    }

    /// `reserved_method`: names beginning with `scene.` or `flow.` are the coordinator's.
    public static func reservedMethod(_ method: String) -> SceneError {
        .domain(
            reason: .reservedMethod, message: "\(method): names that begin with scene. or flow. are the coordinator's own",
            data: ["method": .string(method)])
    }

    /// What an error thrown by a scene's handler is answered as: a call error as it is
    /// (the wire's `WireError` is this type), a coded reason as -32000 with its reason,
    /// anything else `scene_failed` with its description.
    public init(thrown error: any Error) {
        switch error {
        case let same as SceneError: self = same
        case let reason as any CodedReason: self.init(reason)
        default: self = .sceneFailed(String(describing: error))
        }
    }
}
