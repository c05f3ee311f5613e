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
    /// Its scene's default size, resizability and placement (for a window or volume, as
    /// declared; none declared is nil).
    public let geometry: SceneGeometry
    /// An immersive space's style now; nil for a window or volume.
    public let style: ImmersionStyle?

    /// Creates an instance description from its members.
    public init(
        id: InstanceID, scene: String, kind: SceneKind, value: JSONValue?, phase: ScenePhase,
        focused: Bool, path: [RouteStep<R>], pushedFrom: InstanceID?, queue: [RouteStep<R>] = [],
        geometry: SceneGeometry = SceneGeometry(), style: ImmersionStyle? = nil
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
        self.geometry = geometry
        self.style = style
    }
}

/// What `flow.reconcile` does when the observed path differs.
public enum ReconcilePolicy: String, Hashable, Sendable, CaseIterable {
    /// Take the observed path: turn the difference into intents and apply them.
    case adopt
    /// Refuse it: `path_mismatch`, nothing changes.
    case reject
}

/// What `flow.reconcile` did: `changed` or `unchanged`, the path after, and the intents it
/// applied (none when unchanged).
public struct ReconcileResult<R: Route>: Hashable, Sendable {
    /// `changed` or `unchanged`.
    public let outcome: OutcomeName
    /// The instance's path after the reconcile.
    public let path: [RouteStep<R>]
    /// The intents the difference became, in the order they were applied.
    public let intents: [FlowIntent<R>]

    /// A result from its members.
    public init(outcome: OutcomeName, path: [RouteStep<R>], intents: [FlowIntent<R>]) {
        self.outcome = outcome
        self.path = path
        self.intents = intents
    }
}
