import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync

/// Dispatch: each request goes by its method to the handshake, the subscription, or the
/// registry, in the order of its connection's registry requests.
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
            unsubscribe()
            reply(id, result: .object([:]))
        case .sceneCall:
            relay(id: id, params: params, expectsAnswer: true)
        case .sceneNotify:
            relay(id: id, params: params, expectsAnswer: false)
        case .sceneStatus:
            status(id: id, params: params)
        case .sceneDescribe:
            describe(id: id, params: params)
        case .sceneRestart:
            restart(id: id, params: params)
        case .sessionSave, .sessionList, .sessionDelete:
            enqueue(.sessionFile(known, params: params), id: id)
        case .sessionLoad:
            enqueue(.registry(loadSessionRequest(params)), id: id)
        default:
            // Decoded now; a mistake in the params is answered in its turn among this
            // connection's registry answers, like any other.
            enqueue(.registry(Result { () throws(WireError) in try RegistryRequest(known, params: params) }), id: id)
        }
    }

    /// Applies a registry request now, or queues it behind the one that waits.
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
        case .registry(let decoded): apply(decoded, id: id)
        case .sessionFile(let method, let params): session(method, id: id, params: params)
        }
    }

    /// Applies a registry request on the registry (which runs on this thread): answered
    /// now, or once its wait is over, and then the requests queued behind it.
    private func apply(_ decoded: Result<RegistryRequest, WireError>, id: JSONValue) {
        let request: RegistryRequest
        switch decoded {
        case .success(let decoded): request = decoded
        case .failure(let error):
            answerRegistry(id, frame: Self.frame(id, .failure(error)))
            return
        }
        switch server.registry.begin(request, from: role == .scene ? instance : nil) {
        case .done(let result):
            let answer = Self.flatten(result)
            // More slices than its head, one slice of instances and its tail: written in turns.
            if case .success(let large as any WireWritableInSlices) = answer, large.sliceCount > 3 {
                answerInSlices(id, large)
            } else {
                answerRegistry(id, frame: Self.frame(id, explained(answer)))
            }
        case .waiting(let resume) where request.method == .scenePresent:
            // It waits for someone to finish the presented instance, perhaps over this very
            // connection: the requests after it go on, and it is answered when it is over.
            let session = bound
            resume { result in session.value.answerRegistry(id, frame: Self.frame(id, session.value.explained(Self.flatten(result)))) }
        case .waiting(let resume):
            behindWait = FIFOQueue()
            let session = bound
            resume { result in
                // The registry runs on the loop thread: so does this.
                session.value.finishedWaiting(id, frame: Self.frame(id, session.value.explained(Self.flatten(result))))
            }
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
        return .failure(explainedError(error))
    }

    /// ``explained(_:)`` for an error.
    func explainedError(_ error: WireError) -> WireError {
        guard error.reason == "not_open", let id = error.data["detail"]?.stringValue.flatMap(InstanceID.init) else { return error }
        let open = server.registry.instances(of: id.scene)
        guard !open.isEmpty else { return error }
        var data = error.data
        data["open"] = .array(open.map { .string($0.description) })
        let names = open.map(\.description).joined(separator: ", ")
        return WireError(code: error.code, message: "\(error.message); open now: \(names)", data: data)
    }

    private static func flatten(_ result: Result<WireAnswer, RegistryRejection>) -> WireAnswer {
        switch result {
        case .success(let answer): return answer
        case .failure(let reason): return .failure(.domain(reason))
        }
    }

    private func hello(id: JSONValue, params: JSONValue?) {
        guard case .awaitingHello = life else {
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
        become(.control(client: hello.client))
        Log.debug("\(name): hello from \(hello.client) as \(role.rawValue)")
        reply(id, result: WireCodec.json(HelloResult(protocol: WireProtocol.current, server: server.configuration.serverName, session: name)))
    }

    /// `scene.status`: the instance, and how its process is doing (answered at once, as
    /// `ping` is, without waiting behind this connection's registry requests).
    private func status(id: JSONValue, params: JSONValue?) {
        do throws(WireError) {
            let request = try WireCodec.decode(StatusParams.self, from: params)
            let instance = try RegistryRequest.instanceID(request.instance)
            switch server.registry.info(instance) {
            case .success(let info):
                let result = StatusResult(instance: InstanceObject(info), process: server.supervisor.status(of: instance))
                reply(id, result: WireCodec.json(result))
            case .failure(let reason):
                reply(id, error: explainedError(.domain(reason)))
            }
        } catch {
            reply(id, error: error)
        }
    }

    /// `scene.describe`: what a scene is and serves (answered at once: declarations do not
    /// change while the coordinator runs).
    private func describe(id: JSONValue, params: JSONValue?) {
        do {
            let request = try WireCodec.decode(DescribeParams.self, from: params)
            switch server.registry.describe(request.scene) {
            case .success(let description): reply(id, result: WireCodec.json(DescribeResult(description)))
            case .failure(let reason): reply(id, error: .domain(reason))
            }
        } catch {
            reply(id, error: error)
        }
    }

    /// `scene.restart`: a process instance's process is stopped and started again (answered
    /// once that is under way: `scene.disconnected`, then `scene.restarted` follow); an
    /// in-process instance's behaviour, answered once the new one has started.
    private func restart(id: JSONValue, params: JSONValue?) {
        let target: InstanceID
        do throws(WireError) {
            target = try RegistryRequest.instanceID(try WireCodec.decode(RestartParams.self, from: params).instance)
        } catch {
            reply(id, error: error)
            return
        }
        guard case .success(let info) = server.registry.info(target) else {
            reply(id, error: explainedError(.domain(RegistryRejection.notOpen(target.description))))
            return
        }
        let notConnected = WireError.domain(
            reason: WireReason.notConnected, message: "\(target) has no process or behaviour to restart",
            data: ["instance": .string(target.description)])
        switch server.registry.hosting(of: target) {
        case .process?:
            guard server.supervisor.restart(target) else {
                reply(id, error: notConnected)
                return
            }
            reply(id, result: WireCodec.json(InstanceResult(instance: InstanceObject(info))))
        case .inProcess?:
            unanswered.append(id)
            let registry = server.registry
            let session = bound
            Task {
                let answer: Result<JSONValue, WireError>
                do throws(SceneError) {
                    try await registry.restartBehavior(target)
                    answer = .success(WireCodec.json(InstanceResult(instance: InstanceObject(info))))
                } catch {
                    answer = .failure(error)
                }
                session.loop.execute { session.value.complete(id, answer) }
            }
        case .virtual?, nil:
            reply(id, error: notConnected)
        }
    }
}
