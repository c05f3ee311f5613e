/// The length prefix of every frame: 4 bytes, the payload's length as an unsigned
/// big-endian integer. The one place that writes or reads it.
public enum FrameHeader {
    /// The header's size in bytes.
    public static let size = 4

    /// Writes the header for a payload of `length` bytes into `bytes[index..<index + 4]`.
    ///
    /// - `length` must fit in 32 bits.
    @inlinable
    public static func write(length: Int, into bytes: inout [UInt8], at index: Int = 0) {
        precondition(length >= 0 && length <= Int(UInt32.max), "a frame's length fits in 32 bits")
        let value = UInt32(length)
        bytes[index] = UInt8(value >> 24)
        bytes[index + 1] = UInt8(value >> 16 & 0xFF)
        bytes[index + 2] = UInt8(value >> 8 & 0xFF)
        bytes[index + 3] = UInt8(value & 0xFF)
    }

    /// The header for a payload of `length` bytes.
    public static func bytes(length: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        write(length: length, into: &bytes)
        return bytes
    }

    /// Fills in the header of `frame`, whose first ``size`` bytes were reserved for it and
    /// whose payload is the rest.
    @inlinable
    public static func seal(_ frame: inout [UInt8]) {
        write(length: frame.count - size, into: &frame)
    }

    /// The payload length the header at `bytes[offset..<offset + 4]` announces.
    @inlinable
    public static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
