public import SceneCore
public import SceneFlow
public import SceneJSON
public import SceneWire

extension SceneConnection {
    /// `scene.open`: opens `scene` by its instance policy.
    @discardableResult
    public func open(_ scene: String, value: JSONValue? = nil) async throws(ClientError) -> OpenResult {
        try await call(WireCalls.sceneOpen, OpenParams(scene: scene, value: value))
    }

    /// `scene.push`: opens `scene` in place of window `from`.
    @discardableResult
    public func push(_ scene: String, value: JSONValue? = nil, from: String) async throws(ClientError) -> InstanceObject {
        try await call(WireCalls.scenePush, PushParams(scene: scene, value: value, from: from)).instance
    }

    /// `scene.dismiss` {instance, force}: dismisses one instance and its pushed windows.
    /// Unless `force`, a scene process is asked first and may refuse (`close_vetoed`).
    @discardableResult
    public func dismiss(instance: String, force: Bool = false) async throws(ClientError) -> [String] {
        try await call(WireCalls.sceneDismiss, DismissParams(instance: instance, force: force)).dismissed
    }

    /// `scene.dismiss` {scene, value?, force}: dismisses a scene's instances; answers those
    /// dismissed and those that refused to close.
    @discardableResult
    public func dismiss(scene: String, value: JSONValue? = nil, force: Bool = false) async throws(ClientError)
        -> (dismissed: [String], vetoed: [String])
    {
        let result = try await call(WireCalls.sceneDismiss, DismissParams(scene: scene, value: value, force: force))
        return (result.dismissed, result.vetoed ?? [])
    }

    /// `scene.call`: calls `method` of the scene process behind `target` and answers its
    /// answer (its error as ``ClientError/remote(_:)``).
    public func callScene(_ target: CallTarget, method: String, params: JSONValue? = nil, timeout: Double? = nil)
        async throws(ClientError) -> JSONValue
    {
        var request = SceneCallParams(to: target, method: method, params: params)
        request.timeout = timeout
        return try await call(WireCalls.sceneCall, request)
    }

    /// `scene.notify`: delivers `method` to the scene process behind `target`, no answer.
    public func notifyScene(_ target: CallTarget, method: String, params: JSONValue? = nil) async throws(ClientError) {
        _ = try await call(WireCalls.sceneNotify, SceneCallParams(to: target, method: method, params: params))
    }

    /// `scene.phase`: reports a phase (a scene connection reports its own).
    @discardableResult
    public func reportPhase(_ phase: ScenePhase, instance: String? = nil) async throws(ClientError) -> InstanceObject {
        var params: [String: JSONValue] = ["phase": .string(phase.rawValue)]
        if let instance { params["instance"] = .string(instance) }
        let result = try await call(WireMethod.scenePhase.rawValue, params: .object(params))
        do {
            return try result.decoded(as: InstanceResult.self).instance
        } catch {
            throw .invalidResponse("scene.phase: \(error)")
        }
    }

    /// `immersive.dismiss`: dismisses the open immersive space.
    @discardableResult
    public func dismissImmersive() async throws(ClientError) -> [String] {
        try await call(WireCalls.immersiveDismiss, ImmersiveDismissParams()).dismissed
    }

    /// `scene.focus`.
    @discardableResult
    public func focus(_ instance: String) async throws(ClientError) -> InstanceObject {
        try await call(WireCalls.sceneFocus, FocusParams(instance: instance)).instance
    }

    /// `scene.route`: asks for `route` from instance `from`.
    @discardableResult
    public func route(_ route: JSONValue, from: String) async throws(ClientError) -> RouteResult {
        try await call(WireCalls.sceneRoute, RouteParams(from: from, route: route))
    }

    /// `flow.send`: one intent in `instance`'s flow.
    @discardableResult
    public func send(_ intent: FlowIntent<JSONValue>, to instance: String) async throws(ClientError) -> FlowSendResult {
        try await call(WireCalls.flowSend, FlowSendParams(instance: instance, intent: intent))
    }

