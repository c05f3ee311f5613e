public import SceneFlow
public import SceneJSON

/// Why an instance was dismissed.
public enum DismissReason: String, Hashable, Sendable, Codable {
    /// A dismiss request named it (or its scene).
    case requested
    /// The window it was pushed from was dismissed.
    case parentDismissed = "parent_dismissed"
    /// A scene it requires lost its last instance (see ``SceneDeclaration/requires``).
    case requirementDismissed = "requirement_dismissed"
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

/// What kind of event a registry emitted: its `type` on the wire (§9 of the protocol).
public enum EventKind: String, Hashable, Sendable, CaseIterable, Codable {
    /// An instance opened (or was reopened), announced with its path.
    case opened = "scene.opened"
    /// An instance changed other than by its flow (its style).
    case changed = "scene.changed"
    /// A window or volume took focus.
    case focused = "scene.focused"
    /// An instance was dismissed, with why.
    case dismissed = "scene.dismissed"
    /// An instance's phase changed.
    case phaseChanged = "scene.phase_changed"
    /// A window was pushed in place of another.
    case pushed = "scene.pushed"
    /// A presented instance finished, with its result.
    case finished = "scene.finished"
    /// An instance's path changed.
    case flowChanged = "flow.changed"
    /// A sheet or cover was queued behind the one showing.
    case flowQueued = "flow.queued"
    /// A deep link landed.
    case linkHandled = "link.handled"
    /// A deep link waits for sign-in.
    case linkPending = "link.pending"
    /// A pending deep link was replaced by a newer one.
    case linkSuperseded = "link.superseded"
    /// A deep link was refused.
    case linkRejected = "link.rejected"
    /// A request was refused.
    case requestRejected = "request.rejected"
    /// A scene process started.
    case spawned = "scene.spawned"
    /// A scene process ended; its instance waits for a new one.
    case disconnected = "scene.disconnected"
    /// A new process (or behaviour) of an instance said hello.
    case restarted = "scene.restarted"
    /// Authentication was turned on or off.
    case authChanged = "link.authenticated"
    /// A scene emitted a signal.
    case signalEmitted = "signal.emitted"
}

/// Something that happened in a registry.
public enum RegistryEvent<R: Route>: Hashable, Sendable {
    /// An instance became active and was announced, already showing the path it opened
    /// with, a link's plan included (`scene.opened`).
    ///
    /// The cases that carry a whole instance are `indirect`: an instance is three times
    /// the size of any other case's payload, and every event is copied as it is emitted,
    /// kept in a coordinator's history and handed to its subscribers.
    indirect case opened(InstanceInfo<R>)
    /// A dismissed instance came back (`scene.reopen`) under a new id, with its value and
    /// its path (`scene.opened` with `reopened: true`).
    /// `entry` is the dismissed instance whose kept entry it took (`reopenedFrom`).
    indirect case reopened(InstanceInfo<R>, entry: InstanceID)
    /// What an instance object shows changed other than its path or phase: an immersive
    /// space's style (`scene.changed`).
    indirect case changed(InstanceInfo<R>)
    /// Focus moved to this window or volume (`scene.focused`).
    case focused(InstanceID)
    /// `scene.reopen` found the instance its entry would open already open (a `single`
    /// scene open again, or the value's instance of a `perValue` one) and focused it by the
    /// usual rules; the entry — of dismissed instance `entry` — left the history all the
    /// same (`scene.focused` with `reopened: true` and `reopenedFrom`). It only names the
    /// instance: when focus moved, a ``focused(_:)`` came just before it.
    case refocused(InstanceID, entry: InstanceID)
    /// An instance was dismissed, for the reason given (`scene.dismissed`).
    case dismissed(InstanceID, reason: DismissReason)
    /// An instance's phase changed (`scene.phase_changed`).
    case phaseChanged(InstanceID, phase: ScenePhase)
    /// A presented instance finished with `result`; its dismissal follows
    /// (`scene.finished`).
    case finished(InstanceID, result: JSONValue)
    /// A window pushed from `from` opened, right after its ``opened(_:)`` (`scene.pushed`).
    case pushed(InstanceID, from: InstanceID)
    /// An instance's path (or its queue of modals, other than by queueing one) changed,
    /// once per request, batch or transaction, for `cause` (`flow.changed`).
    case flowChanged(InstanceID, path: [RouteStep<R>], queue: [RouteStep<R>], cause: FlowCause)
    /// A sheet or cover was queued behind the visible one; `queue` is the queue after it
    /// (`flow.queued`).
    case flowQueued(InstanceID, step: RouteStep<R>, queue: [RouteStep<R>])
    /// A link landed in `instance`; `opened` says a new instance was opened for it
    /// (`link.handled`).
    case linkHandled(url: String, instance: InstanceID, opened: Bool)
    /// A link that requires authentication was parked in the pending slot (`link.pending`).
    case linkPending(url: String)
    /// A pending link was replaced by a newer one, or dropped because a newer link was
    /// handled (`link.superseded`).
    case linkSuperseded(url: String)
    /// A link was refused or matched no pattern; `reason` is what `link.open` answered
    /// (`link.rejected`).
    case linkRejected(url: String, reason: RegistryRejection)
    /// The registry refused a request; `request` is its method name (`request.rejected`).
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
    /// An instance's code announced `signal`, with its payload (`signal.emitted`).
    case signalEmitted(InstanceID, signal: String, payload: JSONValue?)

