public import SceneCore

/// Every method of protocol v1, by its wire name.
public enum WireMethod: String, CaseIterable, Hashable, Sendable {
    case hello
    case sceneOpen = "scene.open"
    case scenePush = "scene.push"
    case sceneDismiss = "scene.dismiss"
    case immersiveDismiss = "immersive.dismiss"
    case sceneFocus = "scene.focus"
    case sceneRoute = "scene.route"
    case scenePhase = "scene.phase"
    case sceneCall = "scene.call"
    case sceneNotify = "scene.notify"
    case flowSend = "flow.send"
    case flowApply = "flow.apply"
    case flowBatch = "flow.batch"
    case flowTransaction = "flow.transaction"
    case linkOpen = "link.open"
    case authSet = "auth.set"
    case state
    case subscribe
    case unsubscribe
    case ping
    case coordinatorShutdown = "coordinator.shutdown"

    /// The notification that carries events to subscribers.
    public static let event = "event"
}

/// The roles a connection can take in `hello`.
public enum WireRole: String, CaseIterable, Hashable, Sendable {
    /// A tool or app driving the coordinator: may call every method.
    case control
    /// A scene process acting for its own instance.
    case scene
}

/// Event topics, the part of an event's type before the dot.
public enum WireTopic: String, CaseIterable, Hashable, Sendable {
    case scene, flow, link, request
}

/// The protocol versions this library speaks.
public enum WireProtocol {
    public static let versions = [1]
    public static let current = 1
}

extension WireTopic {
    /// The topic `event` belongs to: the part of its type before the dot.
    public init<R>(of event: RegistryEvent<R>) {
        switch event {
        case .opened, .focused, .dismissed, .phaseChanged, .pushed, .spawned, .disconnected, .restarted:
            self = .scene
        case .flowChanged:
            self = .flow
        case .linkHandled, .linkPending, .linkSuperseded, .linkRejected, .authChanged:
            self = .link
        case .requestRejected:
            self = .request
        }
    }
}
