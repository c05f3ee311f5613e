public import SceneJSON

/// One event notification: `{seq, type, …}`.
public struct WireEvent: Hashable, Sendable {
    /// The registry's sequence number.
    public let seq: UInt64
    /// `scene.opened`, `flow.changed`, …
    public let type: String
    /// Every member of the notification's params, `seq` and `type` included.
    public let params: JSONValue

    /// The topic: the part of ``type`` before the dot.
    public var topic: String { String(type.prefix { $0 != "." }) }
}