    /// The event's kind: ``EventKind/opened``, ``EventKind/flowChanged``, …
    public var kind: EventKind {
        switch self {
        case .opened, .reopened: return .opened
        case .changed: return .changed
        case .focused, .refocused: return .focused
        case .dismissed: return .dismissed
        case .phaseChanged: return .phaseChanged
        case .pushed: return .pushed
        case .finished: return .finished
        case .flowChanged: return .flowChanged
        case .flowQueued: return .flowQueued
        case .linkHandled: return .linkHandled
        case .linkPending: return .linkPending
        case .linkSuperseded: return .linkSuperseded
        case .linkRejected: return .linkRejected
        case .requestRejected: return .requestRejected
        case .spawned: return .spawned
        case .disconnected: return .disconnected
        case .restarted: return .restarted
        case .authChanged: return .authChanged
        case .signalEmitted: return .signalEmitted
        }
    }

    /// The event's wire type: `scene.opened`, `flow.changed`, `link.pending`, …
    public var type: String { kind.rawValue }

    /// The instance the event concerns, when it concerns one: what subscription filters by
    /// instance and by scene match.
    public var instance: InstanceID? {
        switch self {
        case .opened(let info), .reopened(let info, _), .changed(let info): return info.id
        case .focused(let id), .refocused(let id, _), .dismissed(let id, _), .phaseChanged(let id, _), .finished(let id, _), .pushed(let id, _),
            .flowChanged(let id, _, _, _), .flowQueued(let id, _, _), .spawned(let id, _), .disconnected(let id, _),
            .restarted(let id), .signalEmitted(let id, _, _):
            return id
        case .linkHandled(_, let id, _):
            return id
        case .linkPending, .linkSuperseded, .linkRejected, .requestRejected, .authChanged:
            return nil
        }
    }

    /// The topic, the part of ``type`` before the dot: `scene`, `flow`, `link`, `request`,
    /// `signal`.
    public var topic: String { String(type.prefix { $0 != "." }) }
}

/// Why an instance's path changed: who asked, and the intent's type when one intent did.
public struct FlowCause: Hashable, Sendable {
    /// Who asked for the change.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// A control client, or a program using the registry's API directly.
        case control
        /// The instance's own scene: its process, or its in-process behaviour.
        case scene
        /// A deep link that landed in the instance.
        case link
        /// A route request the instance's scope or a claim decided.
        case route
        /// A step of a `scene.program`.
        case program
        /// A `flow.reconcile` that adopted the path a UI toolkit reported.
        case reconcile
    }

    /// Who asked (`by` on the wire).
    public var by: Source
    /// The intent's type (`push`, `reset`, …) when one intent made the change; nil for a
    /// batch, a transaction or a plan.
    public var intent: String?

    /// A cause from its members.
    public init(by: Source, intent: String? = nil) {
        self.by = by
        self.intent = intent
    }
}

/// A registry event with its registry-wide sequence number.
///
/// Numbers start at 1 and grow by one per event, with no gaps at the source: a subscriber
/// that sees a gap knows its buffering policy dropped events.
public struct SequencedEvent<R: Route>: Hashable, Sendable {
    /// The event's number, from 1.
    public let seq: UInt64
    /// What happened.
    public let event: RegistryEvent<R>

    /// Creates a sequenced event from its members.
    public init(seq: UInt64, event: RegistryEvent<R>) {
        self.seq = seq
        self.event = event
    }
}
