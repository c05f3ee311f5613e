public import SceneFlow
public import SceneJSON
import Foundation
import Glibc
package import SceneSocket

public import SceneWire
import SceneSync

/// Why a call through a ``SceneConnection`` failed.
public enum ClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing answers at the socket path (or it cannot be reached).
    case cannotConnect(path: String, detail: String)
    /// The connection ended before the answer came.
    case connectionClosed(String)
    /// The coordinator answered with an error.
    case remote(WireError)
    /// The answer did not have the expected shape.
    case invalidResponse(String)
    /// No answer within the time allowed.
    case timedOut(method: String, seconds: Double)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let detail): return "cannot connect to \(path): \(detail)"
        case .connectionClosed(let reason): return "the connection closed: \(reason)"
        case .remote(let error): return error.description
        case .invalidResponse(let detail): return "unexpected answer: \(detail)"
        case .timedOut(let method, let seconds): return "\(method) got no answer within \(seconds) s"
        }
    }

    /// The remote error's `data.reason`, when the coordinator refused the request.
    public var reason: String? {
        if case .remote(let error) = self { return error.reason }
        return nil
    }
}

/// One event notification: `{seq, type, …}`.
public struct WireEvent: Hashable, Sendable {
    /// The registry's sequence number.
    public let seq: UInt64
    /// `scene.opened`, `flow.changed`, …
    public let type: String
    /// Every member of the notification's params, `seq` and `type` included.
    public let params: JSONValue

    /// The topic: the part of ``type`` before the dot.
    public var topic: String { String(type.prefix { $0 != "." }) }
}

/// A request or notification the coordinator sends this side: a scene process receives
/// `scene.ping`, `scene.close`, `flow.changed`, `scene.phase_changed`, and the methods
/// other connections relay to it with `scene.call` / `scene.notify`.
public struct IncomingMessage: Hashable, Sendable {
    /// The method's name: one of the coordinator's own (`scene.ping`, …), or the method a
    /// relay carries as its caller named it.
    public let method: String
    /// The message's params as sent; nil when it had none.
    public let params: JSONValue?
    /// False for a notification: whatever the handler answers is dropped.
    public let expectsAnswer: Bool
}

/// Answers what the coordinator sends: a result, or an error the caller receives as is.
/// Each request runs in a task of its own; notifications run one at a time, in order.
public typealias IncomingHandler = @Sendable (IncomingMessage) async -> Result<JSONValue, WireError>

/// Answers what the coordinator sends at once, on the client's loop thread: the answer is
/// written in the turn that read the request, with no task and no thread hand-off.
/// Messages reach it one at a time, in the order they came. It must not wait for
/// anything (the loop, and every connection of the process, waits for it); a scene that
/// must await something uses an ``IncomingHandler``.
public typealias ImmediateHandler = @Sendable (IncomingMessage) -> Result<JSONValue, WireError>

/// How a connection answers what the coordinator sends.
enum IncomingHandling: Sendable {
    /// Requests are answered -32601; notifications are dropped.
    case none
    /// On the loop thread, at once.
    case immediate(ImmediateHandler)
    /// In tasks.
    case async(IncomingHandler)
    /// On the loop thread, at once, with a function that answers later (a request's).
    case dispatch(DispatchingHandler)
}

/// Takes what the coordinator sends on the client's loop thread, in order, and answers a
/// request later, from anywhere, by calling its reply (nil for a notification).
package typealias DispatchingHandler = @Sendable (IncomingMessage, Reply?) -> Void

/// Answers one request of the coordinator's; call it once.
package typealias Reply = @Sendable (Result<JSONValue, WireError>) -> Void

/// A connection to a coordinator: JSON-RPC over the Unix socket, with the handshake done.
///
/// - Calls may be made from any task, concurrently; answers are matched by id.
/// - All connections of a process share one event-loop thread.
public final class SceneConnection: Sendable {
    /// What the coordinator answered to `hello`.
    public let hello: HelloResult
    let link: ClientLink
    private let timeout: Double?

