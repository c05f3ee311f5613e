public import SceneCore

/// Every method of protocol v1, by its wire name.
public enum WireMethod: String, CaseIterable, Hashable, Sendable {
    /// `hello`: the handshake, required before any other request.
    case hello
    /// `scene.open`: opens a scene, or focuses the instance its policy reuses.
    case sceneOpen = "scene.open"
    /// `scene.push`: opens a window in place of another, which goes to the background.
    case scenePush = "scene.push"
    /// `scene.dismiss`: dismisses an instance, or a scene's instances.
    case sceneDismiss = "scene.dismiss"
    /// `immersive.dismiss`: dismisses the open immersive space, whichever it is.
    case immersiveDismiss = "immersive.dismiss"
    /// `immersive.style`: changes the open immersive space's style.
    case immersiveStyle = "immersive.style"
    /// `scene.focus`: focuses a window or volume.
    case sceneFocus = "scene.focus"
    /// `scene.reopen`: brings back the most recently dismissed instance, with its path.
    case sceneReopen = "scene.reopen"
    /// `scene.route`: shows a route from an instance, like a responder chain.
    case sceneRoute = "scene.route"
    /// `scene.phase`: a scene reports its own phase.
    case scenePhase = "scene.phase"
    /// `scene.call`: relays a request to a scene; its answer is the call's answer.
    case sceneCall = "scene.call"
    /// `scene.notify`: relays a notification to a scene, answered `{}` once delivered.
    case sceneNotify = "scene.notify"
    /// `flow.send`: applies one intent to an instance's path.
    case flowSend = "flow.send"
    /// `flow.apply`: resets an instance's path to a plan.
    case flowApply = "flow.apply"
    /// `flow.batch`: applies intents one by one, with an outcome for each.
    case flowBatch = "flow.batch"
    /// `flow.transaction`: applies intents all together or not at all.
    case flowTransaction = "flow.transaction"
    /// `flow.reconcile`: adopts, or refuses, the path a UI toolkit reports.
    case flowReconcile = "flow.reconcile"
    /// `scene.program`: several steps (opens, pushes, routes, intents, links) in order, as
    /// one request, stopping at the first that fails.
    case sceneProgram = "scene.program"
    /// `scene.present`: opens a scene from an instance and answers once it finishes, with
    /// its result.
    case scenePresent = "scene.present"
    /// `scene.finish`: a presented instance ends with a result, and is dismissed.
    case sceneFinish = "scene.finish"
    /// `link.open`: opens a deep link across scenes.
    case linkOpen = "link.open"
    /// `auth.set`: turns link authentication on or off, replaying a pending link.
    case authSet = "auth.set"
    /// `scene.status`: an instance and how its process is doing.
    case sceneStatus = "scene.status"
    /// `scene.restart`: restarts an instance's process (or in-process behaviour) now,
    /// its path kept.
    case sceneRestart = "scene.restart"
    /// `scene.describe`: what a scene is and serves: its interface, kind, instance policy
    /// and whether a call activates it.
    case sceneDescribe = "scene.describe"
    /// `scene.emit`: a scene announces a signal to the subscribers of topic `signal`.
    case sceneEmit = "scene.emit"
    /// `session.save`: saves what is open as a named session.
    case sessionSave = "session.save"
    /// `session.load`: replaces what is open with a saved session.
    case sessionLoad = "session.load"
    /// `session.list`: the saved sessions' names.
    case sessionList = "session.list"
    /// `session.delete`: deletes a saved session.
    case sessionDelete = "session.delete"
    /// `state`: the registry's whole state.
    case state
    /// `subscribe`: starts, or replaces, the connection's event subscription.
    case subscribe
    /// `unsubscribe`: ends the connection's event subscription, if any.
    case unsubscribe
    /// `ping`: answered `{}` at once, without touching the registry.
    case ping
    /// `coordinator.shutdown`: stops the coordinator once its answer is written.
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
    /// `scene` (instances' lives), `flow` (path changes), `link` (deep links and sign-in),
    /// `request` (refused requests) and `signal` (what scenes announce).
    case scene, flow, link, request, signal
}

/// The protocol versions this library speaks.
public enum WireProtocol {
    /// Every version spoken, as `unsupported_protocol` lists them in `data.supported`.
    public static let versions = [1]
    /// The version a coordinator answers `hello` with; a client's `protocol` must hold it.
    public static let current = 1
}

extension WireTopic {
    /// The topic `event` belongs to: the part of its type before the dot.
    public init<R>(of event: RegistryEvent<R>) {
        switch event {
        case .opened, .reopened, .changed, .focused, .refocused, .dismissed, .phaseChanged, .pushed, .spawned, .disconnected, .restarted, .finished:
            self = .scene
        case .flowChanged, .flowQueued:
            self = .flow
        case .linkHandled, .linkPending, .linkSuperseded, .linkRejected, .authChanged:
            self = .link
        case .requestRejected:
            self = .request
        case .signalEmitted:
            self = .signal
        }
    }
}
