package import SceneCore
public import SceneJSON
import SceneWire

/// One event notification: `{seq, type, …}`.
public struct WireEvent: Hashable, Sendable {
    /// The registry's sequence number.
    public let seq: UInt64
    /// `scene.opened`, `flow.changed`, …
    public let type: String
    /// Every member of the notification's params, `seq` and `type` included.
    public let params: JSONValue

    init(seq: UInt64, type: String, params: JSONValue) {
        self.seq = seq
        self.type = type
        self.params = params
    }

    /// The event a registry emitted, as a subscription would receive it.
    package init(_ event: SequencedEvent<JSONValue>) {
        self.seq = event.seq
        self.type = event.event.type
        self.params = WireCodec.eventParams(event)
    }

    /// The topic: the part of ``type`` before the dot.
    public var topic: String { String(type.prefix { $0 != "." }) }
}
