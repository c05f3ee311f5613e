import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

/// A request that acts on the registry, decoded from its params: the typed form a session
/// hands the registry.
enum RegistryRequest: Sendable {
    case open(scene: String, value: JSONValue?)
    case reopen(scene: String?)
    case push(scene: String, value: JSONValue?, from: InstanceID)
    case dismissInstance(InstanceID, force: Bool)
    case dismissScene(String, value: JSONValue?, force: Bool)
    case phase(InstanceID, ScenePhase)
    case dismissImmersive
    case immersiveStyle(ImmersionStyle)
    case focus(InstanceID)
    case route(JSONValue, from: InstanceID)
    case flowSend(InstanceID, FlowIntent<JSONValue>)
    case flowApply(InstanceID, [RouteStep<JSONValue>])
    case flowBatch(InstanceID, [FlowIntent<JSONValue>], stopOnFailure: Bool)
    case flowTransaction(InstanceID, [FlowIntent<JSONValue>])
    case flowReconcile(InstanceID, observed: [RouteStep<JSONValue>], policy: ReconcilePolicy)
    case link(String)
    case program([ProgramStep<JSONValue>])
    case present(scene: String, value: JSONValue?, from: InstanceID)
    case finish(InstanceID, result: JSONValue)
    case authenticate(Bool)
    case emit(InstanceID, signal: String, payload: JSONValue?)
    case loadSession(RegistrySnapshot<JSONValue>, force: Bool)
    case state

    /// Decodes `params` of `method`; -32602 with the path of what does not fit, -32601 for
    /// a method that does not act on the registry.
    init(_ method: WireMethod, params: JSONValue?) throws(WireError) {
        if let plain = Self(plain: method, params: params) {
            self = plain
            return
        }
        switch method {
        case .sceneOpen:
            let request = try WireCodec.decode(OpenParams.self, from: params)
            self = .open(scene: request.scene, value: request.value)
        case .scenePush:
            let request = try WireCodec.decode(PushParams.self, from: params)
            self = .push(scene: request.scene, value: request.value, from: try Self.instanceID(request.from, field: "from"))
        case .sceneDismiss:
            let request = try WireCodec.decode(DismissParams.self, from: params)
            let force = request.force ?? false
            switch (request.instance, request.scene) {
            case (let text?, nil): self = .dismissInstance(try Self.instanceID(text), force: force)
            case (nil, let scene?): self = .dismissScene(scene, value: request.value, force: force)
            default: throw .invalidParams("give either instance, or scene (with an optional value)")
            }
        case .scenePhase:
            let request = try WireCodec.decode(ScenePhaseParams.self, from: params)
            let id = try Self.instanceID(request.instance)
            guard let phase = ScenePhase(rawValue: request.phase) else {
                throw .invalidParams("phase: \"\(request.phase)\" is not a phase (active, inactive or background)")
            }
            self = .phase(id, phase)
        case .immersiveDismiss:
            self = .dismissImmersive
        case .immersiveStyle:
            let request = try WireCodec.decode(ImmersiveStyleParams.self, from: params)
            guard let style = ImmersionStyle(rawValue: request.style) else {
                throw .invalidParams("style: \"\(request.style)\" is not a style (mixed, progressive or full)")
            }
            self = .immersiveStyle(style)
        case .sceneFocus:
            self = .focus(try Self.instanceID(try WireCodec.decode(FocusParams.self, from: params).instance))
        case .sceneRoute:
            let request = try WireCodec.decode(RouteParams.self, from: params)
            self = .route(request.route, from: try Self.instanceID(request.from, field: "from"))
        case .flowSend:
            let request = try WireCodec.decode(FlowSendParams.self, from: params)
            self = .flowSend(try Self.instanceID(request.instance), request.intent)
        case .flowApply:
            let request = try WireCodec.decode(FlowApplyParams.self, from: params)
            self = .flowApply(try Self.instanceID(request.instance), request.plan)
        case .flowBatch:
            let request = try WireCodec.decode(FlowBatchParams.self, from: params)
            self = .flowBatch(try Self.instanceID(request.instance), request.intents, stopOnFailure: request.stopOnFailure ?? false)
        case .flowTransaction:
            let request = try WireCodec.decode(FlowTransactionParams.self, from: params)
            self = .flowTransaction(try Self.instanceID(request.instance), request.intents)
        case .flowReconcile:
            let request = try WireCodec.decode(FlowReconcileParams.self, from: params)
            guard let policy = ReconcilePolicy(rawValue: request.policy) else {
                throw .invalidParams("policy: \"\(request.policy)\" is not a policy (adopt or reject)")
            }
            self = .flowReconcile(try Self.instanceID(request.instance), observed: request.observed, policy: policy)
        case .linkOpen:
            self = .link(try WireCodec.decode(LinkOpenParams.self, from: params).url)
        case .scenePresent:
            let request = try WireCodec.decode(PresentParams.self, from: params)
            self = .present(scene: request.scene, value: request.value, from: try Self.instanceID(request.from, field: "from"))
        case .sceneFinish:
            let request = try WireCodec.decode(FinishParams.self, from: params)
            guard let instance = request.instance else { throw .invalidParams("instance: missing (a control connection names it)") }
            self = .finish(try Self.instanceID(instance), result: request.result)
        case .sceneProgram:
            guard case .array(let steps)? = params?["steps"] else { throw .invalidParams("steps: must be an array of steps") }
            do {
                self = .program(try ProgramStep<JSONValue>.program(json: steps))
            } catch {
                throw .invalidParams(error.description)
            }
        case .authSet:
            self = .authenticate(try WireCodec.decode(AuthSetParams.self, from: params).authenticated)
        case .sceneReopen:
            self = .reopen(scene: try WireCodec.decode(ReopenParams.self, from: params).scene)
        case .sceneEmit:
            let request = try WireCodec.decode(EmitParams.self, from: params)
            guard let instance = request.instance else { throw .invalidParams("instance: missing (a control connection names it)") }
            guard !request.signal.isEmpty else { throw .invalidParams("signal: must not be empty") }
            self = .emit(try Self.instanceID(instance), signal: request.signal, payload: request.payload)
        case .state:
            self = .state
        case .hello, .ping, .subscribe, .unsubscribe, .coordinatorShutdown, .sceneCall, .sceneNotify, .sceneStatus,
            .sceneDescribe, .sceneRestart, .sessionSave, .sessionLoad, .sessionList, .sessionDelete:
            // Answered by the session itself; never reaches the registry.
            throw .methodNotFound(method.rawValue)
        }
    }

