public import Distributed
import SceneJSON
import SceneSync

/// The arguments of a typed call, by name, in order: the params a typed call carries.
///
/// - In process they stay Swift values, and the callee takes each as it is (no JSON).
/// - Across a socket they are a JSON object: each argument under its label, or under its
///   parameter's name where it has no label (`save(draft:count:)` →
///   `{"draft": …, "count": …}`), so a declared interface's schema checks them and a scene in
///   any language reads them.
struct SceneArguments: Encodable, Sendable {
    /// An argument, under the name the wire gives it.
    struct Member: Sendable {
        let name: String
        let value: any Codable & Sendable
    }

    /// In the order the function declares them (one array: a call records into one
    /// allocation).
    var members: [Member] = []

    init() {}

    /// Arguments with these names and values, in this order.
    init(_ members: [(name: String, value: any Codable & Sendable)]) {
        self.members = members.map { Member(name: $0.name, value: $0.value) }
    }

    /// The arguments as a JSON object, each member encoded as it is.
    func json() throws -> JSONValue {
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(members.count)
        for member in members {
            object[member.name] = try JSONValue.encoded(member.value)
        }
        return .object(object)
    }

    /// The same object as ``json()``.
    func encode(to encoder: any Encoder) throws {
        try json().encode(to: encoder)
    }

    /// Appends the text of ``json()`` (its members sorted by name, a repeated name's last
    /// value kept) without making the object: each member is written as it is encoded.
    func write(to output: inout [UInt8]) throws {
        func write(_ member: Member) throws {
            JSONValue.writeQuoted(member.name, to: &output)
            output.append(UInt8(ascii: ":"))
            try JSONValue.encoded(member.value).write(to: &output)
        }
        output.append(UInt8(ascii: "{"))
        if members.count == 1 {
            try write(members[0])
        } else if members.count > 1 {
            let order = members.indices.sorted { (members[$0].name, $0) < (members[$1].name, $1) }
            var first = true
            for (position, index) in order.enumerated()
            where position + 1 == order.count || members[order[position + 1]].name != members[index].name {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                try write(members[index])
            }
        }
        output.append(UInt8(ascii: "}"))
    }
}

/// Records a typed call's arguments as a ``SceneActorSystem`` sends them: each with the
/// name the wire gives it.
public struct SceneInvocationEncoder: DistributedTargetInvocationEncoder {
    public typealias SerializationRequirement = Codable & Sendable

    var arguments = SceneArguments()

    init() {}

    /// Generic substitutions are not sent: a scene runs the function its own type declares
    /// by the call's name (a generic distributed function is refused).
    public mutating func recordGenericSubstitution<T>(_ type: T.Type) throws {}

    /// Records `argument` under its label, or its parameter's name where it has none.
    public mutating func recordArgument<Value: Codable & Sendable>(_ argument: RemoteCallArgument<Value>) throws {
        arguments.members.append(SceneArguments.Member(name: argument.label ?? argument.name, value: argument.value))
    }

    public mutating func recordErrorType<E: Error>(_ type: E.Type) throws {}

    public mutating func recordReturnType<R: Codable & Sendable>(_ type: R.Type) throws {}

    public mutating func doneRecording() throws {}
}

/// Hands a typed call's arguments to the function a scene runs: each value as it came in
/// process, or decoded from the params' member of its name (a distributed actor among them
/// resolved through the scene's actor system).
public struct SceneInvocationDecoder: DistributedTargetInvocationDecoder, Sendable {
    public typealias SerializationRequirement = Codable & Sendable

    private enum Source {
        case values([SceneArguments.Member])
        case json([String: JSONValue], keys: [String])
    }

    private let source: Source
    private let method: String
    /// What a distributed actor among the arguments is resolved with.
    private let system: SceneActorSystem
    private var index = 0

    /// The arguments of a call of `method` (the function `entry`) in `params`.
    ///
    /// - Throws: -32602 when the params are not an object, or the method has more than one
    ///   parameter without a label (their members cannot be told apart).
    init(_ params: ScenePayload, method: String, entry: DistributedFunctions.Entry, system: SceneActorSystem) throws(SceneError) {
        self.method = method
        self.system = system
        if let arguments = params.value(as: SceneArguments.self) {
            source = .values(arguments.members)
            return
        }
        guard case .object(let members) = try params.json() else {
            throw .invalidParams("\(method) takes its arguments as an object keyed by their names")
        }
        // Each parameter is the member of its label (the common case, checked first); a
        // parameter without one is the one member no label names.
        if let keys = entry.keys {
            source = .json(members, keys: keys)
            return
        }
        let labels = entry.labels
        let named = Set(labels.compactMap { $0 })
        let unnamed = members.keys.filter { !named.contains($0) }
        var keys: [String] = []
        for label in labels {
            if let label {
                keys.append(label)
                continue
            }
            guard labels.count(where: { $0 == nil }) == 1, unnamed.count == 1 else {
                throw .invalidParams(
                    "\(method): an argument without a label is the one member no label names; "
                        + (unnamed.isEmpty ? "there is none" : "found \(unnamed.sorted())"))
            }
            keys.append(unnamed[0])
        }
        source = .json(members, keys: keys)
    }

    public mutating func decodeGenericSubstitutions() throws -> [any Any.Type] { [] }

    public mutating func decodeNextArgument<Argument: Codable & Sendable>() throws -> Argument {
        defer { index += 1 }
        switch source {
        case .values(let values):
            guard index < values.count, let value = values[index].value as? Argument else {
                throw SceneError.invalidParams("\(method): argument \(index + 1) is not a \(Argument.self)")
            }
            return value
        case .json(let members, let keys):
            guard index < keys.count, let member = members[keys[index]] else {
                throw SceneError.invalidParams("\(method): no argument \"\(index < keys.count ? keys[index] : "\(index + 1)")\"")
            }
            if let primitive = member.primitive(as: Argument.self) { return primitive }
            do {
                return try member.decoded(as: Argument.self, context: system)
            } catch {
                throw SceneError.invalidParams("\(method): \(keys[index]): \(error)")
            }
        }
    }

    public mutating func decodeErrorType() throws -> (any Any.Type)? { nil }

    public mutating func decodeReturnType() throws -> (any Any.Type)? { nil }
}

/// Takes what a scene's distributed function returned or threw, as the call's answer.
public final class SceneResultHandler: DistributedTargetInvocationResultHandler, Sendable {
    public typealias SerializationRequirement = Codable & Sendable

    private let answer = Locked<Result<ScenePayload, SceneError>?>(nil)

    init() {}

    /// What the function answered: its value, `null` for none, or its error as a call
    /// error (``SceneError/init(thrown:)``).
    var result: Result<ScenePayload, SceneError> {
        answer.withLock { $0 } ?? .failure(.sceneFailed("the function did not answer"))
    }

    public func onReturn<Success: Codable & Sendable>(value: Success) async throws {
        answer.withLock { $0 = .success(ScenePayload(value)) }
    }

    public func onReturnVoid() async throws {
        answer.withLock { $0 = .success(ScenePayload(json: .null)) }
    }

    public func onThrow<Err: Error>(error: Err) async throws {
        answer.withLock { $0 = .failure(SceneError(thrown: error)) }
    }
}
