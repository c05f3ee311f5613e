import SceneFlow
import SceneJSON
import SceneSync

extension SceneRegistry {
    // MARK: Calls

    /// Calls `call.method` on `target`, wherever its code runs, and answers its result:
    /// an in-process scene's behaviour directly, a process scene through its connection.
    ///
    /// - A scene that declares an interface is held to it first: -32601 for a method it
    ///   does not declare, -32602 for params that break the method's schema.
    /// - A call to an `activatable` scene with no open instance opens one first, and calls
    ///   that come while it opens wait for that one instance.
    /// - Throws: `reserved_method`, `unknown_scene`, `not_open`, `not_connected` (a
    ///   virtual instance, or nothing answering for it now), `call_timeout` after `timeout`
    ///   (``SceneTimeouts/call`` when nil), what opening an activatable scene throws, or
    ///   the target's own error as it answered it.
    nonisolated(nonsending) public func call(
        _ call: SceneCall, to target: SceneTarget, timeout: Duration? = nil
    ) async throws(SceneError) -> ScenePayload {
        let wait = try call.admitted(to: target.scene, interface: interfaces[target.scene], timeout: timeout, standard: timeouts.call)
        return try await self.call(admitted: call, to: target, waiting: wait)
    }

    /// Calls `call.method` on `target`, the call admitted (``SceneCall/admitted(to:interface:timeout:standard:)``)
    /// with `wait`.
    nonisolated(nonsending) func call(admitted call: SceneCall, to target: SceneTarget, waiting wait: Duration)
        async throws(SceneError) -> ScenePayload
    {
        // A running in-process behaviour is reached without a stop at the registry.
        if let host, let answer = try await host.callees.callIfRunning(call, to: target, timeout: wait) { return answer }
        let (id, backing) = try await callee(target, for: "scene.call")
        return try await backing.call(call, on: id, timeout: wait)
    }

    /// Delivers `call` to `target` as a notification, wherever its code runs; answers
    /// once it is delivered (an in-process behaviour hears it in order with its changes).
    ///
    /// - The scene's interface and activation apply as for ``call(_:to:timeout:)``.
    /// - Throws: `reserved_method`, -32601, -32602, `unknown_scene`, `not_open`,
    ///   `not_connected`.
    public nonisolated func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError) {
        guard !SceneCall.isReserved(call.method) else { throw .reservedMethod(call.method) }
        if let refusal = refusal(of: call, to: target.scene) { throw refusal }
        let (id, backing) = try await callee(target, for: "scene.notify")
        try await backing.notify(call, on: id)
    }

    /// The instance `target` names (an activatable scene's opened for it) and what backs it.
    private func callee(_ target: SceneTarget, for request: String) async throws(SceneError) -> (InstanceID, any SceneBacking) {
        let id: InstanceID
        switch target {
        case .instance(let named):
            guard book.records[named] != nil else { throw SceneError(RegistryRejection.instanceNotOpen(named)) }
            id = named
        case .scene(let scene):
            do throws(RegistryRejection) {
                id = try await finish(beginActivation(of: scene, for: request)).get()
            } catch {
                throw SceneError(error)
            }
        }
        guard let backing = backing(of: id) else { throw .notConnected(id) }
        return (id, backing)
    }

    /// Hands `call` to the running behaviour of in-process instance `id`, without a task:
    /// `completion` gets its answer (or `call_timeout`) where the behaviour's worker runs,
    /// on the behaviour's executor. Answers false, and calls nothing, when no behaviour of
    /// `id` runs now; ``call(_:to:timeout:)`` then says why.
    package nonisolated func callRunning(
        _ call: SceneCall, on id: InstanceID, timeout: Duration, completion: @escaping @Sendable (Result<ScenePayload, SceneError>) -> Void
    ) -> Bool {
        guard timeout > .zero, timeout <= SceneCall.maximumTimeout, !SceneCall.isReserved(call.method),
            interfaces[id.scene] == nil, let workers = host?.callees.workers(id)
        else { return false }
        workers.run(CallJob(work: .call(call), waiter: .handler(completion), instance: id, timeout: timeout))
        return true
    }

    /// Where the code of instances of `id`'s scene runs; nil for an undeclared scene.
    public nonisolated func hosting(of id: InstanceID) -> SceneHosting? {
        declarationsByID[id.scene]?.hosting
    }

    /// Whether the code of instances of `id`'s scene runs in this process: ``hosting(of:)``
    /// is `.inProcess`, asked without copying the declaration (every relayed call asks).
    public nonisolated func runsInProcess(_ id: InstanceID) -> Bool {
        placements[id.scene] == .inProcess
    }

    /// Stops every in-process behaviour without dismissing its instance, as a shutting
    /// down coordinator stops its scene processes: each hears a forced close, then its
    /// stop. Returns once all have. A registry restored from a snapshot starts them again.
    public nonisolated func stopBehaviors() async {
        await host?.stopAll()
    }

    // MARK: For the behaviour host

    /// Applies an intent a behaviour sends its own flow. While its instance is still
    /// opening (the behaviour is starting), the intent shapes the path the instance opens
    /// with, as a deep link's plan does: no event comes before its `scene.opened`, which
    /// carries that path.
    func send(_ intent: FlowIntent<R>, fromBehaviorOf id: InstanceID) throws(RegistryRejection) -> (FlowOutcome<R>, [RouteStep<R>]) {
        if book.presetsPath(of: id), let instance = instances[id] {
            return entering(instance) { ($0.flow.send(intent), $0.flow.path) }
        }
        return try withInstance(id, for: "flow.send") { (instance) throws(RegistryRejection) in
            (try instance.send(intent, by: .scene), instance.path)
        }
    }

    func recordedValue(of id: InstanceID) -> JSONValue? {
        book.records[id]?.value
    }

    /// The behaviour of `id` (re)started: see ``processAttached(_:)``.
    func attached(_ id: InstanceID) -> Result<InstanceInfo<R>, RegistryRejection> {
        Result { () throws(RegistryRejection) in try processAttached(id) }
    }
}
