/// Why a byte stream cannot be read as length-prefixed frames. The stream cannot be
/// resynchronised after either, so the connection must end (after an error reply).
public enum FramingError: Error, Hashable, Sendable {
    /// A frame announced a length of zero.
    case emptyFrame
    /// A frame announced `length` bytes, over the maximum.
    case frameTooLarge(length: UInt32, maximum: Int)

    /// The stable reason the wire reports: `empty_frame` or `frame_too_large`.
    public var reason: String {
        switch self {
        case .emptyFrame: return "empty_frame"
        case .frameTooLarge: return "frame_too_large"
        }
    }
}

/// Splits a byte stream into frames: a 4-byte unsigned big-endian length L, then L bytes.
///
/// - Frames may be split across reads, and several may arrive in one read.
/// - L = 0 and L > `maximum` are framing errors, found from the 4 length bytes alone,
///   before any payload is buffered or allocated.
/// - Bytes only: it knows nothing of what the payload means.
public struct FrameDecoder: Sendable {
    /// The largest payload accepted, in bytes.
    public let maximum: Int
    private var pending: [UInt8] = []
    private var failed: FramingError?

    /// A decoder accepting payloads of 1 to `maximum` bytes (default 1 MiB).
    public init(maximum: Int = 1 << 20) {
        self.maximum = maximum
    }

    /// Whether bytes of an unfinished frame are buffered (EOF now would cut a frame).
    public var hasPartialFrame: Bool { !pending.isEmpty }

    /// Feeds `bytes`; calls `frame` with each complete payload, in order.
    ///
    /// - Returns: the framing error that ends the stream, if one was found; every later
    ///   call returns it again and delivers nothing.
    /// - The buffer handed to `frame` is valid only during the call.
    @discardableResult
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, frame: (UnsafeRawBufferPointer) -> Void
    ) -> FramingError? {
        if let failed { return failed }
        if pending.isEmpty {
            // Fast path: parse straight from the caller's buffer, keep only the remainder.
            let used = parse(bytes, frame: frame)
            if failed == nil, used < bytes.count { pending.append(contentsOf: bytes[used...]) }
            return failed
        }
        pending.append(contentsOf: bytes)
        let buffered = pending
        let used = buffered.withUnsafeBytes { parse($0, frame: frame) }
        pending.removeFirst(used)
        return failed
    }

    /// Delivers every complete frame of `bytes`; returns how many bytes were used.
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, frame: (UnsafeRawBufferPointer) -> Void) -> Int {
        var offset = 0
        while bytes.count - offset >= 4 {
            let length = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
            if length == 0 {
                failed = .emptyFrame
                return offset
            }
            if Int(length) > maximum {
                failed = .frameTooLarge(length: length, maximum: maximum)
                return offset
            }
            guard bytes.count - offset - 4 >= Int(length) else { break }
            frame(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 4 + Int(length))]))
            offset += 4 + Int(length)
        }
        return offset
    }

    /// The 4-byte header for a payload of `length` bytes.
    public static func header(length: Int) -> [UInt8] {
        let value = UInt32(length)
        return [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// `payload` with its header, ready to write.
    public static func frame(_ payload: some Collection<UInt8>) -> [UInt8] {
        var bytes = header(length: payload.count)
        bytes.append(contentsOf: payload)
        return bytes
    }
}
