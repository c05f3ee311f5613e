/// A deep link, parsed and normalised by hand: `scheme://host/path?query#fragment`.
///
/// Parsing rules:
/// - The scheme is `ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")`, followed by `//` and a
///   host (`scheme://host/path`). The host may be empty (`myapp:///profile/7`), and the
///   `//` may be left out altogether (`myapp:profile/7`): then there is no host, only a
///   path. Whether a link without a host is allowed is the origin policy's call (a web
///   link never is). Scheme and host are lowercased.
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
    public let queryItems: [LinkParameters.Item]

    /// The normalised path: `/` followed by the segments joined with `/`.
    public var path: String { "/" + segments.joined(separator: "/") }

    /// A URL from its parts, as the parser would produce them.
    public init(
        scheme: String, host: String, segments: [String],
        queryItems: [LinkParameters.Item] = []
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
        let parse = { (bytes: UnsafeBufferPointer<UInt8>) -> Result<LinkURL, LinkRejection> in
            var parser = URLParser(bytes: bytes)
            return Result { () throws(LinkRejection) in try parser.parse(limits: limits) }
        }
        let result = text.utf8.withContiguousStorageIfAvailable(parse) ?? Array(text.utf8).withUnsafeBufferPointer(parse)
        self = try result.get()
    }

    public static func == (lhs: LinkURL, rhs: LinkURL) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.segments == rhs.segments
            && lhs.queryItems == rhs.queryItems
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(segments)
        hasher.combine(queryItems)
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

    mutating func parse(limits: LinkLimits) throws(LinkRejection) -> LinkURL {
        let census = try limits.check(bytes)
        // Refuse what no canonical link contains anywhere: spaces, controls, backslashes.
        if let byte = census.forbiddenByte {
            let what = byte == UInt8(ascii: " ") ? "a space" : byte == UInt8(ascii: "\\") ? "a backslash" : "a control character"
            throw .malformedURL("contains \(what)")
        }
        guard let scheme = parseScheme() else {
            throw .malformedURL("missing or invalid scheme")
        }
        // `scheme://host…`, `scheme:///path` (an empty host) or `scheme:path` (no authority).
        let host: String
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            host = try parseHost()
        } else {
            host = ""
        }
        guard index <= census.queryStart else {
            // A "?" or "#" inside the authority: the host parser stopped before it.
            throw .malformedURL("invalid authority")
        }
        let segments = try parsePath(upTo: census.queryStart, expecting: census.segments)
        var query: [LinkParameters.Item] = []
        if census.queryStart < census.fragmentStart {
            index = census.queryStart + 1
            query = try parseQuery(upTo: census.fragmentStart, expecting: census.queryItems)
        }
        return LinkURL(scheme: scheme, host: host, segments: segments, queryItems: query)
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

    private mutating func parseHost() throws(LinkRejection) -> String {
        let start = index
        var valid = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") {
                throw .nonCanonicalOrigin("user-info is not allowed in a link")
            }
            if byte == UInt8(ascii: ":") {
                throw .nonCanonicalOrigin("an explicit port is not allowed in a link")
            }
            if !(isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_"))
            {
                valid = false
            }
            index += 1
        }
        // User-info and ports are reported first: they are the more specific refusal.
        if !valid { throw .malformedURL("invalid character in host") }
        return lowercased(start..<index)
    }

    /// Splits the path on `/`, decodes each segment, and removes dot and empty segments
    /// (RFC 3986 §5.2.4: empty segments take part in dot removal, then are dropped).
    private mutating func parsePath(upTo end: Int, expecting count: Int) throws(LinkRejection) -> [String] {
        var segments: [String] = []
        segments.reserveCapacity(count)
        var sawEmpty = false
        // A path starts with "/"; skip it so that "/a" is one segment, not "" and "a".
        if index < end, bytes[index] == UInt8(ascii: "/") { index += 1 }
        guard index < end else { return [] }
        var start = index
        while true {
            let atEnd = index == end
            if atEnd || bytes[index] == UInt8(ascii: "/") {
                let value = try percentDecoded(UnsafeBufferPointer(rebasing: bytes[start..<index]), in: "path")
                switch value {
                case ".":
                    break
                case "..":
                    if !segments.isEmpty { segments.removeLast() }
                default:
                    if value.isEmpty { sawEmpty = true }
                    segments.append(value)
                }
                if atEnd { break }
                start = index + 1
            }
            index += 1
        }
        if sawEmpty { segments.removeAll(where: \.isEmpty) }
        return segments
    }

    private mutating func parseQuery(upTo end: Int, expecting count: Int) throws(LinkRejection)
        -> [LinkParameters.Item]
    {
        var items: [LinkParameters.Item] = []
        items.reserveCapacity(count)
        var start = index
        var equals = -1
        while true {
            let atEnd = index == end
            if atEnd || bytes[index] == UInt8(ascii: "&") {
                if index > start {
                    let nameEnd = equals >= 0 ? equals : index
                    let name = try percentDecoded(UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), in: "query")
                    let value = equals >= 0
                        ? try percentDecoded(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<index]), in: "query")
                        : ""
                    if !name.isEmpty { items.append(LinkParameters.Item(name: name, value: value)) }
                }
                if atEnd { break }
                start = index + 1
                equals = -1
            } else if equals < 0, bytes[index] == UInt8(ascii: "=") {
                equals = index
            }
            index += 1
        }
        return items
    }

    private func lowercased(_ range: Range<Int>) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        guard raw.contains(where: isUpper) else { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: raw.map { isUpper($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
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
