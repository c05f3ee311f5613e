import SceneFlow
public import SceneJSON
public import SceneCore
public import SceneSocket

/// A JSON-RPC error object: `{"code", "message", "data"}` — the same type a scene's call
/// fails with in process (`SceneError`), so that the wire and the registry share one.
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
    public static func invalidRequest(_ detail: String, reason: ReasonCode? = nil) -> WireError {
        var data: [String: JSONValue] = ["detail": .string(detail)]
        if let reason { data["reason"] = .string(reason.rawValue) }
        return WireError(code: WireCode.invalidRequest, message: "Invalid Request", data: data)
    }

    /// -32600 for a stream that broke the framing rules, with its reason (`empty_frame`,
    /// `frame_too_large`) and what is wrong as `detail`; the connection is then closed.
    public static func framing(_ error: FramingError) -> WireError {
        switch error {
        case .emptyFrame: return invalidRequest(error.description, reason: .emptyFrame)
        case .frameTooLarge: return invalidRequest(error.description, reason: .frameTooLarge)
        }
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
    /// Parse error: the payload is not JSON; answered with `id` null.
    public static let parseError = -32700
    /// Invalid Request: JSON but not a valid request, a framing error, a batch, or a
    /// second `hello`.
    public static let invalidRequest = -32600
    /// Method not found: a method v1 does not have (`data.method`).
    public static let methodNotFound = -32601
    /// Invalid params: `params` not an object, or not the method's shape (`data.detail`).
    public static let invalidParams = -32602
    /// Not initialized: a request before a successful `hello`, even for an unknown method.
    public static let notInitialized = -32002
    /// Domain failure: a rule refused the request; `data.reason` says which.
    public static let domain = -32000
}

/// The reasons the wire itself owns (every other reason comes from the module that owns its
/// rule: ``ReasonCode/closeVetoed`` and the registry's, in SceneCore).
extension ReasonCode {
    /// -32600: a frame announced a length of 0; the connection is then closed.
    public static let emptyFrame: ReasonCode = "empty_frame"
    /// -32600: a frame announced more than the maximum length; the connection is then
    /// closed.
    public static let frameTooLarge: ReasonCode = "frame_too_large"
    /// -32600: a top-level array; none of its elements is executed.
    public static let batchNotSupported: ReasonCode = "batch_not_supported"
    /// `hello` with no version in common (`data.supported`); the connection is then closed.
    public static let unsupportedProtocol: ReasonCode = "unsupported_protocol"
    /// -32600: `hello` after a successful `hello`; the connection stays initialised.
    public static let alreadyInitialized: ReasonCode = "already_initialized"
    /// A connection over the maximum; answered with `id` null, then closed.
    public static let tooManyConnections: ReasonCode = "too_many_connections"
    /// `hello` with a role that is neither `control` nor `scene`; the client may say
    /// `hello` again.
    public static let unsupportedRole: ReasonCode = "unsupported_role"
    /// A request still waiting for the registry when the coordinator stopped.
    public static let shuttingDown: ReasonCode = "shutting_down"
    /// `hello` as a scene with a token that is missing, never given out, spent, expired or
    /// revoked; the connection is then closed.
    public static let badToken: ReasonCode = "bad_token"
    /// `subscribe` with a `since` older than the oldest event kept (`data.oldest`), or
    /// newer than the last one emitted (a coordinator that started afresh).
    public static let historyGone: ReasonCode = "history_gone"
    /// `session.*` on a coordinator serving without a state file (sessions live beside it).
    public static let noStateFile: ReasonCode = "no_state_file"
    /// `session.load` or `session.delete` of a name with no saved session (`data.name`).
    public static let unknownSession: ReasonCode = "unknown_session"
    /// `session.load` of a file that is not a session of this app (`data.detail`).
    public static let invalidSession: ReasonCode = "invalid_session"
    /// `session.save` could not write the session's file (`data.detail`).
    public static let cannotSave: ReasonCode = "cannot_save"
    /// `session.delete` could not remove the session's file (`data.detail`).
    public static let cannotDelete: ReasonCode = "cannot_delete"
    /// `token.revoke` of an id with no token (never issued, spent, expired or revoked
    /// already; `data.id`).
    public static let unknownToken: ReasonCode = "unknown_token"
    /// `hello` with an attach token for an instance that has its process already (a
    /// single scene's one instance, a per-value scene's instance of that value, or the
    /// instance of a re-attach token taken back by another; `data.instance`).
    public static let alreadyAttached: ReasonCode = "already_attached"
}
