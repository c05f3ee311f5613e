/// Why a byte stream cannot be read as length-prefixed frames. The stream cannot be
/// resynchronised after either, so the connection must end (after an error reply).
///
/// The wire's reason for each (`empty_frame`, `frame_too_large`) belongs to the protocol,
/// not the transport: SceneWire maps them.
public enum FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A frame announced a length of zero.
    case emptyFrame
    /// A frame announced `length` bytes, over the maximum.
    case frameTooLarge(length: UInt32, maximum: Int)

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .emptyFrame: return "a frame's length must be at least 1"
        case .frameTooLarge(let length, let maximum): return "a frame of \(length) bytes is over the maximum of \(maximum)"
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
        while bytes.count - offset >= FrameHeader.size {
            let length = FrameHeader.read(bytes, at: offset)
            if length == 0 {
                failed = .emptyFrame
                return offset
            }
            if Int(length) > maximum {
                failed = .frameTooLarge(length: length, maximum: maximum)
                return offset
            }
            let start = offset + FrameHeader.size
            guard bytes.count - start >= Int(length) else { break }
            frame(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(length))]))
            offset = start + Int(length)
        }
        return offset
    }

    /// `payload` with its header, ready to write.
    public static func frame(_ payload: some Collection<UInt8>) -> [UInt8] {
        var bytes = FrameHeader.bytes(length: payload.count)
        bytes.append(contentsOf: payload)
        return bytes
    }
}
