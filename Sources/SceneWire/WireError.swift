public import SceneFlow
public import SceneJSON
public import SceneCore

/// A JSON-RPC error object: `{"code", "message", "data"}` — the same type a scene's call
/// fails with in process (``SceneError``), so that the wire and the registry share one.
///
/// Domain failures are code -32000 with `data.reason`, the stable snake_case reason of the
/// module that owns the rule, and the reason's values as named members of `data`.
public typealias WireError = SceneError

/// The wire's own error objects, beside the ones ``SceneError`` makes (`methodNotFound`,
/// `invalidParams`, `domain(reason:message:data:)`).
extension SceneError {
    /// -32700: the message is not JSON.
    public static func parse(_ detail: String) -> WireError {
        WireError(code: WireCode.parseError, message: "Parse error", data: ["detail": .string(detail)])
    }

    /// -32600: the message is JSON but not a valid request.
    public static func invalidRequest(_ detail: String, reason: String? = nil) -> WireError {
        var data: [String: JSONValue] = ["detail": .string(detail)]
        if let reason { data["reason"] = .string(reason) }
        return WireError(code: WireCode.invalidRequest, message: "Invalid Request", data: data)
    }

    /// -32002: a request before `hello`.
    public static var notInitialized: WireError {
        WireError(code: WireCode.notInitialized, message: "Not initialized", data: ["detail": "send hello first"])
    }

    /// -32000: a domain failure, with its reason and values.
    public static func domain(_ reason: any CodedReason) -> WireError {
        SceneError(reason)
    }

    /// The error as the JSON object the wire carries.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .integer(code), "message": .string(message)]
        if !data.isEmpty { members["data"] = .object(data) }
        return .object(members)
    }

    /// Reads an error object; `nil` when `json` is not one.
    public init?(json: JSONValue) {
        guard let code = json["code"]?.intValue, let message = json["message"]?.stringValue else { return nil }
        self.init(code: code, message: message, data: json["data"]?.objectValue ?? [:])
    }
}

/// The JSON-RPC error codes the protocol uses.
public enum WireCode {
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let notInitialized = -32002
    public static let domain = -32000
}

/// Reasons the wire itself owns (every other reason comes from the module owning its rule).
public enum WireReason {
    public static let emptyFrame = "empty_frame"
    public static let frameTooLarge = "frame_too_large"
    public static let batchNotSupported = "batch_not_supported"
    public static let unsupportedProtocol = "unsupported_protocol"
    public static let alreadyInitialized = "already_initialized"
    public static let forbidden = "forbidden"
    public static let tooManyConnections = "too_many_connections"
    public static let unsupportedRole = "unsupported_role"
    public static let shuttingDown = "shutting_down"
    public static let badToken = "bad_token"
    public static let notConnected = "not_connected"
    public static let callTimeout = "call_timeout"
    public static let reservedMethod = "reserved_method"
}