    /// The instance id `text` names; -32602 naming `field` when it names none.
    static func instanceID(_ text: String, field: String = "instance") throws(WireError) -> InstanceID {
        guard let id = InstanceID(text) else {
            throw .invalidParams("\(field): \"\(text)\" is not an instance id (<scene>-<n>)")
        }
        return id
    }

    /// The method's name, for the registry's `request.rejected` events.
    var method: WireMethod {
        switch self {
        case .open: return .sceneOpen
        case .reopen: return .sceneReopen
        case .push: return .scenePush
        case .dismissInstance, .dismissScene: return .sceneDismiss
        case .phase: return .scenePhase
        case .dismissImmersive: return .immersiveDismiss
        case .immersiveStyle: return .immersiveStyle
        case .focus: return .sceneFocus
        case .route: return .sceneRoute
        case .flowSend: return .flowSend
        case .flowApply: return .flowApply
        case .flowBatch: return .flowBatch
        case .flowTransaction: return .flowTransaction
        case .flowReconcile: return .flowReconcile
        case .link: return .linkOpen
        case .program: return .sceneProgram
        case .present: return .scenePresent
        case .finish: return .sceneFinish
        case .authenticate: return .authSet
        case .emit: return .sceneEmit
        case .loadSession: return .sessionLoad
        case .state: return .state
        }
    }
}

/// What a registry request answers: its result, written straight into the answer's frame,
/// or its error.
typealias WireAnswer = Result<any WireWritable, WireError>

