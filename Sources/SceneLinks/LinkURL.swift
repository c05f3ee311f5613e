/// A deep link, parsed and normalised by hand: `scheme://host/path?query#fragment`.
///
/// Parsing rules:
/// - The scheme is `ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")` and must be followed by
///   `//` and a host. Scheme and host are lowercased.
/// - The host is ASCII letters, digits, `-`, `.` and `_`. User-info (`user@`) or a port
///   (`:8080`) is refused as a non-canonical origin.
/// - The path is split on literal `/` only, then each segment is percent-decoded once,
///   so `%2F` stays inside its segment and decodes to `/`.
/// - Dot segments (`.` and `..`, also when percent-encoded) are removed as RFC 3986 §5.2.4
///   says; then empty segments are dropped, so `/a//b/` and `/a/b` are the same path.
/// - The query is split on `&`, each item on its first `=`; names and values are
///   percent-decoded once (`+` stays a plus). Items with an empty name are skipped.
/// - The fragment is ignored.
/// - Spaces, control characters (raw or percent-encoded), backslashes, malformed
///   percent escapes and percent escapes that do not decode to UTF-8 are refused.
public struct LinkURL: Hashable, Sendable {
    /// The scheme, lowercased.
    public let scheme: String
    /// The host, lowercased.
    public let host: String
    /// The normalised, decoded path segments.
    public let segments: [String]
    /// The decoded query items, in order; a name may repeat.
    public let queryItems: [(name: String, value: String)]

    /// The normalised path: `/` followed by the segments joined with `/`.
    public var path: String { "/" + segments.joined(separator: "/") }

    /// A URL from its parts, as the parser would produce them.
    public init(
        scheme: String, host: String, segments: [String],
        queryItems: [(name: String, value: String)] = []
    ) {
        self.scheme = scheme
        self.host = host
        self.segments = segments
        self.queryItems = queryItems
    }

    /// Parses `text`, checking `limits` first.
    ///
    /// - Throws: ``LinkRejection/inputLimitExceeded(_:limit:actual:)`` before any parsing,
    ///   ``LinkRejection/malformedURL(_:)`` or ``LinkRejection/nonCanonicalOrigin(_:)``.
    public init(parsing text: String, limits: LinkLimits = .standard) throws(LinkRejection) {
        var text = text
        let result = text.withUTF8 { bytes -> Result<LinkURL, LinkRejection> in
            if let exceeded = limits.check(bytes) { return .failure(exceeded) }
            var parser = URLParser(bytes: bytes)
            return parser.parse()
        }
        self = try result.get()
    }

    public static func == (lhs: LinkURL, rhs: LinkURL) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.segments == rhs.segments
            && lhs.queryItems.elementsEqual(rhs.queryItems, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(segments)
        for item in queryItems {
            hasher.combine(item.name)
            hasher.combine(item.value)
        }
    }
}

extension LinkURL: CustomStringConvertible {
    /// The normalised URL (decoded segments and query items, not re-encoded).
    public var description: String {
        var text = "\(scheme)://\(host)\(path)"
        if !queryItems.isEmpty {
            text += "?" + queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        }
        return text
    }
}

