import SceneFlow
public import SceneJSON

/// JSON text that was checked already, kept as its bytes: what a relay passes on from one
/// peer to another without building a `JSONValue` and writing it out again. The text
/// goes out exactly as it came in (its key order, spacing and number spelling too).
public struct RawJSON: Hashable, Sendable {
    /// The UTF-8 text of one JSON value.
    public let bytes: [UInt8]

    /// Bytes known to hold one valid JSON value (a range an ``Envelope`` scan checked).
    public init(checked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The compact text of `value`.
    public init(_ value: JSONValue) {
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        self.bytes = bytes
    }

    /// The value, built on demand.
    public var value: JSONValue {
        (try? JSONParser.parse(bytes)) ?? .null
    }

    /// Whether the text is JSON `null` (which a relay treats as absent).
    public var isNull: Bool { bytes.elementsEqual("null".utf8) }
}

extension RawJSON: WireWritable {
    /// Appends the text exactly as it is.
    public func write(to output: inout [UInt8]) {
        output.append(contentsOf: bytes)
    }
}
