public import SceneJSON

/// Which input limit a link exceeded.
public enum LinkLimit: String, Hashable, Sendable, CaseIterable {
    /// The URL's length in UTF-8 bytes.
    case urlLength = "url_length"
    /// The number of `/`-separated path segments, before normalisation.
    case pathSegments = "path_segments"
    /// The number of `&`-separated query items.
    case queryItems = "query_items"
}

/// Why a link was refused. Each case has a stable snake_case ``code``.
public enum LinkRejection: CodedReason {
    /// The text is not a URL this engine accepts; `detail` says what is wrong.
    case malformedURL(String)
    /// The scheme is not in the allowlist.
    case schemeNotAllowed(String)
    /// The host is not in the allowlist.
    case hostNotAllowed(String)
    /// The origin carries user-info or an explicit port; `detail` says which.
    case nonCanonicalOrigin(String)
    /// The URL is over one of its input limits.
    case inputLimitExceeded(LinkLimit, limit: Int, actual: Int)
    /// A parameter's value does not convert to what the mapping needs.
    case invalidParameter(name: String, value: String, expected: String)
    /// A mapping refused the link for its own reason.
    case refused(String)

    public var code: String {
        switch self {
        case .malformedURL: return "malformed_url"
        case .schemeNotAllowed: return "scheme_not_allowed"
        case .hostNotAllowed: return "host_not_allowed"
        case .nonCanonicalOrigin: return "non_canonical_origin"
        case .inputLimitExceeded: return "input_limit_exceeded"
        case .invalidParameter: return "invalid_parameter"
        case .refused: return "link_refused"
        }
    }

    public var fields: [String: JSONValue] {
        switch self {
        case .malformedURL(let detail), .nonCanonicalOrigin(let detail), .refused(let detail):
            return ["detail": .string(detail)]
        case .schemeNotAllowed(let scheme):
            return ["detail": .string(scheme)]
        case .hostNotAllowed(let host):
            return ["detail": .string(host)]
        case .inputLimitExceeded(let which, let limit, let actual):
            return ["detail": .string(which.rawValue), "limit": .integer(limit), "actual": .integer(actual)]
        case .invalidParameter(let name, let value, let expected):
            return ["detail": .string(name), "value": .string(value), "expected": .string(expected)]
        }
    }

    public var description: String {
        switch self {
        case .malformedURL(let detail): return "malformed URL: \(detail)"
        case .schemeNotAllowed(let scheme): return "scheme \"\(scheme)\" is not allowed"
        case .hostNotAllowed(let host): return "host \"\(host)\" is not allowed"
        case .nonCanonicalOrigin(let detail): return "non-canonical origin: \(detail)"
        case .inputLimitExceeded(let which, let limit, let actual):
            return "\(which.rawValue) is \(actual), over the limit of \(limit)"
        case .invalidParameter(let name, let value, let expected):
            return "parameter \"\(name)\" = \"\(value)\" is not a valid \(expected)"
        case .refused(let detail): return "refused: \(detail)"
        }
    }
}