/// The byte-level parser behind ``LinkURL/init(parsing:limits:)``.
struct URLParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parse() -> Result<LinkURL, LinkRejection> {
        // Refuse what no canonical link contains anywhere: spaces, controls, backslashes.
        for byte in bytes where byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
            let what = byte == UInt8(ascii: " ") ? "a space" : byte == UInt8(ascii: "\\") ? "a backslash" : "a control character"
            return .failure(.malformedURL("contains \(what)"))
        }
        guard let scheme = parseScheme() else {
            return .failure(.malformedURL("missing or invalid scheme"))
        }
        guard consume("/"), consume("/") else {
            return .failure(.malformedURL("expected \"//\" and a host after \"\(scheme):\""))
        }
        let host: String
        switch parseHost() {
        case .success(let parsed): host = parsed
        case .failure(let rejection): return .failure(rejection)
        }
        let pathStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
            index += 1
        }
        let pathEnd = index
        var queryRange: Range<Int>?
        if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
            let start = index + 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "#") { index += 1 }
            queryRange = start..<index
        }
        do {
            let segments = try parsePath(pathStart..<pathEnd)
            let query = try queryRange.map(parseQuery) ?? []
            return .success(LinkURL(scheme: scheme, host: host, segments: segments, queryItems: query))
        } catch {
            return .failure(error)
        }
    }

    private mutating func consume(_ ascii: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: ascii) else { return false }
        index += 1
        return true
    }

    private mutating func parseScheme() -> String? {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            let byte = bytes[index]
            let valid = isAlpha(byte) || (index > start && (isDigit(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
            if !valid { return nil }
            index += 1
        }
        guard index > start, index < bytes.count else { return nil }
        let scheme = lowercased(start..<index)
        index += 1  // ":"
        return scheme
    }

    private mutating func parseHost() -> Result<String, LinkRejection> {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"),
            bytes[index] != UInt8(ascii: "#")
        {
            index += 1
        }
        let authority = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if authority.contains(UInt8(ascii: "@")) {
            return .failure(.nonCanonicalOrigin("user-info is not allowed in a link"))
        }
        if authority.contains(UInt8(ascii: ":")) {
            return .failure(.nonCanonicalOrigin("an explicit port is not allowed in a link"))
        }
        if authority.isEmpty { return .failure(.malformedURL("missing host")) }
        for byte in authority
        where !(isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_"))
        {
            return .failure(.malformedURL("invalid character in host"))
        }
        return .success(lowercased(start..<index))
    }

    private func parsePath(_ range: Range<Int>) throws(LinkRejection) -> [String] {
        var segments: [String] = []
        var start = range.lowerBound
        // A path starts with "/"; skip it so that "/a" is one segment, not "" and "a".
        if start < range.upperBound, bytes[start] == UInt8(ascii: "/") { start += 1 }
        guard start < range.upperBound else { return [] }
        var raw: [Range<Int>] = []
        var cursor = start
        while cursor <= range.upperBound {
            if cursor == range.upperBound || bytes[cursor] == UInt8(ascii: "/") {
                raw.append(start..<cursor)
                start = cursor + 1
            }
            cursor += 1
        }
        var hasDotOrEmpty = false
        segments.reserveCapacity(raw.count)
        for segment in raw {
            let value = try decode(segment, what: "path")
            if value.isEmpty || value == "." || value == ".." { hasDotOrEmpty = true }
            segments.append(value)
        }
        return hasDotOrEmpty ? removingDotSegments(segments) : segments
    }

    private func parseQuery(_ range: Range<Int>) throws(LinkRejection) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        var start = range.lowerBound
        var cursor = start
        while cursor <= range.upperBound {
            if cursor == range.upperBound || bytes[cursor] == UInt8(ascii: "&") {
                if cursor > start {
                    var equals = start
                    while equals < cursor, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                    let name = try decode(start..<equals, what: "query")
                    let value = equals < cursor ? try decode((equals + 1)..<cursor, what: "query") : ""
                    if !name.isEmpty { items.append((name, value)) }
                }
                start = cursor + 1
            }
            cursor += 1
        }
        return items
    }

    private func decode(_ range: Range<Int>, what: String) throws(LinkRejection) -> String {
        try percentDecoded(UnsafeBufferPointer(rebasing: bytes[range]), in: what)
    }

    private func lowercased(_ range: Range<Int>) -> String {
        String(decoding: bytes[range].lazy.map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// Percent-decodes `raw` once; the result must be UTF-8 without control characters.
/// `part` names where the bytes came from, for the error.
func percentDecoded(_ raw: UnsafeBufferPointer<UInt8>, in part: String) throws(LinkRejection) -> String {
    guard raw.contains(UInt8(ascii: "%")) else {
        return String(decoding: raw, as: UTF8.self)
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(raw.count)
    var position = 0
    while position < raw.count {
        let byte = raw[position]
        if byte == UInt8(ascii: "%") {
            guard position + 2 < raw.count, let high = hexValue(raw[position + 1]),
                let low = hexValue(raw[position + 2])
            else {
                throw .malformedURL("invalid percent escape in the \(part)")
            }
            let value = high << 4 | low
            if value < 0x20 || value == 0x7F {
                throw .malformedURL("percent-encoded control character in the \(part)")
            }
            decoded.append(value)
            position += 3
        } else {
            decoded.append(byte)
            position += 1
        }
    }
    guard let string = String(validating: decoded, as: UTF8.self) else {
        throw .malformedURL("percent escapes in the \(part) are not UTF-8")
    }
    return string
}

/// Removes `.` and `..` segments (RFC 3986 §5.2.4), then empty segments.
func removingDotSegments(_ segments: [String]) -> [String] {
    var output: [String] = []
    output.reserveCapacity(segments.count)
    for segment in segments {
        switch segment {
        case ".":
            continue
        case "..":
            // Empty segments count here ("/a//../b" is "/a/b"), as in the RFC's algorithm.
            if !output.isEmpty { output.removeLast() }
        default:
            output.append(segment)
        }
    }
    return output.filter { !$0.isEmpty }
}

@inline(__always) func isAlpha(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || isUpper(byte)
}

@inline(__always) func isUpper(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

@inline(__always) func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}
