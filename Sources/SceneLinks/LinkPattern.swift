public import SceneJSON

/// A path pattern: literal segments, `:name` parameters and a trailing `*name` wildcard.
///
/// - A parameter matches exactly one segment; a wildcard matches the rest of the path,
///   zero or more segments, and must be last.
/// - Names match `[A-Za-z_][A-Za-z0-9_]*` and are unique within a pattern.
/// - Literal segments are percent-decoded once, as URL segments are; a literal that must
///   begin with `:` or `*` is written `%3A…` or `%2A…`.
/// - Empty segments and a trailing slash are normalised away, as in URLs; `.` and `..`
///   are refused (a URL never contains them after normalisation).
public struct LinkPattern: Hashable, Sendable, CustomStringConvertible {
    /// One segment of a pattern.
    public enum Segment: Hashable, Sendable {
        /// Matches this exact (decoded) segment.
        case literal(String)
        /// Matches any one segment, captured under this name.
        case parameter(String)
        /// Matches the rest of the path, captured under this name.
        case wildcard(String)
    }

    /// The pattern as written.
    public let text: String
    /// The parsed segments.
    public let segments: [Segment]

    /// Parses `text`.
    ///
    /// - Throws: ``LinkPatternError`` listing every problem in the pattern.
    public init(_ text: String) throws(LinkPatternError) {
        var problems: [LinkPatternProblem] = []
        var segments: [Segment] = []
        var names = Set<String>()
        let raw = text.split(separator: "/", omittingEmptySubsequences: true)
        for (index, part) in raw.enumerated() {
            if let sigil = part.first, sigil == ":" || sigil == "*" {
                let name = String(part.dropFirst())
                if !LinkPattern.isValidName(name) {
                    problems.append(.invalidParameterName(name))
                } else if !names.insert(name).inserted {
                    problems.append(.duplicateParameterName(name))
                }
                if sigil == "*" {
                    if index != raw.count - 1 { problems.append(.wildcardNotLast(name)) }
                    segments.append(.wildcard(name))
                } else {
                    segments.append(.parameter(name))
                }
                continue
            }
            var literal = String(part)
            let decoded = literal.withUTF8 { bytes in
                Result { () throws(LinkRejection) in try percentDecoded(bytes, in: "pattern") }
            }
            switch decoded {
            case .success(let value):
                if value == "." || value == ".." {
                    problems.append(.dotSegment)
                } else if part.contains(where: { "?#\\ ".contains($0) || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) {
                    problems.append(.invalidCharacter(String(part)))
                }
                segments.append(.literal(value))
            case .failure(let rejection):
                problems.append(.invalidEncoding("\(rejection)"))
            }
        }
        guard problems.isEmpty else { throw LinkPatternError(pattern: text, problems: problems) }
        self.text = text
        self.segments = segments
    }

    /// The parameter names, in order, the wildcard's included.
    public var parameterNames: [String] {
        segments.compactMap { segment in
            switch segment {
            case .literal: return nil
            case .parameter(let name), .wildcard(let name): return name
            }
        }
    }

    /// The wildcard's name, when the pattern ends in one.
    public var wildcardName: String? {
        if case .wildcard(let name) = segments.last { return name }
        return nil
    }

    /// The normalised form: `/` and the segments, with the names as written.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let value): return value
            case .parameter(let name): return ":" + name
            case .wildcard(let name): return "*" + name
            }
        }.joined(separator: "/")
    }

    /// The pattern with names erased: two patterns of the same shape match the same URLs.
    var shape: [ShapeSegment] {
        segments.map { segment in
            switch segment {
            case .literal(let value): return .literal(value)
            case .parameter: return .parameter
            case .wildcard: return .wildcard
            }
        }
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isAlpha(first) || first == UInt8(ascii: "_") else {
            return false
        }
        return name.utf8.allSatisfy { isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }
}

/// A pattern segment with its name erased.
enum ShapeSegment: Hashable, Sendable {
    case literal(String)
    case parameter
    case wildcard
}

/// One thing wrong with a pattern's text.
public enum LinkPatternProblem: CodedReason {
    /// A parameter or wildcard name that is not `[A-Za-z_][A-Za-z0-9_]*`.
    case invalidParameterName(String)
    /// A name used twice in one pattern.
    case duplicateParameterName(String)
    /// A wildcard before the last segment.
    case wildcardNotLast(String)
    /// A literal `.` or `..` segment, which no normalised URL contains.
    case dotSegment
    /// A literal segment whose percent escapes do not decode.
    case invalidEncoding(String)
    /// A literal segment with a character no URL path segment can hold unencoded (`?`,
    /// `#`, a space, a backslash or a control character).
    case invalidCharacter(String)

    public var code: String {
        switch self {
        case .invalidParameterName: return "invalid_parameter_name"
        case .duplicateParameterName: return "duplicate_parameter_name"
        case .wildcardNotLast: return "wildcard_not_last"
        case .dotSegment: return "dot_segment"
        case .invalidEncoding: return "invalid_encoding"
        case .invalidCharacter: return "invalid_character"
        }
    }

    public var description: String {
        switch self {
        case .invalidParameterName(let name):
            return "invalid parameter name \"\(name)\" (expected [A-Za-z_][A-Za-z0-9_]*)"
        case .duplicateParameterName(let name): return "parameter name \"\(name)\" is used twice"
        case .wildcardNotLast(let name): return "wildcard \"*\(name)\" must be the last segment"
        case .dotSegment: return "a \".\" or \"..\" segment can never match a normalised URL"
        case .invalidEncoding(let detail): return detail
        case .invalidCharacter(let segment):
            return "segment \"\(segment)\" holds a character a URL path segment cannot (?, #, space, \\ or a control); percent-encode it"
        }
    }
}

/// Why a pattern's text could not be parsed; lists every problem.
public struct LinkPatternError: CodedReason {
    /// The pattern as written.
    public let pattern: String
    /// Every problem found, in order.
    public let problems: [LinkPatternProblem]

    public var code: String { "invalid_pattern" }

    public var description: String {
        "pattern \"\(pattern)\": " + problems.map(\.description).joined(separator: "; ")
    }
}
