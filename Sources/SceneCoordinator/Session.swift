import Foundation
import SceneCore
import SceneFlow
import SceneSocket
import SceneWire
import SceneSync

/// One connection's protocol state: the handshake, the role, the subscription, and the
/// ordered queue of its requests. Lives on the loop thread.
///
/// - The envelope is scanned on the loop thread; malformed messages, `hello`, `ping` and
///   requests before `hello` are answered there without touching the registry.
/// - Every other request joins the connection's queue and is applied in arrival order.
final class Session: FrameHandler {
    let connection: SocketConnection
    unowned let server: CoordinatorServer
    let name: String
    var role: WireRole?
    /// The instance a scene connection acts for.
    var instance: InstanceID?
    var client = ""
    let requests: RequestQueue
    private var subscription: Task<Void, Never>?
    /// Ids of queued requests not yet answered; loop thread only.
    var unanswered: [JSONValue] = []
    /// Which subscription's events may still be written (a later one, or none, mutes the
    /// events of an earlier one already on their way).
    private var subscriptionNumber = 0
    /// The peer stopped sending: close once every request is answered.
    private var inputEnded = false
    /// Requests this side sent a scene process, by id, with what to do with the answer.
    var outbound: [Int: Outbound] = [:]
    var nextOutbound = 1
    /// Messages for a scene whose hello is not answered yet.
    var heldUntilHello: [[UInt8]]?
    /// A refused scene hello is being held: nothing more is read from this peer.
    var refusing = false

    init(connection: SocketConnection, server: CoordinatorServer, name: String) {
        self.connection = connection
        self.server = server
        self.name = name
        self.requests = RequestQueue()
    }

    var bound: LoopBound<Session> { LoopBound(self, loop: connection.loop) }

    // MARK: Frames

    func connection(_ connection: SocketConnection, didReceive payload: UnsafeRawBufferPointer) {
        guard !refusing else { return }
        let scanned = Envelope.scan(payload)
        if case .success(let envelope) = scanned, relayFast(envelope, payload) { return }
        switch InboundMessage.classify(scanned, of: payload) {
        case .request(let id, let method, let params):
            handle(method: method, id: id, params: params)
        case .notification, .dropped:
            // Notifications get no answer, not even an error.
            break
        case .invalid(let id, let error):
            reply(id, error: error)
        case .response(let id, let result, let error):
            // On a scene connection, an answer to a request this side sent; answers to
            // nothing are dropped. A control connection is never sent requests: there an
            // answer is an invalid request.
            guard role == .scene else {
                reply(id ?? .null, error: .invalidRequest("missing method"))
                return
            }
            guard case .integer(let number)? = id else { return }
            if let error {
                resolveOutbound(number, .failure(WireError(json: error) ?? WireError(code: WireCode.domain, message: "malformed error object")))
            } else {
                resolveOutbound(number, .success(RawJSON(result ?? .null)))
            }
        }
    }

    /// The relay's hot path, straight from the scanned bytes: a `scene.call` to an instance
    /// id, and a scene's `result` answer, are passed on without building their params or
    /// result, and written out as they came. Anything else returns false and takes the
    /// general path, which checks and answers it (errors included) as the protocol says.
    private func relayFast(_ envelope: Envelope, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard envelope.version == "2.0", let role else { return false }
        if envelope.hasMethod {
            guard envelope.method == WireMethod.sceneCall.rawValue, let range = envelope.params else { return false }
            let id: JSONValue
            switch envelope.id {
            case .integer(let number)?: id = .integer(number)
            case .string(let text)?: id = .string(text)
            default: return false
            }
            guard let call = SceneCallParams.scan(payload, range: range), case .instance(let text) = call.to,
                let target = InstanceID(text), SceneCallParams.refusal(method: call.method, timeout: call.timeout) == nil
            else { return false }
            if role == .scene, let from = call.from, from != instance?.description { return false }
            unanswered.append(id)
            deliver(call.method, params: call.params, timeout: call.timeout, to: target, id: id, expectsAnswer: true)
            return true
        }
        guard role == .scene, envelope.error == nil, let range = envelope.result, case .integer(let number)? = envelope.id
        else { return false }
        resolveOutbound(number, .success(RawJSON(checked: Array(payload[range]))))
        return true
    }

    /// Hands the answer to request `number` this side sent to whoever waits for it; an
    /// answer to nothing (late, after a timeout) is dropped.
    private func resolveOutbound(_ number: Int, _ answer: Result<RawJSON, WireError>) {
        guard let call = outbound.removeValue(forKey: number) else { return }
        if let timer = call.timer { connection.loop.cancel(timer) }
        call.resolve(answer)
    }

