public import SceneCore
public import SceneJSON
import SceneWire

/// One event notification: `{seq, type, …}`.
public struct WireEvent: Hashable, Sendable {
    /// The registry's sequence number.
    public let seq: UInt64
    /// `scene.opened`, `flow.changed`, …
    public let type: String

    /// What kind of event it is; nil for a type this client does not know (a newer
    /// coordinator's).
    public var kind: EventKind? { EventKind(rawValue: type) }

    /// The instance it concerns, when it names one (`params.instance`, an id or an
    /// instance object).
    public var instance: InstanceID? {
        switch params["instance"] {
        case .string(let id)?: return InstanceID(id)
        case .object(let object)?: return object["id"]?.stringValue.flatMap(InstanceID.init)
        default: return nil
        }
    }
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
