public import SceneFlow
public import SceneJSON

/// One instance in a registry snapshot.
public struct InstanceSnapshot<R: Route>: Hashable, Codable, Sendable {
    /// The instance's id, kept on restore.
    public var id: InstanceID
    /// The value it was opened with, if any.
    public var value: JSONValue?
    /// Its phase when the snapshot was taken.
    public var phase: ScenePhase
    /// Its navigation path and queued modals.
    public var flow: FlowSnapshot<R>
    /// The window it was pushed from, if it was pushed.
    public var pushedFrom: InstanceID?
    /// An immersive space's style, when it was changed from its declared one.
    public var style: ImmersionStyle?

    /// A snapshot of one instance, with every member given.
    public init(
        id: InstanceID, value: JSONValue?, phase: ScenePhase, flow: FlowSnapshot<R>, pushedFrom: InstanceID?,
        style: ImmersionStyle? = nil
    ) {
        self.id = id
        self.value = value
        self.phase = phase
        self.flow = flow
        self.pushedFrom = pushedFrom
        self.style = style
    }
}

/// A whole registry as Codable data: instances with their paths, focus order, the
/// immersive slot, the pending link and the id counters.
public struct RegistrySnapshot<R: Route>: Hashable, Codable, Sendable {
    /// The snapshot format this library writes.
    public static var currentVersion: Int { 1 }

    /// The snapshot format it was written in; a restore refuses any other.
    public var version: Int
    /// The app whose registry it is; a restore into another app is refused.
    public var app: String
    /// Open instances, in id order.
    public var instances: [InstanceSnapshot<R>]
    /// Windows and volumes, least recently focused first.
    public var focusOrder: [InstanceID]
    /// The open immersive space, if any.
    public var immersive: InstanceID?
    /// The deep link waiting for authentication, if any.
    public var pendingLink: String?
    /// Whether links that require authentication were handled.
    public var authenticated: Bool
    /// The last instance number used per scene, so restored ids are never reused.
    public var counters: [String: Int]
    /// Instances dismissed lately, oldest first, that `scene.reopen` can bring back (nil
    /// when none; absent from snapshots written before it was kept).
    public var closed: [InstanceSnapshot<R>]?

    /// A snapshot in the current format, with every other member given.
    public init(
        app: String, instances: [InstanceSnapshot<R>], focusOrder: [InstanceID], immersive: InstanceID?,
        pendingLink: String?, authenticated: Bool, counters: [String: Int], closed: [InstanceSnapshot<R>]? = nil
    ) {
        self.version = Self.currentVersion
        self.app = app
        self.instances = instances
        self.focusOrder = focusOrder
        self.immersive = immersive
        self.pendingLink = pendingLink
        self.authenticated = authenticated
        self.counters = counters
        self.closed = closed
    }
}

/// Why a registry snapshot could not be restored: every problem, with its JSON path.
public struct RegistryRestoreError: JSONProblemReport {
    public let problems: [JSONProblem]

    /// An error listing `problems`, in document order.
    public init(problems: [JSONProblem]) {
        self.problems = problems
    }

    public var code: String { "invalid_snapshot" }
}
