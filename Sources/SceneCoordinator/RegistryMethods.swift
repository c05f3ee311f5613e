import SceneCore
import SceneFlow
import SceneWire

/// The methods that act on the registry: params in, result or error out.
enum RegistryMethods {
    static func perform(_ method: WireMethod, params: JSONValue?, registry: SceneRegistry<JSONValue>) async
        -> Result<JSONValue, WireError>
    {
        do throws(WireError) {
            return .success(try await dispatch(method, params: params, registry: registry))
        } catch {
            return .failure(error)
        }
    }

    /// Turns a registry rejection into the wire's -32000 error.
    private static func domain<T>(_ body: () async throws(RegistryRejection) -> T) async throws(WireError) -> T {
        do {
            return try await body()
        } catch {
            throw .domain(error)
        }
    }

    private static func instanceID(_ text: String, field: String = "instance") throws(WireError) -> InstanceID {
        guard let id = InstanceID(text) else {
            throw .invalidParams("\(field): \"\(text)\" is not an instance id (<scene>-<n>)")
        }
        return id
    }

    private static func dispatch(_ method: WireMethod, params: JSONValue?, registry: SceneRegistry<JSONValue>)
        async throws(WireError) -> JSONValue
    {
        switch method {
        case .sceneOpen:
            let request = try WireCodec.decode(OpenParams.self, from: params)
            let outcome = try await domain { () async throws(RegistryRejection) in
                try await registry.open(request.scene, value: request.value)
            }
            return WireCodec.json(OpenResult(instance: InstanceObject(outcome.instance), outcome: outcome.name))

        case .scenePush:
            let request = try WireCodec.decode(PushParams.self, from: params)
            let from = try instanceID(request.from, field: "from")
            let info = try await domain { () async throws(RegistryRejection) in
                try await registry.push(request.scene, value: request.value, from: from)
            }
            return WireCodec.json(InstanceResult(instance: InstanceObject(info)))

        case .sceneDismiss:
            let request = try WireCodec.decode(DismissParams.self, from: params)
            let force = request.force ?? false
            switch (request.instance, request.scene) {
            case (let text?, nil):
                let id = try instanceID(text)
                let dismissed = try await domain { () async throws(RegistryRejection) in
                    try await registry.dismiss(id, force: force)
                }
                return WireCodec.json(DismissResult(dismissed: dismissed.map(\.description)))
            case (nil, let scene?):
                let outcome = try await domain { () async throws(RegistryRejection) in
                    try await registry.dismiss(scene: scene, value: request.value, force: force)
                }
                return WireCodec.json(DismissResult(
                    dismissed: outcome.dismissed.map(\.description), vetoed: outcome.vetoed.map(\.description)))
            default:
                throw .invalidParams("give either instance, or scene (with an optional value)")
            }

        case .scenePhase:
            let request = try WireCodec.decode(ScenePhaseParams.self, from: params)
            let id = try instanceID(request.instance)
            guard let phase = ScenePhase(rawValue: request.phase) else {
                throw .invalidParams("phase: \"\(request.phase)\" is not a phase (active, inactive or background)")
            }
            let info = try await domain { () async throws(RegistryRejection) in
                try await registry.setPhase(id, phase)
                return try await registry.info(id)
            }
            return WireCodec.json(InstanceResult(instance: InstanceObject(info)))

        case .immersiveDismiss:
            let dismissed = try await domain { () async throws(RegistryRejection) in try await registry.dismissImmersive() }
            return WireCodec.json(DismissResult(dismissed: dismissed.map(\.description)))

        case .sceneFocus:
            let request = try WireCodec.decode(FocusParams.self, from: params)
            let id = try instanceID(request.instance)
            let info = try await domain { () async throws(RegistryRejection) in try await registry.focus(id) }
            return WireCodec.json(InstanceResult(instance: InstanceObject(info)))

        case .sceneRoute:
            let request = try WireCodec.decode(RouteParams.self, from: params)
            let from = try instanceID(request.from, field: "from")
            let outcome = try await domain { () async throws(RegistryRejection) in
                try await registry.route(request.route, from: from)
            }
            return WireCodec.json(RouteResult(outcome: outcome.name, instance: InstanceObject(outcome.instance)))

        case .flowSend:
            let request = try WireCodec.decode(FlowSendParams.self, from: params)
            let id = try instanceID(request.instance)
            let (outcome, path) = try await domain { () async throws(RegistryRejection) in
                try await registry.withInstance(id, for: method.rawValue) { instance throws(RegistryRejection) in
                    (try instance.send(request.intent), instance.path)
                }
            }
            if case .rejected(let reason) = outcome { throw .domain(reason) }
            return ["outcome": .string(outcome.name), "path": WireCodec.json(path)]  // FlowSendResult

        case .flowApply:
            let request = try WireCodec.decode(FlowApplyParams.self, from: params)
            let id = try instanceID(request.instance)
            let (outcome, path) = try await domain { () async throws(RegistryRejection) in
                try await registry.withInstance(id, for: method.rawValue) { instance throws(RegistryRejection) in
                    (try instance.apply(request.plan), instance.path)
                }
            }
            if case .rejected(let reason) = outcome { throw .domain(reason) }
            return WireCodec.json(PathResult(path: path))

        case .flowBatch:
            let request = try WireCodec.decode(FlowBatchParams.self, from: params)
            let id = try instanceID(request.instance)
            let result = try await domain { () async throws(RegistryRejection) in
                try await registry.withInstance(id, for: method.rawValue) { instance throws(RegistryRejection) in
                    try instance.batch(request.intents, stopOnFailure: request.stopOnFailure ?? false)
                }
            }
            let outcomes = result.outcomes.map { outcome in
                BatchOutcome(outcome: outcome.name, error: outcome.rejection.map { WireError.domain($0).json })
            }
            return WireCodec.json(FlowBatchResultObject(outcomes: outcomes, path: result.new))

        case .flowTransaction:
            let request = try WireCodec.decode(FlowTransactionParams.self, from: params)
            let id = try instanceID(request.instance)
            let outcome = try await domain { () async throws(RegistryRejection) in
                try await registry.withInstance(id, for: method.rawValue) { instance throws(RegistryRejection) in
                    try instance.transaction(request.intents)
                }
            }
            switch outcome {
            case .committed(_, _, let new):
                return WireCodec.json(PathResult(path: new))
            case .failed(let index, _, let reason):
                let error = WireError.domain(reason)
                var data = error.data
                data["index"] = .integer(index)
                throw WireError(code: error.code, message: "intent \(index) failed: \(error.message)", data: data)
            }

        case .linkOpen:
            let request = try WireCodec.decode(LinkOpenParams.self, from: params)
            return try linkResult(await registry.openLink(request.url)).get()

        case .authSet:
            let request = try WireCodec.decode(AuthSetParams.self, from: params)
            guard let replay = await registry.setAuthenticated(request.authenticated) else {
                return .object(["replayed": .null])
            }
            switch linkResult(replay) {
            case .success(let result): return .object(["replayed": result])
            case .failure(let error): return .object(["replayed": .object(["error": error.json])])
            }

        case .state:
            return WireCodec.json(StateResult(await registry.state()))

        case .hello, .ping, .subscribe, .unsubscribe, .coordinatorShutdown, .sceneCall, .sceneNotify:
            // Answered on the loop thread; never queued.
            throw .methodNotFound(method.rawValue)
        }
    }

    /// A link outcome as the `link.open` result, or its error.
    static func linkResult(_ outcome: LinkOutcome<JSONValue>) -> Result<JSONValue, WireError> {
        switch outcome {
        case .handled(let info, let opened):
            return .success(WireCodec.json(LinkOpenResult(outcome: "handled", instance: InstanceObject(info), opened: opened)))
        case .pending(_, let superseded):
            return .success(WireCodec.json(LinkOpenResult(outcome: "pending", superseded: superseded)))
        case .rejected(let reason):
            return .failure(.domain(reason))
        case .unhandled(let path):
            return .failure(.domain(RegistryRejection.linkUnhandled(path: path)))
        }
    }
}
