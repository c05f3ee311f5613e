public import SceneCore
public import SceneJSON

/// The params of an `event` notification, written straight into bytes: the same JSON, byte
/// for byte, as ``WireCodec/eventParams(_:)`` gives once written.
///
/// `flow.changed`, the event of every navigation change, is written member by member, with
/// no tree and no sorting of members on the way (its path and queue are most of its bytes);
/// the other events go through the tree. The journal of a durable coordinator writes every
/// event so, and so do the frames sent to subscribers.
public struct EventParams: WireWritable {
    /// The event written.
    public let event: SequencedEvent<JSONValue>

    /// The params of `event`.
    public init(_ event: SequencedEvent<JSONValue>) {
        self.event = event
    }

    public func write(to output: inout [UInt8]) {
        guard case .flowChanged(let id, let path, let queue, let cause) = event.event else {
            WireCodec.eventParams(event).write(to: &output)
            return
        }
        // Members in sorted order, as the tree writes them.
        JSONValue.append(#"{"cause":{"by":"#, to: &output)
        JSONValue.writeQuoted(cause.by.rawValue, to: &output)
        if let intent = cause.intent {
            JSONValue.append(#","intent":"#, to: &output)
            JSONValue.writeQuoted(intent, to: &output)
        }
        JSONValue.append(#"},"instance":"#, to: &output)
        WireCodec.write(id, to: &output)
        JSONValue.append(#","path":"#, to: &output)
        WireCodec.write(path, to: &output)
        JSONValue.append(#","queue":"#, to: &output)
        WireCodec.write(queue, to: &output)
        JSONValue.append(#","seq":"#, to: &output)
        JSONValue.writeInteger(Int(event.seq), to: &output)
        JSONValue.append(#","type":"flow.changed"}"#, to: &output)
    }
}
