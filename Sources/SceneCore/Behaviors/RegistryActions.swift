import SceneFlow
import SceneJSON

/// What a hosted behaviour's context asks, carried out by its registry.
struct RegistryActions<R: Route>: SceneActions {
    let host: BehaviorHost<R>
    weak let owner: SceneRegistry<R>?
    let instance: InstanceID
    /// Which start of the instance this context was made for: an older behaviour's end
    /// does not end a newer one.
    let generation: Int

    private func registry() throws(SceneError) -> SceneRegistry<R> {
        guard let owner else { throw SceneError.notConnected(instance) }
        return owner
    }

    private func run<T>(_ body: () async throws(RegistryRejection) -> T) async throws(SceneError) -> T {
        do throws(RegistryRejection) {
            return try await body()
        } catch {
            throw SceneError(error)
        }
    }

    func send(_ intent: FlowIntent<R>, in instance: InstanceID) async throws(SceneError) -> [RouteStep<R>] {
        let registry = try registry()
        let (outcome, path) = try await run { () throws(RegistryRejection) in try await registry.send(intent, fromBehaviorOf: instance) }
        if case .rejected(let reason) = outcome { throw SceneError(RegistryRejection.flow(reason)) }
        return path
    }

    func path(of instance: InstanceID) async throws(SceneError) -> [RouteStep<R>] {
        let registry = try registry()
        return try await run { () throws(RegistryRejection) in
            try await registry.withInstance(instance, for: "flow.path") { $0.path }
        }
    }

    func reconcile(_ instance: InstanceID, observed: [RouteStep<R>], policy: ReconcilePolicy) async throws(SceneError)
        -> ReconcileResult<R>
    {
        let registry = try registry()
        return try await run { () throws(RegistryRejection) in
            try await registry.withInstance(instance, for: "flow.reconcile") { instance throws(RegistryRejection) in
                try instance.reconcile(to: observed, policy: policy)
            }
        }
    }

    func route(_ route: R, from instance: InstanceID) async throws(SceneError) -> InstanceID {
        let registry = try registry()
        return try await run { () throws(RegistryRejection) in try await registry.route(route, from: instance).instance.id }
    }

    func open(_ scene: String, value: JSONValue?) async throws(SceneError) -> InstanceID {
        let registry = try registry()
        return try await run { () throws(RegistryRejection) in try await registry.open(scene, value: value).instance.id }
    }

    func push(_ scene: String, value: JSONValue?, from: InstanceID) async throws(SceneError) -> InstanceID {
        let registry = try registry()
        return try await run { () throws(RegistryRejection) in try await registry.push(scene, value: value, from: from).id }
    }

    func dismissItself(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID] {
        let registry = try registry()
        return try await run { () throws(RegistryRejection) in try await registry.dismiss(instance, force: force, closingItself: true) }
    }

    func present(_ scene: String, value: JSONValue?, from: InstanceID) async throws(SceneError) -> (InstanceID, JSONValue) {
        let registry = try registry()
        let outcome = try await run { () throws(RegistryRejection) in try await registry.present(scene, value: value, from: from) }
        return (outcome.instance.id, outcome.result)
    }

    func finish(_ instance: InstanceID, result: JSONValue) async throws(SceneError) {
        let registry = try registry()
        try await run { () throws(RegistryRejection) in try await registry.finish(instance, result: result) }
    }

    /// A call to a running behaviour goes to it straight from here, admitted as the
    /// registry admits it, without the registry: the registry is weakly referenced, so its
    /// reference counts are in a side table and taking it costs a slow retain and release.
    nonisolated(nonsending) func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError)
        -> ScenePayload
    {
        let wait = try call.admitted(
            to: target.scene, interface: host.interfaces[target.scene], timeout: timeout, standard: host.timeouts.call)
        if let answer = try await host.callees.callIfRunning(call, to: target, timeout: wait) { return answer }
        return try await registry().call(admitted: call, to: target, waiting: wait)
    }

    func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError) {
        try await registry().notify(call, to: target)
    }

    func emit(_ signal: String, payload: JSONValue?, from instance: InstanceID) async throws(SceneError) {
        try await registry().emit(signal, payload: payload, from: instance)
    }

    func end(_ instance: InstanceID, error: (any Error)?) {
        host.ended(instance, generation: generation, error: error)
    }
}
