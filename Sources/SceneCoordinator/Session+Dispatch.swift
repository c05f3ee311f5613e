import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync

/// Dispatch: each request goes by its method's row (``WireCalls``) to the handshake, the
/// session's own handlers, or the registry; at once, or in its turn among the
/// connection's queued requests.
extension Session {
    func handle(method: String, id: JSONValue, params: JSONValue?) {
        if method == WireMethod.hello.rawValue {
            hello(id: id, params: params)
            return
        }
        guard role != nil else {
            reply(id, error: .notInitialized)
            return
        }
        guard let route = Self.routes[method] else {
            reply(id, error: .methodNotFound(method))
            return
        }
        var params = params
        if role == .scene {
            switch scoped(route.method, route.scene, params: params) {
            case .success(let scopedParams): params = scopedParams
            case .failure(let error):
                reply(id, error: error)
                return
            }
        }
        if let call = route.registry {
            let holding = route.order != .inTurnWithoutHolding
            guard behindWait == nil else {
                // Read now; a mistake in the params is answered in its turn among this
                // connection's registry answers, like any other.
                let read = Result { () throws(WireError) in try call.read(params) as any RegistryCall }
                enqueue(.registry(read, holding: holding), id: id)
                return
            }
            unanswered.append(id)
            apply(call, params: params, id: id, holding: holding)
        } else if let handler = route.handler {
            if route.order == .atOnce {
                handler(self, id, params)
            } else {
                enqueue(.session(handler, params: params), id: id)
            }
        } else {
            // Every method but hello has a registry call or a handler (a test holds it).
            reply(id, error: .methodNotFound(method))
        }
    }

    /// Reads a registry call of type `Call` from `params` and applies it now.
    private func apply<Call: WireRegistryCall>(_ type: Call.Type, params: JSONValue?, id: JSONValue, holding: Bool) {
        do throws(WireError) {
            apply(try Call.read(params), id: id, holding: holding)
        } catch {
            answerRegistry(id, frame: Self.frame(id, .failure(error)))
        }
    }

    /// Applies a queued request now, or queues it behind the one that waits.
    private func enqueue(_ request: InTurn, id: JSONValue) {
        unanswered.append(id)
        if behindWait != nil {
            behindWait?.append((id, request))
        } else {
            apply(request, id: id)
        }
    }

    /// Applies a request in its turn.
    private func apply(_ request: InTurn, id: JSONValue) {
        switch request {
        case .registry(.success(let call), let holding): apply(call, id: id, holding: holding)
        case .registry(.failure(let error), _): answerRegistry(id, frame: Self.frame(id, .failure(error)))
        case .session(let handler, let params): handler(self, id, params)
        }
    }

    /// Applies a registry call on the registry (which runs on this thread): answered now,
    /// or once its wait is over. Unless it waits `holding` none, the requests queued after
    /// it wait for its answer.
    func apply<Call: RegistryCall>(_ call: Call, id: JSONValue, holding: Bool = true) {
        guard let answer = registry.begin(call, from: role == .scene ? instance : nil, answering: AnswerWaiter(session: bound, id: id, holding: holding)) else {
            // It waits: unless it waits for someone to finish a presented instance, perhaps
            // over this very connection, the requests after it wait for it.
            if holding { behindWait = FIFOQueue() }
            return
        }
        // More slices than its head, one slice of instances and its tail: written in turns.
        if case .success(let result) = answer, let large = result.inSlices, large.sliceCount > 3 {
            answerInSlices(id, large)
        } else {
            answerRegistry(id, frame: Self.frame(id, explained(answer)))
        }
    }

    /// Answers a registry call that waited.
    func answerWaited(_ id: JSONValue, _ answer: WireAnswer, holding: Bool) {
        let frame = Self.frame(id, explained(answer))
        if holding {
            finishedWaiting(id, frame: frame)
        } else {
            answerRegistry(id, frame: frame)
        }
    }

    /// The request that waited is answered; the ones behind it run, up to the next one
    /// that must wait.
    func finishedWaiting(_ id: JSONValue, frame: [UInt8]) {
        answerRegistry(id, frame: frame)
        guard var queued = behindWait else { return }  // closed meanwhile
        behindWait = nil
        // A write in `apply` may close the connection: a gone client's requests stop there.
        while behindWait == nil, !connection.isClosed, let next = queued.popFirst() {
            apply(next.request, id: next.id)
        }
        if behindWait != nil {
            // Another one waits now: the rest stay behind it, in order.
            while let next = queued.popFirst() { behindWait?.append(next) }
        }
    }

    /// `answer`, with a `not_open` for an instance id told which instances of that scene
    /// are open now (`data.open`), when any are: after `dismiss main-1` and `open main`,
    /// a request to `main-1` says `main-2` is the one.
    func explained(_ answer: WireAnswer) -> WireAnswer {
        guard case .failure(let error) = answer else { return answer }
        return .failure(explained(error))
    }

    /// ``explained(_:)`` for an error.
    func explained(_ error: WireError) -> WireError {
        guard let id = error.notOpenInstance else { return error }
        let open = registry.instances(of: id.scene)
        guard !open.isEmpty else { return error }
        let names = open.map(\.description).joined(separator: ", ")
        return error.adding(["open": .array(open.map { .string($0.description) })], message: "\(error.message); open now: \(names)")
    }

    private func hello(id: JSONValue, params: JSONValue?) {
        guard case .awaitingHello = life else {
            reply(id, error: .invalidRequest("hello was already answered", reason: .alreadyInitialized))
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
                reason: .unsupportedProtocol,
                message: "no common protocol version: the server speaks \(WireProtocol.versions), the client \(hello.protocol)",
                data: ["supported": .array(WireProtocol.versions.map { .integer($0) })]))
            connection.closeAfterFlush(.local("no common protocol version"))
            return
        }
        guard let role = WireRole(rawValue: hello.role) else {
            reply(id, error: .domain(
                reason: .unsupportedRole,
                message: "role \"\(hello.role)\" is not served (expected \"control\" or \"scene\")"))
            return
        }
        if role == .scene {
            helloScene(id: id, hello: hello)
            return
        }
        become(.control(client: hello.client))
        Log.debug("\(name): hello from \(hello.client) as \(role.rawValue)")
        reply(id, result: WireCodec.json(HelloResult(protocol: WireProtocol.current, server: server.configuration.serverName, session: name)))
    }
}