/// Applies registry requests and encodes their answers.
enum RegistryMethods {
    /// Applies `request` as far as it goes in this step (see ``RegistryStep``); its answer
    /// is ready now, or once the rest has been awaited. The step never fails: a rejection
    /// is the answer's error.
    ///
    /// - A registry of the app's own routes gets the request's routes decoded from their
    ///   JSON (-32602 when they do not fit), and answers with its routes encoded.
    /// - `scene`: the instance of the scene connection that asks (its flow changes are
    ///   caused `by: scene`, and it is not asked before closing itself); nil for a control
    ///   connection.
    @_specialize(where R == JSONValue)
    static func begin<R: Route>(
        _ request: RegistryRequest, from scene: InstanceID?, on registry: isolated SceneRegistry<R>
    ) -> RegistryStep<R, WireAnswer> {
        typealias Routes = WireRoutes<R>
        let source: FlowCause.Source = scene == nil ? .control : .scene
        switch request {
        case .open(let scene, let value):
            return answer(registry.beginOpen(scene, value: value)) { outcome in result(.opened(outcome)) }
        case .push(let scene, let value, let from):
            return answer(registry.beginPush(scene, value: value, from: from)) { info in result(.pushed(info)) }
        case .reopen(let scene):
            return answer(registry.beginReopen(scene)) { outcome in InstanceResult(instance: InstanceObject(Routes.json(outcome.instance))) }
        case .dismissInstance(let id, let force):
            return answer(registry.beginDismiss(id, force: force, closingItself: id == scene)) { dismissed in result(ProgramStepResult<R>.dismissed(dismissed)) }
        case .dismissScene(let scene, let value, let force):
            return answer(registry.beginDismiss(scene: scene, value: value, force: force)) { outcome in
                result(ProgramStepResult<R>.dismissedScene(outcome))
            }
        case .route(let json, let from):
            let route: R
            do throws(WireError) {
                route = try Routes.decode(R.self, from: json, member: "route")
            } catch {
                return .done(.success(.failure(error)))
            }
            return answer(registry.beginRoute(route, from: from)) { outcome in result(.routed(outcome)) }
        case .link(let url):
            return registry.beginLink(url).map { result in .success(linkAnswer(result)) }
        case .authenticate(let authenticated):
            guard let replay = registry.beginSetAuthenticated(authenticated) else {
                return .done(.success(.success(JSONValue.object(["replayed": .null]))))
            }
            return replay.map { result in
                switch linkAnswer(result) {
                case .success(let replayed): return .success(.success(Replayed(result: replayed)))
                case .failure(let error): return .success(.success(JSONValue.object(["replayed": .object(["error": error.json])])))
                }
            }
        case .phase(let id, let phase):
            return now { () throws(WireError) in
                let info = try domain { () throws(RegistryRejection) in
                    try registry.setPhase(id, phase)
                    return try registry.info(id)
                }
                return InstanceResult(instance: InstanceObject(Routes.json(info)))
            }
        case .dismissImmersive:
            return now { () throws(WireError) in
                let dismissed = try domain { () throws(RegistryRejection) in try registry.dismissImmersive() }
                return DismissResult(dismissed: dismissed.map(\.description))
            }
        case .immersiveStyle(let style):
            return now { () throws(WireError) in
                let info = try domain { () throws(RegistryRejection) in try registry.setImmersiveStyle(style) }
                return InstanceResult(instance: InstanceObject(Routes.json(info)))
            }
        case .focus(let id):
            return now { () throws(WireError) in
                let info = try domain { () throws(RegistryRejection) in try registry.focus(id) }
                return InstanceResult(instance: InstanceObject(Routes.json(info)))
            }
        case .flowSend(let id, let json):
            return now { () throws(WireError) in
                let intent = try Routes.decode(FlowIntent<R>.self, from: json, member: "intent")
                let (outcome, path) = try domain { () throws(RegistryRejection) in
                    try registry.withInstance(id, for: WireMethod.flowSend.rawValue) { instance throws(RegistryRejection) in
                        (try instance.send(intent, by: source), instance.path)
                    }
                }
                if case .rejected(let reason) = outcome { throw .domain(reason) }
                return FlowSendResult(outcome: outcome.name, path: Routes.json(path))
            }
        case .flowApply(let id, let json):
            return now { () throws(WireError) in
                let steps = try Routes.decode([RouteStep<R>].self, from: json, member: "plan")
                let (outcome, path) = try domain { () throws(RegistryRejection) in
                    try registry.withInstance(id, for: WireMethod.flowApply.rawValue) { instance throws(RegistryRejection) in
                        (try instance.apply(steps: steps, by: source), instance.path)
                    }
                }
                if case .rejected(let reason) = outcome { throw .domain(reason) }
                return PathResult(path: Routes.json(path))
            }
        case .flowBatch(let id, let json, let stopOnFailure):
            return now { () throws(WireError) in
                let intents = try Routes.decode([FlowIntent<R>].self, from: json, member: "intents")
                let result = try domain { () throws(RegistryRejection) in
                    try registry.withInstance(id, for: WireMethod.flowBatch.rawValue) { instance throws(RegistryRejection) in
                        try instance.batch(intents, stopOnFailure: stopOnFailure, by: source)
                    }
                }
                let outcomes = result.outcomes.map { outcome in
                    BatchOutcome(outcome: outcome.name, error: outcome.rejection.map { WireError.domain($0).json })
                }
                return FlowBatchResultObject(outcomes: outcomes, path: Routes.json(result.new))
            }
        case .flowTransaction(let id, let json):
            return now { () throws(WireError) in
                let intents = try Routes.decode([FlowIntent<R>].self, from: json, member: "intents")
                let outcome = try domain { () throws(RegistryRejection) in
                    try registry.withInstance(id, for: WireMethod.flowTransaction.rawValue) { instance throws(RegistryRejection) in
                        try instance.transaction(intents, by: source)
                    }
                }
                switch outcome {
                case .committed(_, _, let new):
                    return PathResult(path: Routes.json(new))
                case .failed(let index, _, let reason):
                    let error = WireError.domain(reason)
                    var data = error.data
                    data["index"] = .integer(index)
                    throw WireError(code: error.code, message: "intent \(index) failed: \(error.message)", data: data)
                }
            }
        case .flowReconcile(let id, let json, let policy):
            return now { () throws(WireError) in
                let observed = try Routes.decode([RouteStep<R>].self, from: json, member: "observed")
                let result = try domain { () throws(RegistryRejection) in
                    try registry.withInstance(id, for: WireMethod.flowReconcile.rawValue) { instance throws(RegistryRejection) in
                        try instance.reconcile(to: observed, policy: policy)
                    }
                }
                return FlowReconcileResultObject(
                    outcome: result.outcome, path: Routes.json(result.path),
                    intents: try Routes.decode([FlowIntent<JSONValue>].self, from: result.intents, member: "intents"))
            }
        case .present(let scene, let value, let from):
            return answer(registry.beginPresent(scene, value: value, from: from)) { outcome in
                PresentResult(instance: InstanceObject(Routes.json(outcome.instance)), result: outcome.result)
            }
        case .finish(let id, let result):
            return now { () throws(WireError) in
                try domain { () throws(RegistryRejection) in try registry.finish(id, result: result) }
                return JSONValue.object([:])
            }
        case .program(let json):
            let steps: [ProgramStep<R>]
            do throws(WireError) {
                steps = try json.enumerated().map { index, step throws(WireError) in try typed(step, index: index) }
            } catch {
                return .done(.success(.failure(error)))
            }
            return registry.beginProgram(steps, by: scene).map { outcome in
                switch outcome {
                case .success(let outcome): return .success(programAnswer(outcome))
                case .failure(let reason): return .success(.failure(.domain(reason)))
                }
            }
        case .loadSession(let json, let force):
            let session: RegistrySnapshot<R>
            if Routes.isJSON {
                session = json as! RegistrySnapshot<R>
            } else {
                // A registry of the app's own routes reads the saved routes as its own.
                do {
                    session = try JSONValue.encoded(json).decoded(as: RegistrySnapshot<R>.self)
                } catch {
                    return .done(.success(.failure(.domain(
                        reason: WireReason.invalidSession, message: "the session does not fit this app's routes: \(error)",
                        data: ["detail": .string("\(error)")]))))
                }
            }
            return answer(registry.beginLoadSession(session, force: force)) { ids in
                JSONValue.object(["instances": .array(ids.map { .string($0.description) })])
            }
        case .emit(let id, let signal, let payload):
            return now { () throws(WireError) in
                try registry.emit(signal, payload: payload, from: id)
                return JSONValue.object([:])
            }
        case .state:
            guard Routes.isJSON else {
                return .done(.success(.success(registry.state().mappingPaths(Routes.json))))
            }
            // Taken now; its instances are made as its slices are written.
            return .done(.success(.success(registry.captureState() as! RegistryStateCapture<JSONValue>)))
        }
    }