    private init(link: ClientLink, hello: HelloResult, timeout: Double?) {
        self.link = link
        self.hello = hello
        self.timeout = timeout
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

    /// Calls `method` and decodes its result as `R`.
    public func call<R: Decodable>(_ method: WireMethod, params: some Encodable, as type: R.Type = R.self) async throws(ClientError) -> R {
        let result = try await link.call(method.rawValue, params: WireCodec.json(params), timeout: timeout)
        do {
            return try result.decoded(as: R.self)
        } catch {
            throw .invalidResponse("\(method.rawValue): \(error)")
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
        let result: SubscribeResult = try await call(.subscribe, params: SubscribeParams(topics: topics?.map(\.rawValue)))
        return (result.seq, stream)
    }
}

/// A connection's two halves: callers on any thread register what they wait for under a
/// lock; the loop thread reads answers, resolves them, and runs the timers.
final class ClientLink: Sendable {
    private struct State {
        var nextID = 1
        var pending: [Int: CheckedContinuation<Result<JSONValue, ClientError>, Never>] = [:]
        var closed: ClientError?
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())
    let events = EventBroadcaster<WireEvent>()
    private let connection: LoopBound<SocketConnection>
    /// The timers of calls waiting for answers, by id; loop thread only.
    private let timers: LoopBound<Timers>
    let loop: EventLoop
    let handling: IncomingHandling

    /// Notifications for an async handler, one at a time, in order.
    let notifications: AsyncStream<IncomingMessage>.Continuation
    private let notifier: Task<Void, Never>?

    final class Timers {
        var byCall: [Int: LoopTimer] = [:]
    }

    private init(connection: LoopBound<SocketConnection>, loop: EventLoop, handling: IncomingHandling) {
        self.connection = connection
        self.timers = LoopBound(Timers(), loop: loop)
        self.loop = loop
        self.handling = handling
        let (stream, continuation) = AsyncStream<IncomingMessage>.makeStream()
        self.notifications = continuation
        if case .async(let handler) = handling {
            notifier = Task {
                for await message in stream { _ = await handler(message) }
            }
        } else {
            notifier = nil
        }
    }

    /// The process's client loop, started on first use.
    private static let sharedLoop = Locked<EventLoop?>(nil)

    static func loop() throws(ClientError) -> EventLoop {
        let made: Result<EventLoop, SocketError> = sharedLoop.withLock { loop in
            if let loop { return .success(loop) }
            do throws(SocketError) {
                let created = try EventLoop(name: "scene-client")
                loop = created
                return .success(created)
            } catch {
                return .failure(error)
            }
        }
        switch made {
        case .success(let loop): return loop
        case .failure(let error): throw .cannotConnect(path: "", detail: "cannot start the client loop: \(error)")
        }
    }

    static func open(path: String, timeout: Double?, handling: IncomingHandling) async throws(ClientError) -> ClientLink {
        let loop = try loop()
        // Connected off the loop thread, without blocking: a busy server delays only us.
        let fd: Int32
        do {
            fd = try await SocketConnection.connectDescriptor(path: path, timeout: .milliseconds(Int((timeout ?? 30) * 1000)))
        } catch {
            throw .cannotConnect(path: path, detail: error.message)
        }
        let result: Result<ClientLink, ClientError> = await withCheckedContinuation { continuation in
            let accepted = loop.execute {
                do throws(SocketError) {
                    // The server caps what it reads, not what it writes: a large state or path
                    // must still reach the client.
                    let connection = try SocketConnection.adopt(fd, loop: loop, maximumFrame: 256 << 20)
                    let link = ClientLink(connection: LoopBound(connection, loop: loop), loop: loop, handling: handling)
                    connection.handler = ClientHandler(link: link)
                    continuation.resume(returning: .success(link))
                } catch {
                    continuation.resume(returning: .failure(.cannotConnect(path: path, detail: error.message)))
                }
            }
            if !accepted {
                Glibc.close(fd)
                continuation.resume(returning: .failure(.cannotConnect(path: path, detail: "the client loop has stopped")))
            }
        }
        return try result.get()
    }

    /// Sends a request and waits for its answer: the loop thread resolves it, and the
    /// caller's task resumes from there.
    func call(_ method: String, params: JSONValue?, timeout: Double?) async throws(ClientError) -> JSONValue {
        let result: Result<JSONValue, ClientError> = await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if state.closed != nil { return nil }
                defer { state.nextID += 1 }
                state.pending[state.nextID] = continuation
                return state.nextID
            }
            guard let id else {
                continuation.resume(returning: .failure(state.withLock { $0.closed } ?? .connectionClosed("closed")))
                return
            }
            let frame = WireCodec.framedRequest(id: id, method: method, params: params)
            let (connection, timers) = (self.connection, self.timers)
            loop.execute { [self] in
                connection.value.sendFramed(frame)
                if let timeout {
                    timers.value.byCall[id] = loop.scheduleOnLoop(after: .milliseconds(Int(timeout * 1000))) { [weak self] in
                        self?.resolve(id, .failure(.timedOut(method: method, seconds: timeout)))
                    }
                }
            }
        }
        return try result.get()
    }

    func notify(_ method: String, params: JSONValue?) {
        let frame = WireCodec.framedRequest(id: nil, method: method, params: params)
        let connection = self.connection
        loop.execute { connection.value.sendFramed(frame) }
    }

