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

    /// The first limit `bytes` exceeds, by counting alone: the length, then the `/`s of
    /// the path, then the `&`s of the query.
    func check(_ bytes: UnsafeBufferPointer<UInt8>) -> LinkRejection? {
        if bytes.count > maxURLLength {
            return .inputLimitExceeded(.urlLength, limit: maxURLLength, actual: bytes.count)
        }
        // The path starts after "scheme://authority"; count from the third slash on.
        var slashes = 0
        var segments = 0
        var queryItems = 0
        var inQuery = false
        for byte in bytes {
            if byte == UInt8(ascii: "#") { break }
            if inQuery {
                if byte == UInt8(ascii: "&") { queryItems += 1 }
            } else if byte == UInt8(ascii: "?") {
                inQuery = true
                queryItems = 1
            } else if byte == UInt8(ascii: "/") {
                slashes += 1
                if slashes > 2 { segments += 1 }
            }
        }
        if segments > maxPathSegments {
            return .inputLimitExceeded(.pathSegments, limit: maxPathSegments, actual: segments)
        }
        if queryItems > maxQueryItems {
            return .inputLimitExceeded(.queryItems, limit: maxQueryItems, actual: queryItems)
        }
        return nil
    }
}
