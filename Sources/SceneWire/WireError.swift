public import SceneFlow
public import SceneCore

/// A JSON-RPC error object: `{"code", "message", "data"}`.
///
/// Domain failures are code -32000 with `data.reason`, the stable snake_case reason of the
/// module that owns the rule, and the reason's values as named members of `data`.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let message: String
    public let data: [String: JSONValue]

    public init(code: Int, message: String, data: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The `data.reason`, when there is one.
    public var reason: String? { data["reason"]?.stringValue }

    public var description: String {
        reason.map { "\(message) (\($0))" } ?? message
    }

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

    /// -32601: no such method.
    public static func methodNotFound(_ method: String) -> WireError {
        WireError(code: WireCode.methodNotFound, message: "Method not found", data: ["method": .string(method)])
    }

    /// -32602: the params do not fit the method.
    public static func invalidParams(_ detail: String) -> WireError {
        WireError(code: WireCode.invalidParams, message: "Invalid params", data: ["detail": .string(detail)])
    }

    /// -32002: a request before `hello`.
    public static var notInitialized: WireError {
        WireError(code: WireCode.notInitialized, message: "Not initialized", data: ["detail": "send hello first"])
    }

    /// -32000: a domain failure, with its reason and values.
    public static func domain(_ reason: any CodedReason) -> WireError {
        var data = reason.fields
        data["reason"] = .string(reason.code)
        return WireError(code: WireCode.domain, message: reason.description, data: data)
    }

    /// -32000 with a reason the wire itself owns (`forbidden`, `unsupported_protocol`, …).
    public static func domain(reason: String, message: String, data: [String: JSONValue] = [:]) -> WireError {
        var data = data
        data["reason"] = .string(reason)
        return WireError(code: WireCode.domain, message: message, data: data)
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

extension WireError: SceneErrorConvertible {
    /// The same error object, for a scene's handler to throw.
    public var sceneError: SceneError { SceneError(code: code, message: message, data: data) }

    /// The error object a call between scenes failed with.
    public init(_ error: SceneError) {
        self.init(code: error.code, message: error.message, data: error.data)
    }
}
