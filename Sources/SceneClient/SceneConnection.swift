public import SceneCore
public import SceneFlow
public import SceneJSON
import Foundation
package import SceneSocket
public import SceneWire

/// A connection to a coordinator: JSON-RPC over the Unix socket, with the handshake done.
///
/// - Calls may be made from any task, concurrently; answers are matched by id.
/// - All connections of a process share one event-loop thread.
public final class SceneConnection: Sendable {
    /// What the coordinator answered to `hello`.
    public let hello: HelloResult
    let link: ClientLink
    private let timeout: Double?
    /// Typed calls to the coordinator's scenes over this connection, and the actor of the
    /// scene a scene process hosts: see `SceneActorSystem`. A remote reference's call is a
    /// `scene.call` (as a scene, from its own instance).
    public let actorSystem: SceneActorSystem

    /// The executor of the connection's event loop, the thread that reads and writes its
    /// socket. A task that prefers it makes its calls without a thread switch: the request
    /// is written, and the task resumed with the answer, on that thread, where a task on the
    /// global pool is handed from thread to thread twice per call (measured: about half the
    /// calling process's CPU per `ping` of a task on the pool). A scene process's behaviour
    /// whose executor is its context's runs there already.
    ///
    /// ```swift
    /// Task(executorPreference: connection.executor) {
    ///     for _ in 0..<1000 { try await connection.ping() }
    /// }
    /// ```
    ///
    /// What such a task does between calls holds up every connection of the process (they
    /// share the loop): long computations belong on the global pool.
    public var executor: any TaskExecutor { link.loop }

    private init(link: ClientLink, hello: HelloResult, timeout: Double?) {
        self.link = link
        self.hello = hello
        self.timeout = timeout
        actorSystem = SceneActorSystem(transport: LinkTransport(link: link), executor: link.loop.asUnownedSerialExecutor())
    }

    /// Connects to the coordinator at `path` and says `hello`.
    ///
    /// - `timeout` bounds every call, the handshake included (`nil`: wait forever).
    /// - `handler` answers the requests and notifications the coordinator sends (set before
    ///   the handshake, so nothing is missed); without one, requests are answered -32601.
    public static func connect(
        path: String, client: String, role: WireRole = .control, token: String? = nil, timeout: Double? = 30,
        handler: IncomingHandler? = nil
    ) async throws(ClientError) -> SceneConnection {
        try await connect(path: path, client: client, role: role, token: token, timeout: timeout, handling: handler.map { .async($0) } ?? .none)
    }

    /// Connects to the coordinator at `path` and says `hello`; `answering` answers what the
    /// coordinator sends at once, on the client's loop thread (see ``ImmediateHandler``).
    public static func connect(
        path: String, client: String, role: WireRole = .control, token: String? = nil, timeout: Double? = 30,
        answering: @escaping ImmediateHandler
    ) async throws(ClientError) -> SceneConnection {
        try await connect(path: path, client: client, role: role, token: token, timeout: timeout, handling: .immediate(answering))
    }

    private static func connect(
        path: String, client: String, role: WireRole, token: String?, timeout: Double?, handling: IncomingHandling
    ) async throws(ClientError) -> SceneConnection {
        let link = try await ClientLink.open(path: path, timeout: timeout, handling: handling)
        let params = WireCodec.json(HelloParams(role: role.rawValue, client: client, token: token))
        let hello: HelloResult
        do throws(ClientError) {
            let result = try await link.call(WireMethod.hello.rawValue, params: params, timeout: timeout)
            do {
                hello = try result.decoded(as: HelloResult.self)
            } catch {
                throw ClientError.invalidResponse("hello: \(error)")
            }
        } catch {
            // A refused or failed handshake leaves nothing open behind it.
            link.close()
            throw error
        }
        return SceneConnection(link: link, hello: hello, timeout: timeout)
    }

    deinit { link.close() }

    /// Calls `method` with raw JSON params and returns the raw result.
    public func call(_ method: String, params: JSONValue? = nil) async throws(ClientError) -> JSONValue {
        try await link.call(method, params: params, timeout: timeout)
    }

    /// Calls a method by its row in `WireCalls`: its params as the method takes them,
    /// its result decoded as the method answers. A method whose answer waits for someone
    /// (`AnswerOrder.inTurnWithoutHolding`: `scene.present`) is not bounded by the
    /// connection's timeout: its result may take as long as a person takes.
    public func call<Params, Answer>(_ method: WireCall<Params, Answer>, _ params: Params) async throws(ClientError) -> Answer {
        try await call(method, writing: WireCodec.json(params))
    }