    /// A request answered in this step: `body`'s result, or its error.
    private static func now<R: Route>(_ body: () throws(WireError) -> any WireWritable) -> RegistryStep<R, WireAnswer> {
        do throws(WireError) {
            return .done(.success(.success(try body())))
        } catch {
            return .done(.success(.failure(error)))
        }
    }

    /// `step`'s answer: `encode`'s result, or the rejection as the wire's -32000 error.
    private static func answer<R: Route, T>(
        _ step: RegistryStep<R, T>, _ encode: @escaping @Sendable (T) -> any WireWritable
    ) -> RegistryStep<R, WireAnswer> {
        step.map { result in
            switch result {
            case .success(let value): return .success(.success(encode(value)))
            case .failure(let reason): return .success(.failure(.domain(reason)))
            }
        }
    }

    /// Turns a registry rejection into the wire's -32000 error.
    private static func domain<T>(_ body: () throws(RegistryRejection) -> T) throws(WireError) -> T {
        do {
            return try body()
        } catch {
            throw .domain(error)
        }
    }
}

/// The `auth.set` result when a pending link was replayed: {replayed: its result}.
private struct Replayed: WireWritable {
    let result: any WireWritable

    func write(to output: inout [UInt8]) {
        JSONValue.append(#"{"replayed":"#, to: &output)
        result.write(to: &output)
        output.append(UInt8(ascii: "}"))
    }
}
