public import SceneFlow
public import SceneJSON

/// What one scene instance is, as a value (the wire carries it as its instance object).
public struct InstanceInfo<R: Route>: Hashable, Sendable {
    /// The instance's id, `<scene>-<n>`.
    public let id: InstanceID
    /// The id of the scene it is an instance of.
    public let scene: String
    /// Its scene's kind: window, volume or immersive space.
    public let kind: SceneKind
    /// The value it was opened with; nil when none.
    public let value: JSONValue?
    /// The instance's phase now.
    public let phase: ScenePhase
    /// Whether it is the focused window or volume.
    public let focused: Bool
    /// Its visible navigation path, from the root.
    public let path: [RouteStep<R>]
    /// The window it was pushed from; nil when it was not pushed.
    public let pushedFrom: InstanceID?
    /// The sheets and covers queued behind the visible one, next first.
    public let queue: [RouteStep<R>]

    /// Creates an instance description from its members.
    public init(
        id: InstanceID, scene: String, kind: SceneKind, value: JSONValue?, phase: ScenePhase,
        focused: Bool, path: [RouteStep<R>], pushedFrom: InstanceID?, queue: [RouteStep<R>] = []
    ) {
        self.id = id
        self.scene = scene
        self.kind = kind
        self.value = value
        self.phase = phase
        self.focused = focused
        self.path = path
        self.pushedFrom = pushedFrom
        self.queue = queue
    }
}
