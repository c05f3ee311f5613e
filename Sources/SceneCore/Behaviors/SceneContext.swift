public import SceneFlow
public import SceneJSON

/// What a ``SceneBehavior`` can do, for its own instance: drive its flow, ask for routes,
/// call or notify any instance, emit signals, and — through ``scenes`` — open scenes, push
/// windows in its place, present and finish, and dismiss itself.
///
/// The same requests a scene process makes over its connection, with the same rules (a
/// scene acts only for itself: it may open any scene, but dismisses only itself) and the
/// same errors: a behaviour reads the same whether it runs in process or in a process of
/// its own. Every refusal is a ``SceneError``, the JSON-RPC error object the wire
/// would carry (a registry refusal is -32000 with its `data.reason`).
public struct SceneContext<R: Route>: Sendable {
    /// The instance this behaviour is.
    public let instance: InstanceID
    /// The value it was opened with (per-value scenes), if any.
    public let value: JSONValue?
    /// The executor of the registry (in a coordinator, its event loop; in a scene process,
    /// its connection's). A behaviour whose `unownedExecutor` returns it runs beside what
    /// it talks to: what it asks and what it is asked take no thread switch.
    public let executor: UnownedSerialExecutor
    /// The actor system of the registry or connection this scene acts through: a
    /// ``DistributedScene`` is made with it, and resolves the scenes it calls with it.
    public let actorSystem: SceneActorSystem
    let actions: any SceneActions<R>

    package init(
        instance: InstanceID, value: JSONValue?, executor: UnownedSerialExecutor, actorSystem: SceneActorSystem,
        actions: any SceneActions<R>
    ) {
        self.instance = instance
        self.value = value
        self.executor = executor
        self.actorSystem = actorSystem
        self.actions = actions
    }

    // MARK: Its own flow

    /// Applies `intent` to this instance's flow; answers its path afterwards. During the
    /// behaviour's start it shapes the path the instance opens with (no event comes before
    /// the instance's `scene.opened`, which carries the path).
    ///
    /// - Throws: the flow's refusal (`push_blocked_by_modal_tail`, …), or `not_open`.
    @discardableResult
    public func send(_ intent: FlowIntent<R>) async throws(SceneError) -> [RouteStep<R>] {
        try await actions.send(intent, in: instance)
    }

    /// This instance's path.
    public func path() async throws(SceneError) -> [RouteStep<R>] {
        try await actions.path(of: instance)
    }

    /// Reconciles this instance's path with `observed`, the path its UI toolkit shows after
    /// changing its stack itself (see ``SceneInstance/reconcile(to:policy:)``): `adopt`
    /// applies the difference as the fewest intents, `reject` refuses it `path_mismatch`.
    @discardableResult
    public func reconcile(observed: [RouteStep<R>], policy: ReconcilePolicy) async throws(SceneError) -> ReconcileResult<R> {
        try await actions.reconcile(instance, observed: observed, policy: policy)
    }

    /// Asks for `route` to be shown, from this instance, like a responder chain (see
    /// ``SceneRegistry/route(_:from:)``); answers the instance where it landed.
    @discardableResult
    public func route(_ route: R) async throws(SceneError) -> InstanceID {
        try await actions.route(route, from: instance)
    }

    // MARK: Scenes

    /// Opens `scene` (or focuses the instance its policy picks); answers that instance.
    @discardableResult
    package func open(_ scene: String, value: JSONValue? = nil) async throws(SceneError) -> InstanceID {
        try await actions.open(scene, value: value)
    }

    /// Opens window `scene` in place of this instance, as visionOS's `pushWindow` does.
    @discardableResult
    package func push(_ scene: String, value: JSONValue? = nil) async throws(SceneError) -> InstanceID {
        try await actions.push(scene, value: value, from: instance)
    }

    /// Dismisses this instance and the windows pushed from it, without asking it (a scene
    /// closing itself has decided already). Answers what went.
    ///
    /// When it is its scene's last instance, the instances of the scenes that require that
    /// scene go first, and they are asked: one that refuses fails the dismiss
    /// (`close_vetoed`), unless `force`.
    @discardableResult
    public func dismiss(force: Bool = false) async throws(SceneError) -> [InstanceID] {
        try await actions.dismissItself(instance, force: force)
    }

    // MARK: Presenting

    /// Opens `scene` (or focuses the instance its policy picks) from this instance and
    /// waits until it finishes: answers that instance and its result.
    ///
    /// - Throws: what opening throws; `dismissed_without_result` when it is dismissed
    ///   before it finishes; `parent_dismissed` when this instance is dismissed first.
    package func present(_ scene: String, value: JSONValue? = nil) async throws(SceneError)
        -> (instance: InstanceID, result: JSONValue)
    {
        try await actions.present(scene, value: value, from: instance)
    }

