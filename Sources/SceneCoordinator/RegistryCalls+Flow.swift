import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneWire

// What the flow methods do on the registry: each acts on one open instance's path.

extension FlowSendParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let instance)? = members["instance"],
            let intent = members["intent"].flatMap(FlowIntent<JSONValue>.init(plainJSON:))
        else { return nil }
        return Self(instance: instance, intent: intent)
    }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let id = try CallFailure.instance(instance)
            let intent = try WireRoutes<R>.typed(FlowIntent<R>.self, from: self.intent, member: "intent")
            let source = FlowCause.Source(asking: scene)
            // The answer's path is the instance's text of it, brought up to date, so that its
            // cost does not grow with the path's depth (a push writes one step, a pop none;
            // routes of another type are converted anew each time, and so written whole).
            let (outcome, text) = try registry.onFlow(of: id, for: .flowSend) { instance throws(RegistryRejection) in
                let outcome = try instance.send(intent, by: source)
                if outcome.isRejected { return (outcome, [UInt8]()) }
                return (outcome, Self.pathText(of: instance).update(to: WireRoutes<R>.json(instance.path)))
            }
            if case .rejected(let reason) = outcome { throw .rejected(.flow(reason)) }
            return WrittenFlowSendResult(outcome: outcome.name, path: text)
        }
    }

    /// The text of the path `instance` last answered with, made on its first answer.
    private static func pathText<R: Route>(of instance: isolated SceneInstance<R>) -> PathText {
        if let text = instance.servedMemo as? PathText { return text }
        let text = PathText()
        instance.servedMemo = text
        return text
    }
}

extension FlowApplyParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let id = try CallFailure.instance(instance)
            let steps = try WireRoutes<R>.typed([RouteStep<R>].self, from: plan, member: "plan")
            let source = FlowCause.Source(asking: scene)
            let (outcome, path) = try registry.onFlow(of: id, for: .flowApply) { instance throws(RegistryRejection) in
                (try instance.apply(steps: steps, by: source), instance.path)
            }
            if case .rejected(let reason) = outcome { throw .rejected(.flow(reason)) }
            return PathResult(path: WireRoutes<R>.json(path))
        }
    }
}

extension FlowBatchParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let id = try CallFailure.instance(instance)
            let intents = try WireRoutes<R>.typed([FlowIntent<R>].self, from: self.intents, member: "intents")
            let source = FlowCause.Source(asking: scene)
            let stopOnFailure = self.stopOnFailure ?? false
            let result = try registry.onFlow(of: id, for: .flowBatch) { instance throws(RegistryRejection) in
                try instance.batch(intents, stopOnFailure: stopOnFailure, by: source)
            }
            let outcomes = result.outcomes.map { outcome in
                BatchOutcome(outcome: outcome.name, error: outcome.rejection.map { WireError.domain($0).json })
            }
            return FlowBatchResultObject(outcomes: outcomes, path: WireRoutes<R>.json(result.new))
        }
    }
}

extension FlowTransactionParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let id = try CallFailure.instance(instance)
            let intents = try WireRoutes<R>.typed([FlowIntent<R>].self, from: self.intents, member: "intents")
            let source = FlowCause.Source(asking: scene)
            let outcome = try registry.onFlow(of: id, for: .flowTransaction) { instance throws(RegistryRejection) in
                try instance.transaction(intents, by: source)
            }
            switch outcome {
            case .committed(_, _, let new):
                return PathResult(path: WireRoutes<R>.json(new))
            case .failed(let index, _, let reason):
                let error = WireError.domain(reason)
                throw .wire(error.adding(["index": .integer(index)], message: "intent \(index) failed: \(error.message)"))
            }
        }
    }
}

extension FlowReconcileParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            guard let policy = ReconcilePolicy(rawValue: policy) else {
                throw .wire(.invalidParams("policy: \"\(self.policy)\" is not a policy (adopt or reject)"))
            }
            let id = try CallFailure.instance(instance)
            let observed = try WireRoutes<R>.typed([RouteStep<R>].self, from: self.observed, member: "observed")
            let result = try registry.onFlow(of: id, for: .flowReconcile) { instance throws(RegistryRejection) in
                try instance.reconcile(to: observed, policy: policy)
            }
            return FlowReconcileResultObject(
                outcome: result.outcome, path: WireRoutes<R>.json(result.path),
                intents: try WireRoutes<R>.typed([FlowIntent<JSONValue>].self, from: result.intents, member: "intents"))
        }
    }
}

extension FlowCause.Source {
    /// Whose request changed a flow: the scene connection's instance's own, or a control
    /// connection's.
    init(asking scene: InstanceID?) { self = scene == nil ? .control : .scene }
}

extension SceneRegistry {
    /// `body` on the flow of open instance `id`, for `method`: its rejection when `id` is
    /// not open or `body` refuses.
    func onFlow<T: Sendable>(
        of id: InstanceID, for method: WireMethod, _ body: @Sendable (isolated SceneInstance<R>) throws(RegistryRejection) -> T
    ) throws(CallFailure) -> T {
        try CallFailure.registry { () throws(RegistryRejection) in
            // `withInstance`'s way in, here: this module's callers are specialized for the
            // wire's routes, and so the instance is entered with nothing allocated, where
            // `withInstance`, an actor method of another module, runs unspecialized.
            let instance = try openInstance(id, for: method.rawValue)
            return try instance.assumingIsolation(established: hosts(instance)) { (instance) throws(RegistryRejection) in
                try body(instance)
            }
        }
    }
}
