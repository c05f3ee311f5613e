public import SceneCore
public import SceneJSON

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
    /// `token.issue`: issues an attach token for a scene.
    case tokenIssue = "token.issue"
    /// `token.list`: the attach tokens still good.
    case tokenList = "token.list"
    /// `token.revoke`: revokes an attach token.
    case tokenRevoke = "token.revoke"
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

extension WireMethod {
    /// The method's row in ``WireCalls/all``: how it is served, and its types.
    public var spec: any WireMethodSpec { WireCalls.byMethod[self]! }
}

/// Every method of the wire, one row each: who may call it and how a scene connection's
/// own instance fills it in, when it is answered, and the types of its params and result.
///
/// A coordinator's dispatch, a scene connection's scoping and `forbidden`, and a client's
/// typed calls (``WireCall``) all read these rows; the protocol's method summary (§8.1),
/// its roles (§6) and its order of answers (§3.4) are checked against them by the tests.
/// What a registry method does is its params type's registry function, in the
/// coordinator; see the article "Adding a wire method".
public enum WireCalls {
    /// The row of ``WireMethod/hello``.
    public static let hello = WireCall<HelloParams, HelloResult>(.hello, scene: .asIs, order: .atOnce)
    /// The row of ``WireMethod/sceneOpen``.
    public static let sceneOpen = WireCall<OpenParams, OpenResult>(.sceneOpen, scene: .asIs, order: .inTurn)
    /// The row of ``WireMethod/scenePush``.
    public static let scenePush = WireCall<PushParams, InstanceResult>(.scenePush, scene: .own("from"), order: .inTurn)
    /// The row of ``WireMethod/sceneDismiss``.
    public static let sceneDismiss = WireCall<DismissParams, DismissResult>(
        .sceneDismiss, scene: .own("instance", refusing: "scene"), order: .inTurn)
    /// The row of ``WireMethod/immersiveDismiss``.
    public static let immersiveDismiss = WireCall<ImmersiveDismissParams, DismissResult>(
        .immersiveDismiss, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/immersiveStyle``.
    public static let immersiveStyle = WireCall<ImmersiveStyleParams, InstanceResult>(.immersiveStyle, scene: .asIs, order: .inTurn)
    /// The row of ``WireMethod/sceneFocus``.
    public static let sceneFocus = WireCall<FocusParams, InstanceResult>(.sceneFocus, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/sceneReopen``.
    public static let sceneReopen = WireCall<ReopenParams, InstanceResult>(.sceneReopen, scene: .asIs, order: .inTurn)
    /// The row of ``WireMethod/sceneRoute``.
    public static let sceneRoute = WireCall<RouteParams, RouteResult>(.sceneRoute, scene: .own("from"), order: .inTurn)
    /// The row of ``WireMethod/scenePhase``.
    public static let scenePhase = WireCall<ScenePhaseParams, InstanceResult>(.scenePhase, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/sceneCall``.
    public static let sceneCall = WireCall<SceneCallParams, JSONValue>(.sceneCall, scene: .own("from"), order: .atOnce)
    /// The row of ``WireMethod/sceneNotify``.
    public static let sceneNotify = WireCall<SceneCallParams, EmptyResult>(.sceneNotify, scene: .own("from"), order: .atOnce)
    /// The row of ``WireMethod/flowSend``.
    public static let flowSend = WireCall<FlowSendParams, FlowSendResult>(.flowSend, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/flowApply``.
    public static let flowApply = WireCall<FlowApplyParams, PathResult>(.flowApply, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/flowBatch``.
    public static let flowBatch = WireCall<FlowBatchParams, FlowBatchResultObject>(.flowBatch, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/flowTransaction``.
    public static let flowTransaction = WireCall<FlowTransactionParams, PathResult>(
        .flowTransaction, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/flowReconcile``.
    public static let flowReconcile = WireCall<FlowReconcileParams, FlowReconcileResultObject>(
        .flowReconcile, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/sceneProgram``.
    public static let sceneProgram = WireCall<ProgramParams, ProgramResult>(.sceneProgram, scene: .eachStep, order: .inTurn)
    /// The row of ``WireMethod/scenePresent``.
    public static let scenePresent = WireCall<PresentParams, PresentResult>(
        .scenePresent, scene: .own("from"), order: .inTurnWithoutHolding)
    /// The row of ``WireMethod/sceneFinish``.
    public static let sceneFinish = WireCall<FinishParams, EmptyResult>(.sceneFinish, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/linkOpen``.
    public static let linkOpen = WireCall<LinkOpenParams, LinkOpenResult>(.linkOpen, scene: .asIs, order: .inTurn)
    /// The row of ``WireMethod/authSet``.
    public static let authSet = WireCall<AuthSetParams, AuthSetResult>(.authSet, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/sceneStatus``.
    public static let sceneStatus = WireCall<StatusParams, StatusResult>(.sceneStatus, scene: .own("instance"), order: .atOnce)
    /// The row of ``WireMethod/sceneRestart``.
    public static let sceneRestart = WireCall<RestartParams, InstanceResult>(.sceneRestart, scene: .own("instance"), order: .atOnce)
    /// The row of ``WireMethod/sceneDescribe``.
    public static let sceneDescribe = WireCall<DescribeParams, DescribeResult>(.sceneDescribe, scene: .asIs, order: .atOnce)
    /// The row of ``WireMethod/sceneEmit``.
    public static let sceneEmit = WireCall<EmitParams, EmptyResult>(.sceneEmit, scene: .own("instance"), order: .inTurn)
    /// The row of ``WireMethod/sessionSave``.
    public static let sessionSave = WireCall<SessionParams, EmptyResult>(.sessionSave, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/sessionLoad``.
    public static let sessionLoad = WireCall<SessionLoadParams, SessionLoadResult>(.sessionLoad, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/sessionList``.
    public static let sessionList = WireCall<EmptyParams, SessionListResult>(.sessionList, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/sessionDelete``.
    public static let sessionDelete = WireCall<SessionParams, EmptyResult>(.sessionDelete, scene: .forbidden, order: .inTurn)
    /// The row of ``WireMethod/tokenIssue``.
    public static let tokenIssue = WireCall<TokenIssueParams, TokenIssueResult>(.tokenIssue, scene: .forbidden, order: .atOnce)
    /// The row of ``WireMethod/tokenList``.
    public static let tokenList = WireCall<EmptyParams, TokenListResult>(.tokenList, scene: .forbidden, order: .atOnce)
    /// The row of ``WireMethod/tokenRevoke``.
    public static let tokenRevoke = WireCall<TokenRevokeParams, EmptyResult>(.tokenRevoke, scene: .forbidden, order: .atOnce)
    /// The row of ``WireMethod/state``.
    public static let state = WireCall<StateParams, StateResult>(.state, scene: .asIs, order: .inTurn)
    /// The row of ``WireMethod/subscribe``.
    public static let subscribe = WireCall<SubscribeParams, SubscribeResult>(.subscribe, scene: .asIs, order: .atOnce)
    /// The row of ``WireMethod/unsubscribe``.
    public static let unsubscribe = WireCall<EmptyParams, EmptyResult>(.unsubscribe, scene: .asIs, order: .atOnce)
    /// The row of ``WireMethod/ping``.
    public static let ping = WireCall<EmptyParams, EmptyResult>(.ping, scene: .asIs, order: .atOnce)
    /// The row of ``WireMethod/coordinatorShutdown``.
    public static let coordinatorShutdown = WireCall<EmptyParams, EmptyResult>(.coordinatorShutdown, scene: .forbidden, order: .atOnce)

    /// Every row, in the order of ``WireMethod``'s cases.
    public static let all: [any WireMethodSpec] = [
        hello, sceneOpen, scenePush, sceneDismiss, immersiveDismiss, immersiveStyle, sceneFocus, sceneReopen, sceneRoute,
        scenePhase, sceneCall, sceneNotify, flowSend, flowApply, flowBatch, flowTransaction, flowReconcile, sceneProgram,
        scenePresent, sceneFinish, linkOpen, authSet, sceneStatus, sceneRestart, sceneDescribe, sceneEmit, sessionSave,
        sessionLoad, sessionList, sessionDelete, tokenIssue, tokenList, tokenRevoke, state, subscribe, unsubscribe, ping, coordinatorShutdown,
    ]

    /// The rows by method.
    static let byMethod = Dictionary(uniqueKeysWithValues: all.map { ($0.method, $0) })
}

/// A method of the wire with the types of its params and its result: a row of
/// ``WireCalls``, and what a client's typed call takes.
public struct WireCall<Params: Codable & Sendable, Answer: Decodable & Sendable>: WireMethodSpec {
    /// The method.
    public let method: WireMethod
    /// What a scene connection may do with it.
    public let scene: SceneAccess
    /// When it is answered among its connection's requests.
    public let order: AnswerOrder

    init(_ method: WireMethod, scene: SceneAccess, order: AnswerOrder) {
        self.method = method
        self.scene = scene
        self.order = order
    }

    /// `Params`.
    public var paramsType: any (Codable & Sendable).Type { Params.self }
    /// `Answer`.
    public var resultType: any (Decodable & Sendable).Type { Answer.self }
}

/// How a method is served, whatever its types.
public protocol WireMethodSpec: Sendable {
    /// The method.
    var method: WireMethod { get }
    /// What a scene connection may do with it (protocol §6).
    var scene: SceneAccess { get }
    /// When it is answered among its connection's requests (protocol §3.4).
    var order: AnswerOrder { get }
    /// The type its params decode as.
    var paramsType: any (Codable & Sendable).Type { get }
    /// The type its result decodes as.
    var resultType: any (Decodable & Sendable).Type { get }
}

/// What a scene connection may do with a method (protocol §6). A control connection may
/// call every method as it is.
public enum SceneAccess: Hashable, Sendable {
    /// Call it as a control connection does: nothing is filled in.
    case asIs
    /// Call it for its own instance only, named by `member`: filled in when absent,
    /// `forbidden` when it names another; a `refusing` member is `forbidden` outright (the
    /// `{scene}` form of `scene.dismiss`).
    case own(String, refusing: String? = nil)
    /// Each step scoped as the request it stands for (`scene.program`).
    case eachStep
    /// Not at all: -32000 `forbidden`.
    case forbidden
}

/// When a method is answered among its connection's requests (protocol §3.4).
public enum AnswerOrder: Hashable, Sendable {
    /// As soon as its frame is read (a relayed call, when its target answers).
    case atOnce
    /// In its turn among the connection's queued requests; those after it wait for its
    /// answer.
    case inTurn
    /// In its turn, but those after it do not wait for its answer: it waits for someone
    /// else (a presented scene's finish), perhaps over this very connection, and may
    /// take as long as a person takes.
    case inTurnWithoutHolding
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