    /// `flow.apply`: resets `instance`'s path to `plan`.
    @discardableResult
    public func apply(_ plan: FlowPlan<JSONValue>, to instance: String) async throws(ClientError) -> [RouteStep<JSONValue>] {
        try await call(WireCalls.flowApply, FlowApplyParams(instance: instance, plan: plan)).path
    }

    /// `flow.batch`.
    @discardableResult
    public func batch(_ intents: [FlowIntent<JSONValue>], to instance: String, stopOnFailure: Bool = false)
        async throws(ClientError) -> FlowBatchResultObject
    {
        try await call(WireCalls.flowBatch, FlowBatchParams(instance: instance, intents: intents, stopOnFailure: stopOnFailure))
    }

    /// `flow.transaction`: all or nothing.
    @discardableResult
    public func transaction(_ intents: [FlowIntent<JSONValue>], to instance: String) async throws(ClientError)
        -> [RouteStep<JSONValue>]
    {
        try await call(WireCalls.flowTransaction, FlowTransactionParams(instance: instance, intents: intents)).path
    }

    /// `flow.reconcile`: `observed` is the path a UI toolkit shows for `instance`; `adopt`
    /// takes it (as the fewest intents, listed in the result), `reject` refuses a different
    /// one `path_mismatch`.
    @discardableResult
    public func reconcile(_ instance: String, observed: [RouteStep<JSONValue>], policy: ReconcilePolicy)
        async throws(ClientError) -> FlowReconcileResultObject
    {
        try await call(WireCalls.flowReconcile, FlowReconcileParams(instance: instance, observed: observed, policy: policy))
    }

    /// `scene.program`: `steps` (`{"method", "params"}` each) in order, as one request. The
    /// first step that fails ends it: the error is that step's, with `data.step` (its
    /// index) and `data.results` (the results before it); the steps before it stay applied.
    @discardableResult
    public func program(_ steps: [ProgramStep<JSONValue>]) async throws(ClientError) -> ProgramResult {
        var json: [JSONValue] = []
        for step in steps {
            do {
                json.append(try step.json())
            } catch {
                throw .remote(error)
            }
        }
        return try await call(WireCalls.sceneProgram, ProgramParams(steps: json))
    }

    /// `scene.present`: opens `scene` from instance `from` and waits until the presented
    /// instance finishes; answers it and its result. Later requests on this connection
    /// do not wait for it, and the connection's timeout does not bound it: the result may
    /// take as long as a person takes.
    public func present(_ scene: String, value: JSONValue? = nil, from: String) async throws(ClientError) -> PresentResult {
        try await call(WireCalls.scenePresent, PresentParams(scene: scene, value: value, from: from))
    }

    /// `scene.finish`: presented `instance` (a scene connection's own when nil) ends with
    /// `result`, and is dismissed.
    public func finish(_ instance: String? = nil, result: JSONValue) async throws(ClientError) {
        _ = try await call(WireCalls.sceneFinish, FinishParams(instance: instance, result: result))
    }

    /// `scene.reopen`: brings back the most recently dismissed instance (of `scene`), with
    /// its value and its path, by the scene's usual rules; `nothing_to_reopen` when none is
    /// kept.
    @discardableResult
    public func reopen(_ scene: String? = nil) async throws(ClientError) -> InstanceObject {
        try await call(WireCalls.sceneReopen, ReopenParams(scene: scene)).instance
    }

    /// `immersive.style`: changes the open immersive space's style to one its scene
    /// declares (`style_not_allowed` otherwise; `not_open` when none is open).
    @discardableResult
    public func setImmersiveStyle(_ style: ImmersionStyle) async throws(ClientError) -> InstanceObject {
        try await call(WireCalls.immersiveStyle, ImmersiveStyleParams(style: style.rawValue)).instance
    }

