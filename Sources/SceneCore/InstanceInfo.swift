public import SceneFlow
public import SceneJSON

/// What one scene instance is, as a value (the wire carries it as its instance object).
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