    func connection(_ connection: SocketConnection, didFailFraming error: FramingError) {
        let detail: String
        switch error {
        case .emptyFrame: detail = "a frame's length must be at least 1"
        case .frameTooLarge(let length, let maximum): detail = "a frame of \(length) bytes is over the maximum of \(maximum)"
        }
        Log.info("\(name): \(detail); closing")
        reply(.null, error: .invalidRequest(detail, reason: error.reason))
        connection.closeAfterFlush(.framing(error))
    }

    func connectionDidReachEndOfInput(_ connection: SocketConnection) {
        inputEnded = true
        subscription?.cancel()
        if unanswered.isEmpty { connection.closeAfterFlush(connection.inputEndReason ?? .peerClosed) }
    }

    func connectionDidClose(_ connection: SocketConnection, reason: CloseReason) {
        if case .writeQueueOverCap = reason { Log.warn("\(name) (\(client)): \(reason); disconnected") }
        Log.debug("\(name) closed: \(reason)")
        subscription?.cancel()
        subscription = nil
        requests.cancel()
        failOutbound()
        server.sessionDidClose(self, reason: reason)
    }

    /// Closes once queued answers are written (coordinator shutdown); requests still
    /// waiting for the registry are answered `shutting_down`.
    func shutdown() {
        subscription?.cancel()
        subscriptionNumber += 1
        requests.cancel()
        let error = WireError.domain(reason: WireReason.shuttingDown, message: "the coordinator is shutting down")
        for id in unanswered { reply(id, error: error) }
        unanswered.removeAll()
        connection.closeAfterFlush(.local("coordinator shutting down"))
    }

    // MARK: Answers

    func reply(_ id: JSONValue, result: JSONValue) {
        connection.sendFramed(WireCodec.framedResponse(id: id, result: result))
    }

    func reply(_ id: JSONValue, error: WireError) {
        connection.sendFramed(WireCodec.framedResponse(id: id, error: error))
    }

    /// Answers from any thread: the answer is written on the loop thread.
    nonisolated static func answer(_ session: LoopBound<Session>, id: JSONValue, _ outcome: Result<JSONValue, WireError>) {
        session.loop.execute { session.value.complete(id, outcome) }
    }

    /// Answers a request counted in `unanswered` (a queued request, a relayed call); once
    /// the peer has stopped sending and nothing is left to answer, the connection closes.
    func complete(_ id: JSONValue, _ outcome: Result<JSONValue, WireError>) {
        complete(id) {
            switch outcome {
            case .success(let result): WireCodec.framedResponse(id: id, result: result)
            case .failure(let error): WireCodec.framedResponse(id: id, error: error)
            }
        }
    }

    /// Answers a relayed call with the scene's answer, its result as the scene wrote it.
    func complete(_ id: JSONValue, relayed outcome: Result<RawJSON, WireError>) {
        complete(id) {
            switch outcome {
            case .success(let result): WireCodec.framedResponse(id: id, result: result)
            case .failure(let error): WireCodec.framedResponse(id: id, error: error)
            }
        }
    }

    private func complete(_ id: JSONValue, frame: () -> [UInt8]) {
        guard let index = unanswered.firstIndex(of: id) else { return }  // answered at shutdown
        unanswered.remove(at: index)
        guard !connection.isClosed else { return }
        connection.sendFramed(frame())
        if inputEnded, unanswered.isEmpty {
            connection.closeAfterFlush(connection.inputEndReason ?? .peerClosed)
        }
    }

    // MARK: Dispatch

    private func handle(method: String, id: JSONValue, params: JSONValue?) {
        if method == WireMethod.hello.rawValue {
            hello(id: id, params: params)
            return
        }
        guard role != nil else {
            reply(id, error: .notInitialized)
            return
        }
        guard let known = WireMethod(rawValue: method) else {
            reply(id, error: .methodNotFound(method))
            return
        }
        var params = params
        if role == .scene {
            switch scoped(known, params: params) {
            case .success(let scopedParams): params = scopedParams
            case .failure(let error):
                reply(id, error: error)
                return
            }
        }
        switch known {
        case .ping:
            reply(id, result: .object([:]))
        case .coordinatorShutdown:
            reply(id, result: .object([:]))
            Log.info("\(name) (\(client)) asked the coordinator to shut down")
            server.requestShutdown()
        case .subscribe:
            subscribe(id: id, params: params)
        case .unsubscribe:
            subscription?.cancel()
            subscription = nil
            subscriptionNumber += 1
            reply(id, result: .object([:]))
        case .sceneCall:
            relay(id: id, params: params, expectsAnswer: true)
        case .sceneNotify:
            relay(id: id, params: params, expectsAnswer: false)
        default:
            let registry = server.registry
            let session = bound
            let params = params
            let journal = server.journal
            unanswered.append(id)
            requests.enqueue {
                let outcome = await RegistryMethods.perform(known, params: params, registry: registry)
                // Durable: what the request changed is on disk before it is acknowledged.
                await journal?.sync()
                Session.answer(session, id: id, outcome)
            }
        }
    }

