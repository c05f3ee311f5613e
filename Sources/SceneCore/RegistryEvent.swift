public import SceneFlow

/// Why an instance was dismissed.
public enum DismissReason: String, Hashable, Sendable, Codable {
    /// A dismiss request named it (or its scene).
    case requested
    /// The window it was pushed from was dismissed.
    case parentDismissed = "parent_dismissed"
    /// Another immersive space replaced it (policy `replace`).
    case replaced
    /// It was dismissed while opening, or its launch failed.
    case cancelled
    /// Its process ended and its restart policy says not to restart it (a clean exit of a
    /// transient scene, any end of a temporary one).
    case processExited = "process_exited"
    /// Its process ended more often than its restart policy allows.
    case restartIntensity = "restart_intensity"
}

/// Something that happened in a registry.
public enum RegistryEvent<R: Route>: Hashable, Sendable {
    case opened(InstanceInfo<R>)
    case focused(InstanceID)
    case dismissed(InstanceID, reason: DismissReason)
    case phaseChanged(InstanceID, phase: ScenePhase)
    case pushed(InstanceID, from: InstanceID)
    case flowChanged(InstanceID, path: [RouteStep<R>])
    case linkHandled(url: String, instance: InstanceID, opened: Bool)
    case linkPending(url: String)
    case linkSuperseded(url: String)
    case linkRejected(url: String, reason: RegistryRejection)
    case requestRejected(request: String, reason: RegistryRejection)
    /// A process was started for the instance.
    case spawned(InstanceID, pid: Int32)
    /// The instance's process ended or stopped answering (`exit` nil: it was left from a
    /// previous run); the instance is `disconnected`, its path intact.
    case disconnected(InstanceID, exit: ProcessExit?)
    /// A new process for a disconnected instance said hello: the instance is back.
    case restarted(InstanceID)
    /// The user signed in or out (the link gate's state changed).
    case authChanged(authenticated: Bool)

    /// The event's wire type: `scene.opened`, `flow.changed`, `link.pending`, …
    public var type: String {
        switch self {
        case .opened: return "scene.opened"
        case .focused: return "scene.focused"
        case .dismissed: return "scene.dismissed"
        case .phaseChanged: return "scene.phase_changed"
        case .pushed: return "scene.pushed"
        case .flowChanged: return "flow.changed"
        case .linkHandled: return "link.handled"
        case .linkPending: return "link.pending"
        case .linkSuperseded: return "link.superseded"
        case .linkRejected: return "link.rejected"
        case .requestRejected: return "request.rejected"
        case .spawned: return "scene.spawned"
        case .disconnected: return "scene.disconnected"
        case .restarted: return "scene.restarted"
        case .authChanged: return "link.authenticated"
        }
    }

    /// The topic, the part of ``type`` before the dot: `scene`, `flow`, `link`, `request`.
    public var topic: String { String(type.prefix { $0 != "." }) }
}

/// A registry event with its registry-wide sequence number.
///
/// Numbers start at 1 and grow by one per event, with no gaps at the source: a subscriber
/// that sees a gap knows its buffering policy dropped events.
public struct SequencedEvent<R: Route>: Hashable, Sendable {
    public let seq: UInt64
    public let event: RegistryEvent<R>

    public init(seq: UInt64, event: RegistryEvent<R>) {
        self.seq = seq
        self.event = event
    }
}
