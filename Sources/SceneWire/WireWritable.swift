public import SceneJSON

/// A protocol message that writes its own JSON, straight into bytes: the same value its
/// `Encodable` conformance gives, members in the same (sorted) order, but with no encoder
/// and no tree of values on the way. What a coordinator answers goes out this way.
public protocol WireWritable: Sendable {
    /// Appends the message's compact JSON to `output`.
    func write(to output: inout [UInt8])
    /// The message as one written a slice at a time, when it is one; nil by default. A
    /// server asks every answer this, so it is a requirement (a witness-table look-up), not
    /// a dynamic cast.
    var inSlices: (any WireWritableInSlices)? { get }
    /// About how many bytes ``write(to:)`` appends: what a frame reserves before the
    /// message is written into it, so that a long answer is allocated once rather than
    /// copied each time it outgrows its buffer. Too low costs a copy, too high some memory;
    /// 64 by default.
    var writtenSizeEstimate: Int { get }
}

extension WireWritable {
    /// Nil: a message is written whole unless it is ``WireWritableInSlices``.
    public var inSlices: (any WireWritableInSlices)? { nil }

    /// 64 bytes: a short answer.
    public var writtenSizeEstimate: Int { 64 }
}

extension JSONValue: WireWritable {}

/// A message whose one JSON form is its writer: its `Encodable` conformance writes through
/// ``WireWritable/write(to:)`` (and reads the bytes back as a JSON value for the encoder),
/// so what a coordinator writes and what any encoder prints cannot differ.
///
/// A coordinator's answers use the writer directly; the `Encodable` path (an event's params
/// as a JSON value, tools, tests) writes and reads the bytes back, which is no slower than
/// a synthesized encoding into a JSON value (measured: an `opened` event's params, 1.09x).
public protocol WrittenMessage: WireWritable, Encodable {}

extension WrittenMessage {
    /// Encodes the JSON ``WireWritable/write(to:)`` writes.
    public func encode(to encoder: any Encoder) throws {
        var bytes: [UInt8] = []
        write(to: &bytes)
        try JSONParser.parse(bytes).encode(to: encoder)
    }
}

/// A result large enough to be written a slice at a time (one per turn of a server's event
/// loop, so that its other connections are served in between): the `state` of an app with
/// many instances.
public protocol WireWritableInSlices: WireWritable {
    /// How many slices it is written in.
    var sliceCount: Int { get }
    /// Appends slice `index` (`0 ..< sliceCount`); the slices in order are `write(to:)`.
    func writeSlice(_ index: Int, to output: inout [UInt8])
}

extension WireWritableInSlices {
    /// The message itself, which is written a slice at a time.
    public var inSlices: (any WireWritableInSlices)? { self }
}
