import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync

/// One connection's protocol state: the handshake, the role, the subscription, and the
/// order of its registry requests. Lives on the loop thread, where the registry runs too.
///
/// - The envelope is scanned and the params decoded on the loop thread; a registry request
///   that need not wait is applied and answered in the same turn.
/// - A request that must wait (a launch, a close a scene is asked about, a join on an
///   opening instance) suspends; this connection's later registry requests wait behind
///   it, so registry answers keep their order.
/// - With a durable journal, a registry answer is written once the events before it are
///   on disk; later registry answers queue behind it.
final class Session: FrameHandler {
    /// Where a connection is in its life.
    enum Life {
        /// Connected: only `hello` is served.
        case awaitingHello
        /// A scene hello is held back or was refused: nothing more is read.
        case refusing
        /// A scene process's token was accepted; its hello answer is not queued yet, and
        /// what the coordinator sends it meanwhile (`held`) follows that answer.
        case attaching(InstanceID, client: String, held: [[UInt8]])
        /// A control connection.
        case control(client: String)
        /// A scene process's connection, acting for its instance.
        case scene(InstanceID, client: String)
    }

    let connection: SocketConnection
    unowned let server: CoordinatorServer
    /// The server's registry and group commit, kept here too: the request path reads them
    /// without the unowned reference's check.
    let registry: any ServedRegistry
    let groupCommit: GroupCommit?
    let name: String
    private(set) var life: Life = .awaitingHello
    /// Ids of requests not yet answered (a registry request, a relayed call, a scene
    /// hello), so that a peer that half-closes gets them all before the connection closes.
    var unanswered: [JSONValue] = []
    /// The peer stopped sending: close once every request is answered.
    private var inputEnded = false
    /// While a registry request of this connection waits, the ones after it, in order; nil
    /// when none waits.
    var behindWait: FIFOQueue<(id: JSONValue, request: InTurn)>?
    /// Registry answers waiting for the journal to reach `seq` on disk, in order.
    private var awaitingDisk = FIFOQueue<(seq: UInt64, frame: [UInt8])>()
    /// What this connection subscribed to; nil when it is not subscribed.
    var subscription: Subscription?
    /// Requests this side sent a scene process, by id, with what to do with the answer.
    var outbound: [Int: Outbound] = [:]
    var nextOutbound = 1
    /// The one timer that times the requests in `outbound` out, armed for the earliest
    /// deadline there was when it was armed (`armOutboundTimer(for:)`).
    var outboundTimer: (timer: LoopTimer, at: ContinuousClock.Instant)?

    /// A request answered in its turn among this connection's queued requests.
    enum InTurn {
        /// A registry call, or the error its params earned; unless `holding`, the requests
        /// after it do not wait for its answer.
        case registry(Result<any RegistryCall, WireError>, holding: Bool)
        /// A method the session serves itself in its turn (the `session.*` methods).
        case session(Handler, params: JSONValue?)
    }

    init(connection: SocketConnection, server: CoordinatorServer, name: String) {
        self.connection = connection
        self.server = server
        self.registry = server.registry
        self.groupCommit = server.groupCommit
        self.name = name
    }

    /// The instance a scene connection acts for (also while its hello is answered).
    var instance: InstanceID? {
        switch life {
        case .attaching(let id, _, _), .scene(let id, _): return id
        case .awaitingHello, .refusing, .control: return nil
        }
    }

    /// The role `hello` gave this connection, once it is answered.
    var role: WireRole? {
        switch life {
        case .control: return .control
        case .attaching, .scene: return .scene
        case .awaitingHello, .refusing: return nil
        }
    }

    /// What the peer called itself in `hello`.
    var client: String {
        switch life {
        case .control(let client), .attaching(_, let client, _), .scene(_, let client): return client
        case .awaitingHello, .refusing: return ""
        }
    }

    func become(_ life: Life) {
        self.life = life
    }

    var bound: LoopBound<Session> { LoopBound(self, loop: connection.loop) }

    // MARK: Frames

