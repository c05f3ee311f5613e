public import SceneCore
public import SceneFlow
import SceneJSON
import Foundation
import SceneSocket
import SceneSync
import SceneWire

/// Runs a `SceneBehavior` as the scene process a coordinator spawned: the same type an
/// embedding program hosts in process, so that moving a scene between the two is a
/// manifest change.
///
/// - It connects with the identity the coordinator handed over (`SCENE_SOCKET`,
///   `SCENE_TOKEN`), makes the behaviour for the instance its `hello` answer names, and
///   starts it. Calls that arrive meanwhile wait for the start.
/// - Calls and notifications relayed to the instance, its path and phase changes, and
///   close requests reach the behaviour as they reach one in process: changes in order,
///   each once; a thrown `SceneError` (or `WireError`) answered as it is, any other
///   error `scene_failed`.
/// - What its `SceneContext` asks goes over the connection, with the same errors.
public enum SceneProcess {
    /// Why a hosted behaviour's process ends.
    public enum End: Sendable {
        /// The connection closed (the coordinator stopped the scene), or the behaviour
        /// ended cleanly: exit 0.
        case finished
        /// The behaviour's start threw, or it ended with an error: exit non-zero, and the
        /// scene's restart policy decides what follows.
        case failed(String)
    }

    /// Connects, hosts the behaviour `make` returns, and returns once its process should
    /// exit.
    ///
    /// - Throws: ``ClientError`` when it cannot connect (not started by a coordinator).
    public static func run<R: Route>(
        client: String, environment: [String: String]? = nil, as route: R.Type = R.self,
        _ make: @escaping SceneBehaviorFactory<R>
    ) async throws(ClientError) -> End {
        let loop = try SceneConnection.clientLoop
        let host = ProcessHost<R>(make: make, loop: loop)
        let connection = try await SceneConnection.connectAsScene(client: client, environment: environment, timeout: nil) {
            host.take($0, reply: $1)
        }
        guard let object = connection.hello.instance, let instance = InstanceID(object.id) else {
            connection.close()
            return .failed("the hello answer names no instance")
        }
        let value = object.value == .null ? nil : object.value
        if let failure = await host.start(instance: instance, value: value, connection: connection) {
            connection.close()
            return .failed(failure)
        }
        await connection.waitUntilClosed()
        await host.stop()
        return host.ending.withLock { $0 } ?? .finished
    }
}

/// One hosted behaviour and the connection it answers on.
///
/// What the coordinator sends is taken on the client's loop thread, in order: calls go to
/// kept workers in the behaviour's isolation (no task per call; none at all, and no
/// thread switch, for a behaviour that runs on the client loop), its changes,
/// notifications, close requests and finally its stop to its mailbox, one at a time.
final class ProcessHost<R: Route>: Sendable {
    let make: SceneBehaviorFactory<R>
    /// The client loop: the executor a behaviour that asks for its host's runs on.
    let loop: EventLoop
    let ending = Locked<SceneProcess.End?>(nil)
    private let state = Locked<State>(State())
    /// A behaviour's calls wait at most the longest a call may: the coordinator times
    /// them out first.
    private static var callTimeout: Duration { SceneCall.maximumTimeout }

    private struct State {
        var hosted: Hosted?
        /// What came before the start returned, in order.
        var early: [(message: IncomingMessage, reply: Reply?)] = []
        /// The start is over (the behaviour runs, or it failed and `hosted` stays nil).
        var over = false
        /// The phase it was last told, so that the one its hello answer gave is not told
        /// twice.
        var lastPhase: ScenePhase?
    }

    struct Hosted: Sendable {
        let behavior: any SceneBehavior<R>
        /// Its changes, notifications, closes and stop, in order, one at a time.
        let mailbox: Mailbox<BehaviorDelivery<R>>
        let workers: CallWorkers
        let instance: InstanceID
    }

    init(make: @escaping SceneBehaviorFactory<R>, loop: EventLoop) {
        self.make = make
        self.loop = loop
    }