    /// Calls a method by its row in `WireCalls`, its params writing their own JSON into the
    /// request (`scene.call`'s): no tree of values is made for them.
    public func call<Params: WireWritable, Answer>(_ method: WireCall<Params, Answer>, _ params: Params) async throws(ClientError)
        -> Answer
    {
        try await call(method, writing: params)
    }

    private func call<Params, Answer>(_ method: WireCall<Params, Answer>, writing params: some WireWritable) async throws(ClientError)
        -> Answer
    {
        let waitsForever = method.order == .inTurnWithoutHolding
        let result = try await link.call(method.method.rawValue, params: params, timeout: waitsForever ? nil : timeout)
        do {
            return try result.decoded(as: Answer.self)
        } catch {
            throw .invalidResponse("\(method.method.rawValue): \(error)")
        }
    }

    /// Sends a notification: no answer comes.
    public func notify(_ method: String, params: JSONValue? = nil) {
        link.notify(method, params: params)
    }

    /// Closes the connection; calls waiting for answers fail.
    public func close() {
        link.close()
    }

    /// Returns once the connection has closed (from either side).
    public func waitUntilClosed() async {
        await link.waitUntilClosed()
    }

    /// Connects as the scene process a coordinator spawned: the socket, instance and token
    /// come from `SCENE_SOCKET` and `SCENE_TOKEN` in `environment` (the process's own when nil). The instance (with
    /// its path, kept across restarts) is in ``hello``.
    ///
    /// By the protocol's contract the process exits once this connection closes: the
    /// coordinator restarts it rather than letting it reconnect.
    ///
    /// The coordinator sends nothing before its hello answer, but `handler` may run before
    /// this function has returned to its caller: state the handler needs from ``hello``
    /// must be waited for.
    public static func connectAsScene(
        client: String, environment: [String: String]? = nil, timeout: Double? = 30,
        handler: @escaping IncomingHandler
    ) async throws(ClientError) -> SceneConnection {
        try await connectAsScene(client: client, environment: environment, timeout: timeout, handling: .async(handler))
    }

    /// ``connectAsScene(client:environment:timeout:handler:)`` with a handler that answers
    /// at once, on the client's loop thread (see ``ImmediateHandler``): the quickest way
    /// for a scene to answer calls.
    public static func connectAsScene(
        client: String, environment: [String: String]? = nil, timeout: Double? = 30,
        answering: @escaping ImmediateHandler
    ) async throws(ClientError) -> SceneConnection {
        try await connectAsScene(client: client, environment: environment, timeout: timeout, handling: .immediate(answering))
    }

    /// ``connectAsScene(client:environment:timeout:handler:)`` with a handler that takes
    /// each message on the client's loop thread and answers requests later (see
    /// ``DispatchingHandler``).
    package static func connectAsScene(
        client: String, environment: [String: String]? = nil, timeout: Double? = 30,
        dispatching: @escaping DispatchingHandler
    ) async throws(ClientError) -> SceneConnection {
        try await connectAsScene(client: client, environment: environment, timeout: timeout, handling: .dispatch(dispatching))
    }

    /// The client loop of this process: where its connections are read and written, and
    /// where a hosted behaviour that asks for its host's executor runs.
    package static var clientLoop: EventLoop {
        get throws(ClientError) { try ClientLink.loop() }
    }

    private static func connectAsScene(
        client: String, environment: [String: String]?, timeout: Double?, handling: IncomingHandling
    ) async throws(ClientError) -> SceneConnection {
        let environment = environment ?? ProcessInfo.processInfo.environment
        guard let path = environment["SCENE_SOCKET"], let token = environment["SCENE_TOKEN"] else {
            throw .cannotConnect(path: environment["SCENE_SOCKET"] ?? "", detail: "SCENE_SOCKET and SCENE_TOKEN are not set: a coordinator starts scene processes")
        }
        return try await connect(path: path, client: client, role: .scene, token: token, timeout: timeout, handling: handling)
    }

    /// Subscribes to `topics` (all when nil) and returns the current sequence number and
    /// the stream of events after it.
    public func subscribe(topics: [WireTopic]? = nil, buffering: EventBuffering = .unbounded) async throws(ClientError)
        -> (seq: UInt64, events: EventStream<WireEvent>)
    {
        // Registered before the request, so no event after the answer's seq is missed.
        let stream = link.events.subscribe(buffering: buffering)
        let result: SubscribeResult = try await call(WireCalls.subscribe, SubscribeParams(topics: topics?.map(\.rawValue)))
        return (result.seq, stream)
    }
}