    func connection(_ connection: SocketConnection, didReceive payload: UnsafeRawBufferPointer) {
        if case .refusing = life { return }
        // Shutting down: the state is written; nothing read now may change the registry.
        guard !server.closed else { return }
        let scanned = Envelope.scan(payload)
        if case .success(let envelope) = scanned, relayFast(envelope, payload) || registryFast(envelope, payload) { return }
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

    /// The hot registry requests of a control connection (``WireRegistryCall/plain(bytes:)``:
    /// `flow.send`, `scene.open`), their params read straight from the scanned bytes and
    /// applied as ``handle(method:id:params:)`` applies them. Anything else, a request
    /// that must queue behind one that waits, or anything unusual in the params returns
    /// false and takes the general path.
    private func registryFast(_ envelope: Envelope, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard role == .control, behindWait == nil, envelope.version == "2.0", let method = envelope.method,
            let range = envelope.params, let route = Self.routes[method], let type = route.registry
        else { return false }
        guard let id = Self.fastID(envelope) else { return false }
        return applyPlain(type, bytes: UnsafeRawBufferPointer(rebasing: payload[range]), id: id, holding: route.order != .inTurnWithoutHolding)
    }

    /// Reads `Call`'s params from `bytes` and applies the call; false when they are not
    /// plain. Generic, with the method's type opened, so that the call is never boxed as an
    /// existential on the way (a `flow.send`'s params do not fit in one's inline buffer).
    private func applyPlain<Call: WireRegistryCall>(_: Call.Type, bytes: UnsafeRawBufferPointer, id: JSONValue, holding: Bool) -> Bool {
        guard let call = Call.plain(bytes: bytes) else { return false }
        unanswered.append(id)
        apply(call, id: id, holding: holding)
        return true
    }

    /// The id a fast path answers a request under: an integer or a string; nil for any
    /// other (a notification, a fractional id), which the general path handles.
    private static func fastID(_ envelope: Envelope) -> JSONValue? {
        switch envelope.id {
        case .integer(let number)?: .integer(number)
        case .string(let text)?: .string(text)
        default: .none  // Optional's none, not JSON's null
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
            guard let id = Self.fastID(envelope) else { return false }
            guard let call = SceneCallParams.scan(payload, range: range), case .instance(let text) = call.to,
                let target = InstanceID(text), SceneCallParams.refusal(method: call.method, timeout: call.timeout) == nil,
                registry.interface(of: target.scene) == nil  // its params are checked on the general path
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
        call.resolve(answer)
    }

    func connection(_ connection: SocketConnection, didFailFraming error: FramingError) {
        Log.info("\(name): \(error); closing")
        reply(.null, error: .framing(error))
        connection.closeAfterFlush(.framing(error))
    }

    func connectionDidReachEndOfInput(_ connection: SocketConnection) {
        inputEnded = true
        unsubscribe()
        closeIfDone()
    }

    func connectionDidClose(_ connection: SocketConnection, reason: CloseReason) {
        if case .writeQueueOverCap = reason { Log.warn("\(name) (\(client)): \(reason); disconnected") }
        Log.debug("\(name) closed: \(reason)")
        unsubscribe()
        behindWait = nil
        _ = awaitingDisk.removeAll()
        failOutbound()
        server.sessionDidClose(self, reason: reason)
    }

    /// Closes once queued answers are written (coordinator shutdown); requests still
    /// waiting are answered `shutting_down`.
    func shutdown() {
        unsubscribe()
        behindWait = nil
        releaseAnswers(through: .max)
        let error = WireError.domain(reason: .shuttingDown, message: "the coordinator is shutting down")
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

    /// Answers a request counted in `unanswered`; once the peer has stopped sending and
    /// nothing is left to answer, the connection closes.
    func complete(_ id: JSONValue, _ outcome: Result<JSONValue, WireError>) {
        complete(id) { Self.frame(id, outcome.map { $0 }) }
    }

    /// Answers a relayed call with the scene's answer, its result as the scene wrote it.
    func complete(_ id: JSONValue, relayed outcome: Result<RawJSON, WireError>) {
        complete(id) { Self.frame(id, outcome.map { $0 }) }
    }

    /// The framed answer to request `id`: its result, written into the frame, or its error.
    static func frame(_ id: JSONValue, _ answer: WireAnswer) -> [UInt8] {
        switch answer {
        case .success(let result): WireCodec.framedResponse(id: id, result: result)
        case .failure(let error): WireCodec.framedResponse(id: id, error: error)
        }
    }

    private func complete(_ id: JSONValue, frame: () -> [UInt8]) {
        guard forget(id) else { return }
        connection.sendFramed(frame())
        closeIfDone()
    }

    /// Takes `id` off the unanswered list; false when it was answered already (at shutdown).
    private func forget(_ id: JSONValue) -> Bool {
        // Most often the one asked last (a caller that waits for each answer).
        if unanswered.last == id {
            unanswered.removeLast()
        } else {
            guard let index = unanswered.firstIndex(of: id) else { return false }
            unanswered.remove(at: index)
        }
        return !connection.isClosed
    }

    /// Once the peer has stopped sending and everything is answered and written out, the
    /// connection closes.
    private func closeIfDone() {
        if inputEnded, unanswered.isEmpty, awaitingDisk.isEmpty {
            connection.closeAfterFlush(connection.inputEndReason ?? .peerClosed)
        }
    }

    /// Answers a registry request with its framed answer. With a durable journal, the
    /// answer waits until the events recorded so far are on disk (and behind any answer
    /// already waiting).
    func answerRegistry(_ id: JSONValue, frame: [UInt8]) {
        guard forget(id) else { return }
        if let commit = groupCommit, let seq = commit.unsynced ?? (awaitingDisk.isEmpty ? nil : 0) {
            awaitingDisk.append((seq, frame))
            commit.whenSynced(through: seq, self)
            return
        }
        connection.sendFramed(frame)
        closeIfDone()
    }

    /// Writes a large result a slice per loop turn (the other connections are served in
    /// between), then answers with it; this connection's later registry requests wait
    /// behind it, as behind any request that waits.
    func answerInSlices(_ id: JSONValue, _ result: any WireWritableInSlices) {
        behindWait = FIFOQueue()
        var frame = WireCodec.framedResponseStart(id: id)
        var next = 0
        func writeNextSlice() {
            guard !connection.isClosed else { return }
            result.writeSlice(next, to: &frame)
            next += 1
            if next < result.sliceCount {
                // A timer due now runs after the I/O of this turn (or the next): other
                // connections are read and answered between two slices.
                connection.loop.scheduleOnLoop(after: .zero) { writeNextSlice() }
            } else {
                WireCodec.finishFramedResponse(&frame)
                finishedWaiting(id, frame: frame)
            }
        }
        writeNextSlice()
    }

    /// The journal is on disk through `synced`: the answers waiting for it are written.
    /// Answers whether some still wait.
    @discardableResult
    func releaseAnswers(through synced: UInt64) -> Bool {
        while let first = awaitingDisk.first, first.seq <= synced {
            _ = awaitingDisk.popFirst()
            connection.sendFramed(first.frame)
        }
        closeIfDone()
        return !awaitingDisk.isEmpty
    }
}