    /// Makes and starts the behaviour; answers why not, if it could not start.
    func start(instance: InstanceID, value: JSONValue?, connection: SceneConnection) async -> String? {
        let behavior = make(SceneContext<R>(
            instance: instance, value: value, executor: loop.asUnownedSerialExecutor(), actorSystem: connection.actorSystem,
            actions: ConnectionActions<R>(connection: connection, host: self)))
        do {
            try await behavior.start()
        } catch {
            let early = state.withLock { state in
                state.over = true
                defer { state.early.removeAll() }
                return state.early
            }
            for message in early { message.reply?(.failure(SceneError.sceneFailed("the scene did not start"))) }
            return String(describing: error)
        }
        let hosted = Hosted(behavior: behavior, mailbox: Mailbox(behavior), workers: CallWorkers(behavior, host: loop), instance: instance)
        // What the hello answer said is its first phase; what was sent after it follows.
        if let phase = connection.hello.instance.flatMap({ ScenePhase(rawValue: $0.phase) }) { tell(hosted, phase) }
        hosted.mailbox.open()
        // What came meanwhile is taken in order, then everything else as it comes: both
        // on the loop thread, so nothing overtakes.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                let early = state.withLock { state in
                    state.hosted = hosted
                    state.over = true
                    defer { state.early.removeAll() }
                    return state.early
                }
                for (message, reply) in early { dispatch(message, reply: reply, to: hosted) }
                continuation.resume()
            }
        }
        return nil
    }

    /// The behaviour's stop, once the connection closed: after everything it was told
    /// before, and before this returns.
    func stop() async {
        guard let hosted = state.withLock({ $0.hosted }) else { return }
        hosted.workers.endIdle()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            hosted.mailbox.deliver(.stop)
            hosted.mailbox.deliver(.done { continuation.resume() })
        }
    }

    /// Takes one message from the coordinator, on the client's loop thread.
    ///
    /// Pre-specialized for the wire's routes, which most scene processes use: unspecialized,
    /// each message looked up the metadata of the host's generic state and of the behaviour
    /// it holds (4% of a Swift scene's samples under load).
    @_specialize(where R == JSONValue)
    func take(_ message: IncomingMessage, reply: Reply?) {
        if message.method == CoordinatorMethod.ping {
            reply?(.success(.object([:])))
            return
        }
        let hosted = state.withLock { state -> Hosted?? in
            guard state.over else {
                state.early.append((message, reply))
                return nil
            }
            return .some(state.hosted)
        }
        switch hosted {
        case .some(let hosted?): dispatch(message, reply: reply, to: hosted)
        case .some(nil): reply?(.failure(SceneError.sceneFailed("the scene did not start")))
        case nil: break  // kept until the start returns
        }
    }

    @_specialize(where R == JSONValue)
    private func dispatch(_ message: IncomingMessage, reply: Reply?, to hosted: Hosted) {
        switch message.method {
        case CoordinatorMethod.close:
            let force = message.params?["force"] == .bool(true)
            hosted.mailbox.deliver(.close(force: force, reply: { accepted in reply?(.success(["accepted": .bool(accepted)])) }))
        case CoordinatorMethod.flowChanged:
            if let path = try? (message.params?["path"] ?? .array([])).decoded(as: [RouteStep<R>].self) {
                hosted.mailbox.deliver(.flow(path))
            }
        case CoordinatorMethod.phaseChanged:
            if let phase = message.params?["phase"]?.stringValue.flatMap(ScenePhase.init(rawValue:)) { tell(hosted, phase) }
        case CoordinatorMethod.parentDismissed:
            hosted.mailbox.deliver(.parentDismissed)
        case CoordinatorMethod.decide where reply != nil:
            // A route or path this behaviour's routes cannot read is left to the scope rules.
            guard let route = try? (message.params?["route"] ?? .null).decoded(as: R.self),
                let path = try? (message.params?["path"] ?? .array([])).decoded(as: [RouteStep<R>].self)
            else { return reply!(.success(.null)) }
            hosted.workers.run(CallJob(
                work: .decide(route: route, path: path),
                waiter: .handler { answer in reply!(answer.flatMap { payload in Result { () throws(SceneError) in try payload.json() } }) },
                instance: hosted.instance, timeout: Self.callTimeout))
        default:
            let call = SceneCall(method: message.method, params: ScenePayload(json: message.params ?? .object([:])))
            guard let reply else {
                hosted.mailbox.deliver(.notification(call))
                return
            }
            hosted.workers.run(CallJob(
                work: .call(call),
                waiter: .handler { answer in
                    reply(answer.flatMap { payload in Result { () throws(SceneError) in try payload.json() } })
                },
                instance: hosted.instance, timeout: Self.callTimeout))
        }
    }

    /// Tells the behaviour its phase, unless it is the one it was last told.
    private func tell(_ hosted: Hosted, _ phase: ScenePhase) {
        let changed = state.withLock { state -> Bool in
            defer { state.lastPhase = phase }
            return state.lastPhase != phase
        }
        if changed { hosted.mailbox.deliver(.phase(phase)) }
    }
}

/// What a hosted behaviour's context asks, sent over its connection.
struct ConnectionActions<R: Route>: SceneActions {
    let connection: SceneConnection
    let host: ProcessHost<R>

    private func request(_ method: WireMethod, _ params: [String: JSONValue]) async throws(SceneError) -> JSONValue {
        do {
            return try await connection.call(method.rawValue, params: .object(params))
        } catch {
            throw error.sceneError
        }
    }