    /// Ends this instance's presentation with `result`: whoever presented it gets the
    /// result, and this instance is dismissed.
    ///
    /// - Throws: `not_presented` when nobody awaits its result.
    package func finish(with result: JSONValue) async throws(SceneError) {
        try await actions.finish(instance, result: result)
    }

    // MARK: Calls

    /// Calls `method` on `target`, wherever its code runs, and answers its result.
    ///
    /// It runs where its caller runs: a behaviour waits for the answer in its own
    /// isolation, with no hop to the global executor and back.
    ///
    /// - Throws: `not_open`, `unknown_scene`, `not_connected` (nothing answers for it
    ///   now), `call_timeout` after `timeout` (the default one when nil),
    ///   `reserved_method`, or the target's own error as it answered it.
    nonisolated(nonsending) public func call(
        _ target: SceneTarget, _ method: String, params: ScenePayload = .empty, timeout: Duration? = nil
    ) async throws(SceneError) -> ScenePayload {
        try await actions.call(SceneCall(method: method, params: params), to: target, timeout: timeout)
    }

    /// Calls `method` on `target` with `params`, and answers its result as a `T`: in
    /// process, values of the same types pass as they are, with no JSON made.
    @inlinable
    nonisolated(nonsending) public func call<T: Decodable>(
        _ target: SceneTarget, _ method: String, with params: some Encodable & Sendable, as type: T.Type = T.self,
        timeout: Duration? = nil
    ) async throws(SceneError) -> T {
        try await call(target, method, params: ScenePayload(params), timeout: timeout).decode(T.self)
    }

    /// Sends `target` a notification: answered once it is delivered.
    public func notify(_ target: SceneTarget, _ method: String, params: ScenePayload = .empty) async throws(SceneError) {
        try await actions.notify(SceneCall(method: method, params: params), to: target)
    }

    // MARK: Signals

    /// Announces `signal` from this instance, with `payload`: subscribers of topic `signal`
    /// receive a `signal.emitted` event.
    ///
    /// - Throws: `unknown_signal` when the scene declares an interface without the
    ///   signal; -32602 when the payload breaks the signal's schema.
    public func emit(_ signal: String, payload: JSONValue? = nil) async throws(SceneError) {
        try await actions.emit(signal, payload: payload, from: instance)
    }

    /// ``emit(_:payload:)`` with a payload of any encodable type.
    public func emit(_ signal: String, with payload: some Encodable & Sendable) async throws(SceneError) {
        try await emit(signal, payload: try ScenePayload(payload).json())
    }

    // MARK: Ending

    /// Ends this behaviour, as a process ends by exiting: cleanly when `error` is nil.
    /// The scene's restart policy decides what follows (a restart makes a new behaviour
    /// and starts it; the instance keeps its path).
    public func end(throwing error: (any Error)? = nil) {
        actions.end(instance, error: error)
    }
}

/// Carries out what a ``SceneContext`` asks: the registry in process, a connection in a
/// scene process.
package protocol SceneActions<R>: Sendable {
    associatedtype R: Route
    func send(_ intent: FlowIntent<R>, in instance: InstanceID) async throws(SceneError) -> [RouteStep<R>]
    func path(of instance: InstanceID) async throws(SceneError) -> [RouteStep<R>]
    func reconcile(_ instance: InstanceID, observed: [RouteStep<R>], policy: ReconcilePolicy) async throws(SceneError)
        -> ReconcileResult<R>
    func route(_ route: R, from instance: InstanceID) async throws(SceneError) -> InstanceID
    func open(_ scene: String, value: JSONValue?) async throws(SceneError) -> InstanceID
    func push(_ scene: String, value: JSONValue?, from: InstanceID) async throws(SceneError) -> InstanceID
    /// Dismisses `instance`, the context's own, without asking it (see
    /// ``SceneRegistry/dismiss(_:force:)``).
    func dismissItself(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID]
    func present(_ scene: String, value: JSONValue?, from: InstanceID) async throws(SceneError) -> (InstanceID, JSONValue)
    func finish(_ instance: InstanceID, result: JSONValue) async throws(SceneError)
    nonisolated(nonsending) func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError)
        -> ScenePayload
    func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError)
    func emit(_ signal: String, payload: JSONValue?, from instance: InstanceID) async throws(SceneError)
    func end(_ instance: InstanceID, error: (any Error)?)
}
