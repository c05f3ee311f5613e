public import SceneFlow
public import SceneJSON

/// The code of a scene: an actor the app writes, one per instance, that answers calls,
/// hears its instance's changes, and acts through its ``SceneContext`` — which its factory
/// hands it as it is made, before anything can ask it anything.
///
/// The same type runs in process, beside the registry, or in a scene process of its own
/// (SceneClient hosts it there): where it runs is the scene's declaration's choice. Those
/// who call it cannot tell the difference, and it asks for the same things with the same
/// rules either way; what differs is when it starts (in a process, after its `hello`, its
/// instance already `active`: a start that throws then ends the process, and the scene's
/// restart policy decides, where in process it fails the open).
///
/// Every requirement has a default, so a behaviour implements only what it needs:
/// - ``start()`` runs before the instance becomes `active`; throwing from it fails
///   the open (`launch_failed`), or, for a restart, counts as one more abnormal end.
/// - ``answer(_:)`` answers `scene.call`s to this instance; the default answers -32601.
///   A ``SceneError`` (the wire's `WireError` is the same type) it throws
///   is the caller's error as it is; any other error is answered `scene_failed`.
/// - ``receive(_:)`` takes `scene.notify`s.
/// - ``flowChanged(to:)`` and ``phaseChanged(to:)`` report the instance's own changes,
///   in order, each once, after ``start()`` returned.
/// - ``decide(_:path:)`` decides a route request at run time, when the scene's declaration
///   says it `decides`.
/// - ``close(force:)`` is asked before an interactive close, and may refuse it; a forced
///   close is only announced. ``stop()`` is the last thing it hears.
public protocol SceneBehavior<R>: Actor {
    /// What the instance's navigation steps show.
    associatedtype R: Route = JSONValue

    /// Starts the scene; the instance is `opening` until this returns.
    func start() async throws

    /// Answers a call to this instance.
    func answer(_ call: SceneCall) async throws -> ScenePayload

    /// Takes a notification to this instance.
    func receive(_ notification: SceneCall) async

    /// The instance's path changed.
    func flowChanged(to path: [RouteStep<R>]) async

    /// The instance's phase changed (it hears `active` once it is open).
    func phaseChanged(to phase: ScenePhase) async

    /// Decides a route request that reaches this instance's scope — asked from it, or
    /// bubbling up from a window pushed from it — seeing its path now; asked only when the
    /// scene's declaration says it `decides`. `.present(style)` shows the route here,
    /// `.reject(reason)` refuses it, `.pass` bubbles it on; nil leaves it to the scope
    /// rules, as no answer within the declaration's `decideTimeout` does.
    func decide(_ route: R, path: [RouteStep<R>]) async -> ScopeAction?

    /// The instance that presented this one (`scene.present`) was dismissed before this
    /// one finished: this one is dismissed next, and the presenter's wait ends
    /// `parent_dismissed`.
    func parentDismissed() async

    /// Whether the instance may close; `force` says it closes whatever the answer.
    func close(force: Bool) async -> Bool

    /// The instance is gone (dismissed, or the coordinator is shutting down).
    func stop() async
}

extension SceneBehavior {
    /// Does nothing: the instance becomes `active` at once.
    public func start() async throws {}

    /// Answers every call -32601, as a scene without the method would.
    public func answer(_ call: SceneCall) async throws -> ScenePayload {
        throw SceneError.methodNotFound(call.method)
    }

    /// Ignores the notification.
    public func receive(_ notification: SceneCall) async {}

    /// Ignores the change.
    public func flowChanged(to path: [RouteStep<R>]) async {}

    /// Ignores the change.
    public func phaseChanged(to phase: ScenePhase) async {}

    /// Leaves every route to the scope rules.
    public func decide(_ route: R, path: [RouteStep<R>]) async -> ScopeAction? { nil }

    /// Does nothing: the instance is dismissed next anyway.
    public func parentDismissed() async {}

    /// Accepts every close.
    public func close(force: Bool) async -> Bool { true }

    /// Does nothing.
    public func stop() async {}
}

/// Makes the behaviour of one instance of a scene, with the context it acts through (its
/// instance, its value, and the registry's executor).
public typealias SceneBehaviorFactory<R: Route> = @Sendable (SceneContext<R>) -> any SceneBehavior<R>

/// Where the code of a scene's instances runs, as its declaration says.
public enum SceneHosting: Hashable, Sendable {
    /// Nowhere: the instance lives only in the registry (its flow can still be driven).
    case virtual
    /// In this process: a ``SceneBehavior`` the program registered for the scene.
    case inProcess
    /// In a process a coordinator starts with this command, or one that attaches with a
    /// token (``LaunchSpec/attachOnly(timeout:grace:)``).
    case process(LaunchSpec)

    /// `virtual`, `in_process`, `process`, or `attach` for processes that only attach.
    public var name: String {
        switch self {
        case .virtual: return "virtual"
        case .inProcess: return "in_process"
        case .process(let spec): return spec.isAttachOnly ? "attach" : "process"
        }
    }
}
