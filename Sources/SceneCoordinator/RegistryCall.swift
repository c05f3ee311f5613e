import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

/// What a request does on the registry: its registry function. A method's params type
/// conforms (for a method the registry serves), and the session applies it in its turn.
protocol RegistryCall: Sendable {
    /// Applies the request as far as it goes in this step (see ``RegistryStep``): its
    /// answer now, or once the rest has been awaited.
    ///
    /// - A registry of the app's own routes gets the request's routes decoded from their
    ///   JSON (-32602 when they do not fit), and answers with its routes encoded.
    /// - `scene`: the instance of the scene connection that asks (its flow changes are
    ///   caused `by: scene`, and it is not asked before closing itself); nil for a control
    ///   connection.
    /// - A registry rejection is the step's failure, made the wire's error where the
    ///   answer is written (``WireError/domain(_:)``); what only the wire refuses (params
    ///   that do not fit) is the answer's error.
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer>
}

/// A registry call read from a request's params.
protocol WireRegistryCall: RegistryCall, Decodable {
    /// The params of the requests a busy client sends most, read straight from their
    /// members; nil for anything unusual (a missing or mistyped member), which the decoder
    /// then reads or explains. Members the method does not know are ignored, as the
    /// decoder ignores them.
    static func plain(_ members: [String: JSONValue]) -> Self?
    /// The params of the few requests a busy client sends most, read straight from the
    /// bytes of their `params` object, with no tree on the way; nil for every other method
    /// and for anything unusual, which ``read(_:)`` then reads or explains.
    static func plain(bytes: UnsafeRawBufferPointer) -> Self?
    /// The call `params` hold; -32602 with the path of what does not fit.
    static func read(_ params: JSONValue?) throws(WireError) -> Self
}

extension WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? { nil }
    static func plain(bytes: UnsafeRawBufferPointer) -> Self? { nil }

    static func read(_ params: JSONValue?) throws(WireError) -> Self {
        switch params {
        case nil: if let plain = plain([:]) { return plain }
        case .object(let members)?: if let plain = plain(members) { return plain }
        default: break
        }
        return try WireCodec.decode(Self.self, from: params)
    }
}

/// What a request answers: its result, written straight into the answer's frame, or what
/// only the wire refuses.
typealias WireAnswer = Result<any WireWritable, WireError>

/// The registry call each method's params type makes, for the methods the registry serves.
enum RegistryCalls {
    /// The params types of ``WireCalls/all`` that make registry calls, by method.
    static let byMethod: [WireMethod: any WireRegistryCall.Type] = {
        var calls: [WireMethod: any WireRegistryCall.Type] = [:]
        for spec in WireCalls.all {
            if let call = spec.paramsType as? any WireRegistryCall.Type { calls[spec.method] = call }
        }
        return calls
    }()
}

// The pieces registry functions are made of.
extension RegistryStep where T == WireAnswer {
    /// A request answered in this step: `body`'s result, its wire error, or the rejection.
    static func now(_ body: () throws(CallFailure) -> any WireWritable) -> Self {
        do throws(CallFailure) {
            return .done(.success(.success(try body())))
        } catch {
            switch error {
            case .wire(let error): return .done(.success(.failure(error)))
            case .rejected(let reason): return .done(.failure(reason))
            }
        }
    }

    /// A request the wire refuses before it reaches the registry.
    static func refused(_ error: WireError) -> Self { .done(.success(.failure(error))) }

    /// `step`'s answer: `encode`'s result, or its rejection.
    static func answer<Value>(_ step: RegistryStep<R, Value>, _ encode: @escaping @Sendable (Value) -> any WireWritable) -> Self {
        step.map { result in result.map { value in .success(encode(value)) } }
    }
}

/// Why a request answered in its step failed: the wire refused it, or the registry did.
enum CallFailure: Error {
    case wire(WireError)
    case rejected(RegistryRejection)

    /// `body`, its rejection a ``CallFailure``.
    static func registry<T>(_ body: () throws(RegistryRejection) -> T) throws(CallFailure) -> T {
        do {
            return try body()
        } catch {
            throw .rejected(error)
        }
    }

    /// The instance id `text` names; -32602 naming `field` when it names none.
    static func instance(_ text: String, field: String = "instance") throws(CallFailure) -> InstanceID {
        try wire { () throws(WireError) in try instanceID(text, field: field) }
    }

    /// `body`, its wire error a ``CallFailure``.
    static func wire<T>(_ body: () throws(WireError) -> T) throws(CallFailure) -> T {
        do {
            return try body()
        } catch {
            throw .wire(error)
        }
    }
}

/// The instance id `text` names; -32602 naming `field` when it names none.
func instanceID(_ text: String, field: String = "instance") throws(WireError) -> InstanceID {
    guard let id = InstanceID(text) else {
        throw .invalidParams("\(field): \"\(text)\" is not an instance id (<scene>-<n>)")
    }
    return id
}

extension WireRoutes {
    /// ``decode(_:from:member:)`` within a registry call.
    static func typed<T: Decodable>(_ type: T.Type, from json: some Encodable & Sendable, member: String) throws(CallFailure) -> T {
        try CallFailure.wire { () throws(WireError) in try decode(type, from: json, member: member) }
    }
}