    /// `scene.call` or `scene.notify` with its params as the wire's message.
    private func request(_ method: WireMethod, _ params: SceneCallParams) async throws(SceneError) -> JSONValue {
        do {
            return try await connection.call(method.rawValue, params: WireCodec.json(params))
        } catch {
            throw error.sceneError
        }
    }

    private func encode(_ value: some Encodable) throws(SceneError) -> JSONValue {
        do {
            return try JSONValue.encoded(value)
        } catch {
            throw .invalidParams(String(describing: error))
        }
    }

    private func path(_ result: JSONValue) throws(SceneError) -> [RouteStep<R>] {
        do {
            return try (result["path"] ?? .array([])).decoded(as: [RouteStep<R>].self)
        } catch {
            throw .sceneFailed("the path does not decode: \(error)")
        }
    }

    private func instance(_ json: JSONValue?) throws(SceneError) -> InstanceID {
        let text = json?["id"]?.stringValue ?? json?.stringValue
        guard let id = text.flatMap(InstanceID.init) else { throw .sceneFailed("the answer names no instance") }
        return id
    }

    func send(_ intent: FlowIntent<R>, in instance: InstanceID) async throws(SceneError) -> [RouteStep<R>] {
        let result = try await request(.flowSend, ["instance": .string(instance.description), "intent": try encode(intent)])
        return try path(result)
    }

    func path(of instance: InstanceID) async throws(SceneError) -> [RouteStep<R>] {
        // An empty batch changes nothing and answers the path.
        try path(await request(.flowBatch, ["instance": .string(instance.description), "intents": .array([])]))
    }

    func reconcile(_ instance: InstanceID, observed: [RouteStep<R>], policy: ReconcilePolicy) async throws(SceneError)
        -> ReconcileResult<R>
    {
        let answer = try await request(.flowReconcile, [
            "instance": .string(instance.description), "observed": try encode(observed), "policy": .string(policy.rawValue),
        ])
        do {
            return ReconcileResult(
                outcome: OutcomeName(rawValue: answer["outcome"]?.stringValue ?? ""), path: try path(answer),
                intents: try (answer["intents"] ?? .array([])).decoded(as: [FlowIntent<R>].self))
        } catch {
            throw .sceneFailed("the reconcile answer does not decode: \(error)")
        }
    }

    func route(_ route: R, from instance: InstanceID) async throws(SceneError) -> InstanceID {
        let result = try await request(.sceneRoute, ["from": .string(instance.description), "route": try encode(route)])
        return try self.instance(result["instance"])
    }

    func open(_ scene: String, value: JSONValue?) async throws(SceneError) -> InstanceID {
        var params: [String: JSONValue] = ["scene": .string(scene)]
        if let value { params["value"] = value }
        return try instance(await request(.sceneOpen, params)["instance"])
    }

    func push(_ scene: String, value: JSONValue?, from: InstanceID) async throws(SceneError) -> InstanceID {
        var params: [String: JSONValue] = ["scene": .string(scene), "from": .string(from.description)]
        if let value { params["value"] = value }
        return try instance(await request(.scenePush, params)["instance"])
    }

    /// The coordinator does not ask a scene that dismisses itself.
    func dismissItself(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID] {
        let result = try await request(.sceneDismiss, ["instance": .string(instance.description), "force": .bool(force)])
        return (result["dismissed"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(InstanceID.init) }
    }

    func present(_ scene: String, value: JSONValue?, from: InstanceID) async throws(SceneError) -> (InstanceID, JSONValue) {
        var params: [String: JSONValue] = ["scene": .string(scene), "from": .string(from.description)]
        if let value { params["value"] = value }
        let answer = try await request(.scenePresent, params)
        guard let id = answer["instance"]?["id"]?.stringValue.flatMap(InstanceID.init) else {
            throw .sceneFailed("scene.present answered no instance")
        }
        return (id, answer["result"] ?? .null)
    }

    func finish(_ instance: InstanceID, result: JSONValue) async throws(SceneError) {
        _ = try await request(.sceneFinish, ["instance": .string(instance.description), "result": result])
    }

    nonisolated(nonsending) func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError)
        -> ScenePayload
    {
        let params = SceneCallParams(to: target, method: call.method, params: try call.params.json(), timeout: timeout)
        return ScenePayload(json: try await request(.sceneCall, params))
    }

    func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError) {
        _ = try await request(.sceneNotify, SceneCallParams(to: target, method: call.method, params: try call.params.json()))
    }

    func emit(_ signal: String, payload: JSONValue?, from instance: InstanceID) async throws(SceneError) {
        var params: [String: JSONValue] = ["instance": .string(instance.description), "signal": .string(signal)]
        if let payload { params["payload"] = payload }
        _ = try await request(.sceneEmit, params)
    }

    func end(_ instance: InstanceID, error: (any Error)?) {
        host.ending.withLock { $0 = error.map { .failed(String(describing: $0)) } ?? .finished }
        connection.close()
    }
}