    /// Resolves call `id` (on the loop thread): its timer goes, its caller resumes.
    func resolve(_ id: Int, _ result: Result<JSONValue, ClientError>) {
        if let timer = timers.value.byCall.removeValue(forKey: id) { loop.cancel(timer) }
        let waiter = state.withLock { $0.pending.removeValue(forKey: id) }
        waiter?.resume(returning: result)
    }

    /// Fails every waiting call and ends the event streams (on the loop thread).
    func closed(_ reason: ClientError) {
        for timer in timers.value.byCall.values { loop.cancel(timer) }
        timers.value.byCall.removeAll()
        let (waiters, closeWaiters) = state.withLock { state in
            state.closed = reason
            defer {
                state.pending.removeAll()
                state.closeWaiters.removeAll()
            }
            return (Array(state.pending.values), state.closeWaiters)
        }
        for waiter in waiters { waiter.resume(returning: .failure(reason)) }
        events.finish()
        notifications.finish()
        for waiter in closeWaiters { waiter.resume() }
    }

    func waitUntilClosed() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.closed == nil { state.closeWaiters.append(continuation) }
                return state.closed != nil
            }
            if done { continuation.resume() }
        }
    }

    /// Answers a request the coordinator sent, from any thread: written on the loop.
    func answer(_ id: JSONValue, _ outcome: Result<JSONValue, WireError>) {
        let connection = self.connection
        loop.execute { ClientLink.write(id, outcome, to: connection.value) }
    }

    /// Writes the answer to request `id` (loop thread).
    static func write(_ id: JSONValue, _ outcome: Result<JSONValue, WireError>, to connection: SocketConnection) {
        guard !connection.isClosed else { return }
        switch outcome {
        case .success(let result): connection.sendFramed(WireCodec.framedResponse(id: id, result: result))
        case .failure(let error): connection.sendFramed(WireCodec.framedResponse(id: id, error: error))
        }
    }

    func close() {
        let connection = self.connection
        loop.execute { connection.value.closeAfterFlush(.local("closed by the client")) }
    }
}

/// Reads answers and events on the loop thread.
final class ClientHandler: FrameHandler {
    let link: ClientLink

    init(link: ClientLink) {
        self.link = link
    }

    func connection(_ connection: SocketConnection, didReceive payload: UnsafeRawBufferPointer) {
        guard case .success(let envelope) = Envelope.scan(payload) else {
            connection.close(.local("the coordinator sent something that is not a JSON-RPC object"))
            return
        }
        if envelope.method == WireMethod.event, let range = envelope.params {
            let params = Envelope.value(at: range, in: payload)
            if let number = params["seq"]?.intValue, let seq = UInt64(exactly: number), let type = params["type"]?.stringValue {
                link.events.publish(WireEvent(seq: seq, type: type, params: params))
            }
            return
        }
        if let method = envelope.method {
            // A request or notification from the coordinator.
            let params = envelope.params.map { Envelope.value(at: $0, in: payload) }
            let id = envelope.id
            let message = IncomingMessage(method: method, params: params, expectsAnswer: id != nil)
            switch link.handling {
            case .none:
                if let id { ClientLink.write(id, .failure(.methodNotFound(method)), to: connection) }
            case .immediate(let handler):
                let outcome = handler(message)
                if let id { ClientLink.write(id, outcome, to: connection) }
            case .dispatch(let handler):
                var reply: Reply?
                if let id {
                    let link = self.link
                    reply = { outcome in link.answer(id, outcome) }
                }
                handler(message, reply)
            case .async(let handler):
                if let id {
                    let link = self.link
                    Task {
                        let outcome = await handler(message)
                        link.answer(id, outcome)
                    }
                } else {
                    // Notifications reach the handler one at a time, in the order they came.
                    link.notifications.yield(message)
                }
            }
            return
        }
        guard let id = envelope.id?.intValue else { return }
        if let range = envelope.error {
            let error = WireError(json: Envelope.value(at: range, in: payload))
                ?? WireError(code: WireCode.domain, message: "malformed error object")
            link.resolve(id, .failure(.remote(error)))
        } else if let range = envelope.result {
            link.resolve(id, .success(Envelope.value(at: range, in: payload)))
        } else {
            link.resolve(id, .failure(.invalidResponse("an answer with neither result nor error")))
        }
    }

    func connection(_ connection: SocketConnection, didFailFraming error: FramingError) {
        connection.close(.framing(error))
    }

    func connectionDidClose(_ connection: SocketConnection, reason: CloseReason) {
        link.closed(.connectionClosed(reason.description))
    }
}
