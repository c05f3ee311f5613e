import SceneFlow
public import SceneJSON

/// What one frame's payload is, checked as the protocol's §3.3 says, before any method
/// runs: a pure function of the bytes, so that the server and the fuzzers check alike.
public enum InboundMessage: Hashable, Sendable {
    /// A well-formed request: answer it.
    case request(id: JSONValue, method: String, params: JSONValue?)
    /// A well-formed notification: never answered.
    case notification(method: String, params: JSONValue?)
    /// An answer (`result` or `error`, no `method`): meaningful only where this side sent
    /// requests (a scene connection); elsewhere it is answered `missing method`.
    case response(id: JSONValue?, result: JSONValue?, error: JSONValue?)
    /// Not a valid message: answer `error` with `id` (null when there is none).
    case invalid(id: JSONValue, error: WireError)
    /// A notification with params that are not an object: dropped without an answer.
    case dropped

    /// Checks `payload` in the order of the protocol's §3.3.
    public static func classify(_ payload: UnsafeRawBufferPointer) -> InboundMessage {
        classify(Envelope.scan(payload), of: payload)
    }

    /// Classifies `payload` from its envelope scan (for a caller that scanned it already).
    public static func classify(_ scanned: Result<Envelope, Envelope.Failure>, of payload: UnsafeRawBufferPointer) -> InboundMessage {
        let envelope: Envelope
        switch scanned {
        case .success(let scanned):
            envelope = scanned
        case .failure(.parse(let error)):
            return .invalid(id: .null, error: .parse(error.description))
        case .failure(.batch):
            return .invalid(id: .null, error: .invalidRequest("batches are not supported in protocol v1", reason: .batchNotSupported))
        case .failure(.notAnObject):
            return .invalid(id: .null, error: .invalidRequest("a message must be a JSON object"))
        }
        // A request's id must be a number or a string; anything else is answered with null.
        let id: JSONValue?
        switch envelope.id {
        case .integer?, .double?, .string?:
            id = envelope.id
        case nil:
            id = nil
        default:
            return .invalid(id: .null, error: .invalidRequest("id must be a number or a string"))
        }
        // An invalid request is answered, with id null when it has none (JSON-RPC 2.0 §5).
        guard envelope.version == "2.0" else {
            return .invalid(id: id ?? .null, error: .invalidRequest("jsonrpc must be \"2.0\""))
        }
        if !envelope.hasMethod, envelope.result != nil || envelope.error != nil {
            return .response(
                id: id, result: envelope.result.map { Envelope.value(at: $0, in: payload) },
                error: envelope.error.map { Envelope.value(at: $0, in: payload) })
        }
        guard let method = envelope.method else {
            return .invalid(id: id ?? .null, error: .invalidRequest(envelope.hasMethod ? "method must be a string" : "missing method"))
        }
        var params: JSONValue?
        if let range = envelope.params {
            let value = Envelope.value(at: range, in: payload)
            guard case .object = value else {
                guard let id else { return .dropped }
                return .invalid(id: id, error: .invalidParams("params must be an object"))
            }
            params = value
        }
        guard let id else { return .notification(method: method, params: params) }
        return .request(id: id, method: method, params: params)
    }
}