    private func hello(id: JSONValue, params: JSONValue?) {
        guard role == nil else {
            reply(id, error: .invalidRequest("hello was already answered", reason: WireReason.alreadyInitialized))
            return
        }
        let hello: HelloParams
        do {
            hello = try WireCodec.decode(HelloParams.self, from: params)
        } catch {
            reply(id, error: error)
            return
        }
        guard hello.protocol.contains(WireProtocol.current) else {
            reply(id, error: .domain(
                reason: WireReason.unsupportedProtocol,
                message: "no common protocol version: the server speaks \(WireProtocol.versions), the client \(hello.protocol)",
                data: ["supported": .array(WireProtocol.versions.map { .integer($0) })]))
            connection.closeAfterFlush(.local("no common protocol version"))
            return
        }
        guard let role = WireRole(rawValue: hello.role) else {
            reply(id, error: .domain(
                reason: WireReason.unsupportedRole,
                message: "role \"\(hello.role)\" is not served (expected \"control\" or \"scene\")"))
            return
        }
        if role == .scene {
            helloScene(id: id, hello: hello)
            return
        }
        self.role = role
        self.client = hello.client
        Log.debug("\(name): hello from \(hello.client) as \(role.rawValue)")
        reply(id, result: WireCodec.json(HelloResult(protocol: WireProtocol.current, server: server.configuration.serverName, session: name)))
    }

    private func subscribe(id: JSONValue, params: JSONValue?) {
        let topics: Set<String>
        do {
            let request = try WireCodec.decode(SubscribeParams.self, from: params)
            let requested = request.topics ?? WireTopic.allCases.map(\.rawValue)
            if let unknown = requested.first(where: { WireTopic(rawValue: $0) == nil }) {
                throw WireError.invalidParams("topics: unknown topic \"\(unknown)\" (expected scene, flow, link, request)")
            }
            topics = Set(requested)
        } catch let error as WireError {
            reply(id, error: error)
            return
        } catch {
            reply(id, error: .invalidParams("\(error)"))
            return
        }
        subscription?.cancel()
        subscriptionNumber += 1
        let number = subscriptionNumber
        // The number and the stream are taken together: the stream starts right after it.
        let (seq, events) = server.registry.subscribe(buffering: .unbounded) { topics.contains($0.event.topic) }
        reply(id, result: WireCodec.json(SubscribeResult(seq: seq)))
        let session = bound
        let frames = server.eventFrames
        subscription = Task {
            for await event in events {
                let frame = frames.frame(for: event)
                session.loop.execute {
                    let session = session.value
                    guard session.subscriptionNumber == number, !session.connection.isClosed else { return }
                    session.connection.sendFramed(frame)
                }
            }
        }
    }
}

/// A request this side sent a scene, waiting for its answer.
struct Outbound {
    /// Who hears the answer.
    enum Waiter {
        /// A relayed call: the caller's request `id` on its session is answered.
        case caller(Session, id: JSONValue)
        /// The coordinator's own request (a heartbeat, a close).
        case handler((Result<RawJSON, WireError>) -> Void)
    }

    let waiter: Waiter
    let timer: LoopTimer?

    func resolve(_ answer: Result<RawJSON, WireError>) {
        switch waiter {
        case .caller(let session, let id): session.complete(id, relayed: answer)
        case .handler(let handler): handler(answer)
        }
    }
}

/// One connection's requests, applied one after another in arrival order, off the loop.
final class RequestQueue: Sendable {
    private struct State {
        var pending: [@Sendable () async -> Void] = []
        var running = false
        var cancelled = false
    }

    private let state = Locked(State())

    /// Adds `work`; starts a drain when none runs.
    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        let start = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.pending.append(work)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { Task { await self.drain() } }
    }

    /// Drops what has not started.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.pending.removeAll()
        }
    }

    private func drain() async {
        while true {
            let next = state.withLock { state -> (@Sendable () async -> Void)? in
                guard !state.pending.isEmpty else {
                    state.running = false
                    return nil
                }
                return state.pending.removeFirst()
            }
            guard let next else { return }
            await next()
        }
    }
}
