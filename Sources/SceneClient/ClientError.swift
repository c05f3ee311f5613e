public import SceneCore
public import SceneJSON
public import SceneWire

/// Why a call through a ``SceneConnection`` failed.
public enum ClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing answers at the socket path (or it cannot be reached).
    case cannotConnect(path: String, detail: String)
    /// The connection ended before the answer came.
    case connectionClosed(String)
    /// The coordinator answered with an error.
    case remote(WireError)
    /// The answer did not have the expected shape.
    case invalidResponse(String)
    /// No answer within the time allowed.
    case timedOut(method: String, seconds: Double)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let detail): return "cannot connect to \(path): \(detail)"
        case .connectionClosed(let reason): return "the connection closed: \(reason)"
        case .remote(let error): return error.description
        case .invalidResponse(let detail): return "unexpected answer: \(detail)"
        case .timedOut(let method, let seconds): return "\(method) got no answer within \(seconds) s"
        }
    }

    /// The remote error's `data.reason`, when the coordinator refused the request.
    public var reason: ReasonCode? {
        if case .remote(let error) = self { return error.reason }
        return nil
    }

    /// The same failure as a `SceneError`, as a registry or a behaviour would see it:
    /// the coordinator's refusal as it sent it; a `scene.call` whose answer did not come in
    /// time `call_timeout` (with `method` and `seconds`); an answer of the wrong shape
    /// `scene_failed`; any other request the connection could not answer `not_connected`.
    public var sceneError: SceneError {
        switch self {
        case .remote(let error):
            return error
        case .timedOut(let method, let seconds) where method == WireMethod.sceneCall.rawValue:
            return .domain(reason: .callTimeout, message: description, data: ["method": .string(method), "seconds": .double(seconds)])
        case .invalidResponse(let detail):
            return .sceneFailed(detail)
        case .timedOut, .cannotConnect, .connectionClosed:
            return .domain(reason: .notConnected, message: description)
        }
    }
}
