public import SceneFlow

/// What one scene instance is, as a value: the wire's instance object.
///
/// Encodes as `{"id", "scene", "kind", "value", "phase", "focused", "path", "pushedFrom"}`,
/// with `value` and `pushedFrom` null when absent.
public struct InstanceInfo<R: Route>: Hashable, Sendable {
    public let id: InstanceID
    public let scene: String
    public let kind: SceneKind
    public let value: JSONValue?
    public let phase: ScenePhase
    public let focused: Bool
    public let path: [RouteStep<R>]
    public let pushedFrom: InstanceID?

    public init(
        id: InstanceID, scene: String, kind: SceneKind, value: JSONValue?, phase: ScenePhase,
        focused: Bool, path: [RouteStep<R>], pushedFrom: InstanceID?
    ) {
        self.id = id
        self.scene = scene
        self.kind = kind
        self.value = value
        self.phase = phase
        self.focused = focused
        self.path = path
        self.pushedFrom = pushedFrom
    }
}

extension InstanceInfo: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, scene, kind, value, phase, focused, path, pushedFrom
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(scene, forKey: .scene)
        try container.encode(kind.name, forKey: .kind)
        try container.encode(value ?? .null, forKey: .value)
        try container.encode(phase, forKey: .phase)
        try container.encode(focused, forKey: .focused)
        try container.encode(path, forKey: .path)
        if let pushedFrom {
            try container.encode(pushedFrom, forKey: .pushedFrom)
        } else {
            try container.encodeNil(forKey: .pushedFrom)
        }
    }
}