    /// `scene.restart`: restarts the process (or in-process behaviour) behind `instance`
    /// now, its path kept; `not_connected` for an instance without one.
    @discardableResult
    public func restart(_ instance: String) async throws(ClientError) -> InstanceObject {
        try await call(WireCalls.sceneRestart, RestartParams(instance: instance)).instance
    }

    /// `session.save`: saves what is open as session `name` (beside the state file).
    public func saveSession(_ name: String) async throws(ClientError) {
        _ = try await call(WireCalls.sessionSave, SessionParams(name: name))
    }

    /// `session.load`: replaces what is open with session `name`; answers the instances
    /// it opened. Unless `force`, a close refused by any open instance fails it
    /// (`close_vetoed`) and nothing changes.
    @discardableResult
    public func loadSession(_ name: String, force: Bool = false) async throws(ClientError) -> [String] {
        try await call(WireCalls.sessionLoad, SessionLoadParams(name: name, force: force ? true : nil)).instances
    }

    /// `session.list`: the saved sessions' names, sorted.
    public func sessions() async throws(ClientError) -> [String] {
        try await call(WireCalls.sessionList, EmptyResult()).sessions
    }

    /// `session.delete`: deletes session `name`.
    public func deleteSession(_ name: String) async throws(ClientError) {
        _ = try await call(WireCalls.sessionDelete, SessionParams(name: name))
    }

    /// `token.issue`: an attach token for `scene` (for a per-value scene, the instance of
    /// `value`), good for `ttl` and for `uses` hellos (each nil: no limit). The result
    /// carries the secret, which the coordinator shows only this once.
    public func issueToken(
        scene: String, value: JSONValue? = nil, ttl: Duration? = nil, uses: Int? = nil
    ) async throws(ClientError) -> TokenIssueResult {
        let seconds = ttl.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        return try await call(WireCalls.tokenIssue, TokenIssueParams(scene: scene, value: value, ttl: seconds, uses: uses))
    }

    /// `token.list`: the attach tokens still good, by id (never their secrets).
    public func tokens() async throws(ClientError) -> [TokenInfo] {
        try await call(WireCalls.tokenList, EmptyResult()).tokens
    }

    /// `token.revoke`: revokes attach token `id` (`unknown_token` when none is good).
    public func revokeToken(_ id: String) async throws(ClientError) {
        _ = try await call(WireCalls.tokenRevoke, TokenRevokeParams(id: id))
    }

    /// `scene.status`: `instance`, and how its process is doing (pid, uptime, restarts,
    /// the last exit and why, heartbeat age); `process` is nil for a virtual or in-process
    /// instance.
    public func status(_ instance: String) async throws(ClientError) -> StatusResult {
        try await call(WireCalls.sceneStatus, StatusParams(instance: instance))
    }

    /// `link.open`.
    @discardableResult
    public func openLink(_ url: String) async throws(ClientError) -> LinkOpenResult {
        try await call(WireCalls.linkOpen, LinkOpenParams(url: url))
    }

    /// `auth.set`; answers the `replayed` member (null when nothing was replayed).
    @discardableResult
    public func setAuthenticated(_ authenticated: Bool) async throws(ClientError) -> JSONValue {
        try await call(WireCalls.authSet, AuthSetParams(authenticated: authenticated)).replayed ?? .null
    }

    /// `state`.
    public func state() async throws(ClientError) -> StateResult {
        try await call(WireCalls.state, StateParams())
    }

    /// `unsubscribe`.
    public func unsubscribe() async throws(ClientError) {
        _ = try await call(WireCalls.unsubscribe, EmptyParams())
    }

    /// `ping`.
    public func ping() async throws(ClientError) {
        _ = try await call(WireCalls.ping, EmptyParams())
    }

    /// `coordinator.shutdown`: the coordinator answers, then stops.
    public func shutdownCoordinator() async throws(ClientError) {
        _ = try await call(WireCalls.coordinatorShutdown, EmptyParams())
    }
}
