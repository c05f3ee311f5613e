import Glibc
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneWire

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
    /// The deadlines of calls waiting for answers; loop thread only.
    private let timers: LoopBound<Timers>
    let loop: EventLoop
    let handling: IncomingHandling

    /// Notifications for an async handler, one at a time, in order; nil for a handler
    /// that runs on the loop.
    let notifications: Mailbox<IncomingMessage>?

    /// When a waiting call times out, and what its error then says.
    struct Deadline {
        let at: ContinuousClock.Instant
        let method: String
        let seconds: Double
    }

    /// Each waiting call's deadline, and one loop timer that expires them: a call costs an
    /// entry in a table, not a timer set and cancelled (most calls are answered long before
    /// their deadline).
    final class Timers {
        var byCall: [Int: Deadline] = [:]
        /// The timer, set for the earliest deadline there was when it was set (the call
        /// may have been answered since: it then finds the next one).
        var sweep: (timer: LoopTimer, at: ContinuousClock.Instant)?
    }

    private init(connection: LoopBound<SocketConnection>, loop: EventLoop, handling: IncomingHandling) {
        self.connection = connection
        self.timers = LoopBound(Timers(), loop: loop)
        self.loop = loop
        self.handling = handling
        if case .async(let handler) = handling {
            notifications = Mailbox(opened: true) { message in _ = await handler(message) }
        } else {
            notifications = nil
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
    func call(_ method: String, params: (some WireWritable)?, timeout: Double?) async throws(ClientError) -> JSONValue {
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
            onLoop { [self] in
                connection.value.sendFramed(frame)
                if let timeout {
                    let deadline = Deadline(at: loop.clock.now + .milliseconds(Int(timeout * 1000)), method: method, seconds: timeout)
                    timers.value.byCall[id] = deadline
                    if timers.value.sweep.map({ deadline.at < $0.at }) ?? true { sweep(at: deadline.at) }
                }
            }
        }
        return try result.get()
    }

    func notify(_ method: String, params: JSONValue?) {
        let frame = WireCodec.framedRequest(id: nil, method: method, params: params)
        onLoop { [connection] in connection.value.sendFramed(frame) }
    }

    /// Runs `write` now when this is the loop thread (a task on the connection's executor,
    /// a behaviour on the client loop), else on the loop thread: what one thread writes goes
    /// out in the order it wrote it either way, and a write made on the loop thread takes
    /// no trip through the loop's queue. (``answer(_:_:)`` does the same by hand, so that
    /// an answer written at once makes no closure at all: it is on the path of every call
    /// to a scene process whose behaviour runs on its loop.)
    @inline(__always)
    private func onLoop(_ write: @escaping @Sendable () -> Void) {
        if loop.inEventLoop {
            write()
        } else {
            loop.execute(write)
        }
    }

    /// Resolves call `id` (on the loop thread): its deadline goes, its caller resumes.
    func resolve(_ id: Int, _ result: Result<JSONValue, ClientError>) {
        timers.value.byCall.removeValue(forKey: id)
        let waiter = state.withLock { $0.pending.removeValue(forKey: id) }
        waiter?.resume(returning: result)
    }

    /// Sets the one timer for `at` (loop thread): when it fires, the calls past their
    /// deadlines time out, and it is set again for the earliest deadline left.
    private func sweep(at deadline: ContinuousClock.Instant) {
        let timers = timers.value
        if let sweep = timers.sweep { loop.cancel(sweep.timer) }
        let timer = loop.scheduleOnLoop(after: deadline - loop.clock.now) { [weak self] in
            guard let self else { return }
            timers.sweep = nil
            let now = loop.clock.now
            for (id, waiting) in timers.byCall.filter({ $0.value.at <= now }) {
                resolve(id, .failure(.timedOut(method: waiting.method, seconds: waiting.seconds)))
            }
            if let next = timers.byCall.values.lazy.map(\.at).min() { sweep(at: next) }
        }
        timers.sweep = (timer, deadline)
    }

    /// Fails every waiting call and ends the event streams (on the loop thread).
    func closed(_ reason: ClientError) {
        if let sweep = timers.value.sweep { loop.cancel(sweep.timer) }
        timers.value.sweep = nil
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

    /// Answers a request the coordinator sent, from any thread: written on the loop, at once
    /// when this is the loop thread.
    func answer(_ id: JSONValue, _ outcome: Result<JSONValue, WireError>) {
        if loop.inEventLoop {
            ClientLink.write(id, outcome, to: connection.value)
            return
        }
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
