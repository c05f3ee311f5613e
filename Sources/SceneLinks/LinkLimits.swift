/// Bounds on a link's size, checked before any parsing work.
public struct LinkLimits: Hashable, Sendable {
    /// The longest URL accepted, in UTF-8 bytes.
    public var maxURLLength: Int
    /// The most `/`-separated path segments accepted, counted before normalisation.
    public var maxPathSegments: Int
    /// The most `&`-separated query items accepted.
    public var maxQueryItems: Int

    /// Limits with the given bounds; the defaults are 8192 bytes, 128 segments and 256
    /// query items.
    public init(maxURLLength: Int = 8192, maxPathSegments: Int = 128, maxQueryItems: Int = 256) {
        self.maxURLLength = maxURLLength
        self.maxPathSegments = maxPathSegments
        self.maxQueryItems = maxQueryItems
    }

    /// The default limits.
    public static var standard: LinkLimits { LinkLimits() }

    /// What one counting pass over a URL's bytes found.
    struct Census {
        /// `/`-separated path segments (the number of `/` after `scheme://`).
        var segments = 0
        /// `&`-separated query items.
        var queryItems = 0
        /// Where the query's `?` is, or the end of the URL.
        var queryStart = 0
        /// Where the fragment's `#` is, or the end of the URL.
        var fragmentStart = 0
        /// The first space, control character or backslash, if any.
        var forbiddenByte: UInt8?
    }

    /// Counts what the limits bound, in one pass that does no parsing work, and throws
    /// for the first limit exceeded: the length, then the path segments, then the query
    /// items.
    func check(_ bytes: UnsafeBufferPointer<UInt8>) throws(LinkRejection) -> Census {
        if bytes.count > maxURLLength {
            throw .inputLimitExceeded(.urlLength, limit: maxURLLength, actual: bytes.count)
        }
        var census = Census()
        var slashes = 0
        var ampersands = 0
        var queryStart = -1
        var fragmentStart = bytes.count
        var forbidden = -1
        var position = 0
        // One table lookup per byte; most bytes are ordinary (class 0) and cost no more.
        byteClasses.withUnsafeBufferPointer { classes in
            scan: while position < bytes.count {
                switch classes[Int(bytes[position])] {
                case 0:
                    break
                case ByteClass.forbidden:
                    if forbidden < 0 { forbidden = position }
                case ByteClass.slash:
                    if queryStart < 0 { slashes += 1 }
                case ByteClass.ampersand:
                    ampersands += 1
                case ByteClass.question:
                    if queryStart < 0 {
                        queryStart = position
                        ampersands = 0
                    }
                default:
                    fragmentStart = position
                    break scan
                }
                position += 1
            }
        }
        if forbidden < 0, let late = bytes[position...].firstIndex(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) {
            forbidden = late
        }
        // The path starts after "scheme://authority": its segments are the slashes after
        // the first two. Without an authority ("scheme:a/b") every slash counts, and the
        // first segment needs none.
        let colon = bytes.prefix(min(bytes.count, 64)).firstIndex(of: UInt8(ascii: ":")) ?? -1
        let authority = colon >= 0 && colon + 2 < bytes.count && bytes[colon + 1] == UInt8(ascii: "/") && bytes[colon + 2] == UInt8(ascii: "/")
        if authority {
            census.segments = max(0, slashes - 2)
        } else {
            let startsWithSlash = colon >= 0 && colon + 1 < bytes.count && bytes[colon + 1] == UInt8(ascii: "/")
            census.segments = slashes + (startsWithSlash ? 0 : 1)
        }
        census.queryItems = queryStart < 0 ? 0 : ampersands + 1
        census.queryStart = queryStart < 0 ? fragmentStart : queryStart
        census.fragmentStart = fragmentStart
        if forbidden >= 0 { census.forbiddenByte = bytes[forbidden] }
        if census.segments > maxPathSegments {
            throw .inputLimitExceeded(.pathSegments, limit: maxPathSegments, actual: census.segments)
        }
        if census.queryItems > maxQueryItems {
            throw .inputLimitExceeded(.queryItems, limit: maxQueryItems, actual: census.queryItems)
        }
        return census
    }
}

/// The classes of bytes the limit census cares about.
private enum ByteClass {
    static let forbidden: UInt8 = 1
    static let slash: UInt8 = 2
    static let ampersand: UInt8 = 3
    static let question: UInt8 = 4
    static let hash: UInt8 = 5
}

/// The class of every byte value: spaces, controls and backslashes are forbidden.
private let byteClasses: [UInt8] = (0...255).map { value -> UInt8 in
    switch value {
    case 0...0x20, 0x7F, 0x5C: return ByteClass.forbidden
    case 0x2F: return ByteClass.slash
    case 0x26: return ByteClass.ampersand
    case 0x3F: return ByteClass.question
    case 0x23: return ByteClass.hash
    default: return 0
    }
}
