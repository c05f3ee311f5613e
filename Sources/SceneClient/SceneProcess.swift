public import SceneCore
public import SceneFlow
import Foundation
import SceneSync
import SceneWire

/// Runs a ``SceneBehavior`` as the scene process a coordinator spawned: the same type an
/// embedding program hosts in process, so that moving a scene between the two is a
/// manifest change.
///
/// - It connects with the identity the coordinator handed over (`SCENE_SOCKET`,
///   `SCENE_TOKEN`), makes the behaviour for the instance its `hello` answer names, and
///   starts it. Calls that arrive meanwhile wait for the start.
/// - Calls and notifications relayed to the instance, its path and phase changes, and
///   close requests reach the behaviour as they reach one in process: changes in order,
///   each once; a thrown ``SceneError`` (or `WireError`) answered as it is, any other
///   error `scene_failed`.
/// - What its ``SceneContext`` asks goes over the connection, with the same errors.
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
        let host = ProcessHost<R>(make: make)
        let connection = try await SceneConnection.connectAsScene(client: client, environment: environment, timeout: nil) {
            await host.handle($0)
        }
        host.connection.withLock { $0 = connection }
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
final class ProcessHost<R: Route>: Sendable {
    let make: SceneBehaviorFactory<R>
    let connection = Locked<SceneConnection?>(nil)
    let ending = Locked<SceneProcess.End?>(nil)
    /// The behaviour once started; what arrives before waits for it.
    private let started = Locked<(behavior: (any SceneBehavior<R>)?, waiters: [CheckedContinuation<(any SceneBehavior<R>)?, Never>], over: Bool)>(
        (nil, [], false))

    init(make: @escaping SceneBehaviorFactory<R>) {
        self.make = make
    }

    /// Makes and starts the behaviour; answers why not, if it could not start.
    func start(instance: InstanceID, value: JSONValue?, connection: SceneConnection) async -> String? {
        let behavior = make(SceneIdentity(instance: instance, value: value, executor: Self.executor))
        let context = SceneContext<R>(
            instance: instance, value: value, actions: ConnectionActions<R>(connection: connection, host: self))
        do {
            try await behavior.start(in: context)
        } catch {
            release(nil)
            return String(describing: error)
        }
        // What the hello answer said is its first phase; changes sent after it wait.
        if let phase = connection.hello.instance.flatMap({ ScenePhase(rawValue: $0.phase) }) {
            await behavior.phaseChanged(to: phase)
        }
        release(behavior)
        return nil
    }

    /// A process has no registry executor: a behaviour that asks for it runs on an
    /// executor of its own.
    private static var executor: UnownedSerialExecutor { ProcessExecutor.shared.unownedExecutor }

    private func release(_ behavior: (any SceneBehavior<R>)?) {
        let waiters = started.withLock { state in
            state.behavior = behavior
            state.over = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: behavior) }
    }

    private func behavior() async -> (any SceneBehavior<R>)? {
        await withCheckedContinuation { continuation in
            let ready = started.withLock { state -> (any SceneBehavior<R>)?? in
                guard state.over else {
                    state.waiters.append(continuation)
                    return nil
                }
                return .some(state.behavior)
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The behaviour's stop, once the connection closed.
    func stop() async {
        await behavior()?.stop()
    }

    /// Answers one message from the coordinator.
    func handle(_ message: IncomingMessage) async -> Result<JSONValue, WireError> {
        if message.method == SceneMethod.ping { return .success(.object([:])) }
        guard let behavior = await behavior() else {
            return .failure(WireError(SceneError.sceneFailed("the scene did not start")))
        }
        switch message.method {
        case SceneMethod.close:
            let force = message.params?["force"] == .bool(true)
            let accepted = await behavior.close(force: force)
            return .success(["accepted": .bool(accepted || force)])
        case SceneMethod.flowChanged:
            if let path = try? (message.params?["path"] ?? .array([])).decoded(as: [RouteStep<R>].self) {
                await behavior.flowChanged(to: path)
            }
            return .success(.null)
        case SceneMethod.phaseChanged:
            if let phase = message.params?["phase"]?.stringValue.flatMap(ScenePhase.init(rawValue:)) {
                await behavior.phaseChanged(to: phase)
            }
            return .success(.null)
        default:
            let call = SceneCall(method: message.method, params: ScenePayload(json: message.params ?? .object([:])))
            guard message.expectsAnswer else {
                await behavior.receive(call)
                return .success(.null)
            }
            do {
                return .success(try await behavior.answer(call).json())
            } catch {
                return .failure(WireError(SceneError(thrown: error)))
            }
        }
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
            throw Self.sceneError(error)
        }
    }

    static func sceneError(_ error: ClientError) -> SceneError {
        switch error {
        case .remote(let error): return error.sceneError
        case .invalidResponse(let detail): return .sceneFailed(detail)
        default: return .domain(reason: "not_connected", message: error.description)
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

    func dismiss(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID] {
        let result = try await request(.sceneDismiss, ["instance": .string(instance.description), "force": .bool(force)])
        return (result["dismissed"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(InstanceID.init) }
    }

    private func target(_ target: SceneTarget) -> JSONValue {
        switch target {
        case .instance(let id): return .string(id.description)
        case .scene(let scene): return .object(["scene": .string(scene)])
        }
    }

    func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError) -> ScenePayload {
        var params: [String: JSONValue] = [
            "to": self.target(target), "method": .string(call.method), "params": try call.params.json(),
        ]
        if let timeout { params["timeout"] = .double(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18) }
        return ScenePayload(json: try await request(.sceneCall, params))
    }

    func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError) {
        _ = try await request(.sceneNotify, ["to": self.target(target), "method": .string(call.method), "params": try call.params.json()])
    }

    func end(_ instance: InstanceID, error: (any Error)?) {
        host.ending.withLock { $0 = error.map { .failed(String(describing: $0)) } ?? .finished }
        connection.close()
    }
}

/// The executor a hosted behaviour that asks for its registry's runs on, in a process.
private actor ProcessExecutor {
    static let shared = ProcessExecutor()
}
