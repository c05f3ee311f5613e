package import SceneJSON

/// A value a scene's instances may be opened with: anything `Codable` (it crosses a socket
/// as JSON, and is compared as JSON to pick a per-value scene's instance).
public typealias SceneValue = Codable & Hashable & Sendable

/// The value of a scene opened with none.
public struct NoValue: SceneValue {
    /// No value.
    public init() {}
}

/// A scene, named by its id and typed by the value its instances are opened with:
/// declared once, used everywhere a scene is named.
///
/// ```swift
/// extension SceneID where Value == String {
///     static let viewer: Self = "viewer"          // one instance per document id
/// }
/// extension SceneID where Value == NoValue {
///     static let main: Self = "main"
/// }
/// let id = try await registry.scenes.open(.viewer, value: document.id)
/// ```
///
/// The id is what the manifest and the wire say; the value type is the program's promise
/// of what it opens the scene with.
public struct SceneID<Value: SceneValue>: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The scene's id, as declared.
    public let id: String

    /// The scene declared as `id`.
    public init(_ id: String) {
        self.id = id
    }

    /// The scene declared as the literal.
    public init(stringLiteral id: String) {
        self.id = id
    }

    /// The id.
    public var description: String { id }

    /// `value` as the registry keeps it: none for ``NoValue``, else its JSON.
    ///
    /// - Throws: `scene_failed` when the value cannot be JSON (a non-finite number).
    package static func json(_ value: Value) throws(SceneError) -> JSONValue? {
        if Value.self == NoValue.self { return nil }
        return try ScenePayload(value).json()
    }
}

/// A method a scene answers, named and typed by its params and its result: declared once,
/// used by whoever calls it and by the behaviour that answers it.
///
/// ```swift
/// extension SceneMethod where Params == Int, Answer == Int {
///     static let add: Self = "add"
/// }
/// let total = try await registry.scenes.call(.add, 5, on: .instance(counter))   // an Int
/// ```
public struct SceneMethod<Params: Codable & Sendable, Answer: Codable & Sendable>: Hashable, Sendable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The method's name, as the wire carries it.
    public let name: String

    /// The method called `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The method called by the literal.
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The name.
    public var description: String { name }

    /// A call of this method with `params`.
    public func call(_ params: Params) -> SceneCall {
        SceneCall(method: name, params: ScenePayload(params))
    }

    /// `result` as this method's answer.
    public func answer(_ result: Answer) -> ScenePayload {
        ScenePayload(result)
    }
}

extension SceneCall {
    /// This call's params when it is a call of `method`; nil when it is a call of another
    /// method (so a behaviour tries its methods in turn).
    ///
    /// - Throws: -32602 when it is a call of `method` whose params do not fit `Params`.
    public func params<Params, Answer>(of method: SceneMethod<Params, Answer>) throws(SceneError) -> Params? {
        guard self.method == method.name else { return nil }
        return try params.decode(Params.self)
    }
}

/// What a presented scene answered: the instance that finished, and its result.
public struct Presented<Answer: Sendable>: Sendable {
    /// The instance that was presented (dismissed by now).
    public let instance: InstanceID
    /// What it finished with.
    public let result: Answer

    /// A presented answer from its members.
    public init(instance: InstanceID, result: Answer) {
        self.instance = instance
        self.result = result
    }
}

extension Presented: Equatable where Answer: Equatable {}
extension Presented: Hashable where Answer: Hashable {}
