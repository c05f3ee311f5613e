import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire

/// The scene side of a session: the scene handshake, what a scene may call, requests the
/// coordinator sends a scene, the relay of `scene.call` and `scene.notify`, and the relay
/// to a scene of its own instance's flow and phase changes.
extension Session {
    /// Tells the scene process behind a flow or phase change's instance, when one is
    /// connected (`session(id)`): `flow.changed {path, queue, cause, seq}` or `scene.phase_changed
    /// {phase}`. Other events are not relayed; nothing is encoded for an instance with no
    /// process connected.
    static func relayToScene(_ event: SequencedEvent<JSONValue>, sessions session: (InstanceID) -> Session?) {
        switch event.event {
        case .flowChanged(let id, _, _, _):
            guard let session = session(id), case .object(var params) = WireCodec.eventParams(event) else { return }
            params["type"] = nil
            params["instance"] = nil
            session.notify(CoordinatorMethod.flowChanged, params: RawJSON(.object(params)))
        case .phaseChanged(let id, let phase):
            session(id)?.notify(CoordinatorMethod.phaseChanged, params: RawJSON(.object(["phase": .string(phase.rawValue)])))
        default:
            break
        }
    }

    // MARK: Handshake

    /// `hello` with role `scene`: the token must be one a spawned process was given, once.
    /// The answer carries the instance, after the registry has it active (or back).
    func helloScene(id: JSONValue, hello: HelloParams) {
        // A peer that guessed wrong lately waits before its token is even looked at;
        // nothing else it sends is read meanwhile.
        let hold = server.holdForSceneHello(connection)
        guard hold == .zero else {
            become(.refusing)
            connection.loop.scheduleOnLoop(after: hold) { [weak self] in
                guard let self, !self.connection.isClosed else { return }
                self.become(.awaitingHello)
                self.checkSceneHello(id: id, hello: hello)
            }
            return
        }
        checkSceneHello(id: id, hello: hello)
    }

    private func checkSceneHello(id: JSONValue, hello: HelloParams) {
        if let token = hello.token, let instance = server.supervisor.claim(token: token, session: self) {
            become(.attaching(instance, client: hello.client, held: []))
            Log.debug("\(name): \(instance)'s process said hello")
            answerSceneHello(id: id, instance: instance, attached: false)
            return
        }
        guard let token = hello.token, let attach = server.tokens.claim(token) else {
            server.sceneHelloRefused(connection)
            Log.warn("\(name): a scene hello with a wrong or spent token from \(hello.client) (pid \(connection.peerPID.map(String.init) ?? "?")); closing")
            reply(id, error: .domain(
                reason: .badToken, message: "the token is not one this coordinator gave out, or it was spent, expired or revoked"))
            become(.refusing)
            connection.closeAfterFlush(.local("bad scene token"))
            return
        }
        // Nothing it sends is read until its hello is answered: the attach may wait for an
        // instance to open.
        become(.refusing)
        Log.debug("\(name): \(hello.client) attaches with token \(attach.id) for \(attach.scene)")
        let client = hello.client
        server.supervisor.attach(self, with: attach) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let instance):
                self.become(.attaching(instance, client: client, held: []))
                self.answerSceneHello(id: id, instance: instance, attached: true)
            case .failure(let error):
                Log.warn("\(self.name): \(client) could not attach: \(error.message)")
                self.reply(id, error: error)
                self.connection.closeAfterFlush(.local("the attach was refused"))
            }
        }
    }

    /// Answers a scene's hello once its process is `instance`'s: with the instance (after
    /// the registry has it active, or back), and for an attached process a re-attach token.
    private func answerSceneHello(id: JSONValue, instance: InstanceID, attached: Bool) {
        switch server.supervisor.attach(instance) {
        case .success(let info):
            let result = HelloResult(
                protocol: WireProtocol.current, server: server.configuration.serverName, session: name, instance: InstanceObject(info),
                reattach: attached ? server.supervisor.reattachToken(for: instance) : nil)
            reply(id, result: WireCodec.json(result))
            // What the attach told the scene (its phase, say) follows the answer.
            guard case .attaching(_, let client, let held) = life else { return }
            become(.scene(instance, client: client))
            for frame in held { connection.sendFramed(frame) }
        case .failure(let reason):
            reply(id, error: .domain(reason))
            become(.refusing)
            connection.closeAfterFlush(.local("the instance is gone"))
        }
    }

    // MARK: What a scene may call

    /// A scene's program: each step scoped as the request it stands for would be, so a
    /// program can do only what the scene could do step by step (a step's `$k` in the
    /// member naming the instance names another instance, and is forbidden).
    private func scopedProgram(_ params: JSONValue?) -> Result<JSONValue?, WireError> {
        guard case .object(var members)? = params, case .array(var steps)? = members["steps"] else { return .success(params) }
        for (index, step) in steps.enumerated() {
            guard case .object(var fields) = step, let name = fields["method"]?.stringValue, let method = WireMethod(rawValue: name),
                ProgramStep<JSONValue>.methods.contains(name)
            else { continue }  // what is not a step is refused -32602 when decoded
            switch scoped(method, method.spec.scene, params: fields["params"]) {
            case .success(let scopedParams):
                fields["params"] = scopedParams
                steps[index] = .object(fields)
            case .failure(let error):
                return .failure(error.adding(["step": .integer(index)], message: "step \(index): \(error.message)"))
            }
        }
        members["steps"] = .array(steps)
        return .success(.object(members))
    }

    /// A scene's request, checked against what a scene may call (its method's
    /// ``SceneAccess``) and scoped to its own instance: the member naming the instance
    /// defaults to its own and may not name another.
    func scoped(_ known: WireMethod, _ access: SceneAccess, params: JSONValue?) -> Result<JSONValue?, WireError> {
        guard let own = instance?.description else { return .success(params) }
        let method = known.rawValue
        switch access {
        case .asIs:
            return .success(params)
        case .forbidden:
            return .failure(.forbidden(method, "a scene connection may not call \(method)"))
        case .eachStep:
            return scopedProgram(params)
        case .own(let key, let refusing):
            guard case .object(var members) = params ?? .object([:]) else { return .success(params) }
            if let refusing, members[refusing] != nil {
                return .failure(.forbidden(method, "\(own) may call \(method) only for its own instance, not with \(refusing)"))
            }
            if let given = members[key] {
                guard given == .string(own) else {
                    return .failure(.forbidden(method, "\(own) may act only for itself, not for \(given.stringValue ?? given.description)"))
                }
            } else {
                members[key] = .string(own)
            }
            return .success(.object(members))
        }
    }

    // MARK: Requests to the scene

    /// Sends this scene a request; `completion` runs on the loop thread with its answer,
    /// `call_timeout` after `timeout`, or `not_connected` when the connection closes first.
    func request(
        _ method: String, params: RawJSON?, timeout: Duration?,
        completion: @escaping (Result<RawJSON, WireError>) -> Void
    ) {
        request(method, params: params, timeout: timeout, waiter: .handler(completion))
    }

    /// Sends this scene a request whose answer answers `caller`'s request `id`.
    func request(_ method: String, params: RawJSON?, timeout: Duration?, answering caller: Session, id: JSONValue) {
        request(method, params: params, timeout: timeout, waiter: .caller(caller, id: id))
    }

    private func request(_ method: String, params: RawJSON?, timeout: Duration?, waiter: Outbound.Waiter) {
        guard !connection.isClosed else {
            Outbound(waiter: waiter, deadline: nil).resolve(.failure(notConnected))
            return
        }
        let number = nextOutbound
        nextOutbound += 1
        var deadline: Outbound.Deadline?
        if let timeout {
            // Beyond a year is forever, as for the loop's timers.
            let at = connection.loop.clock.now + min(max(timeout, .zero), .seconds(365 * 86_400))
            deadline = Outbound.Deadline(at: at, method: method, timeout: timeout)
            armOutboundTimer(for: at)
        }
        outbound[number] = Outbound(waiter: waiter, deadline: deadline)
        send(WireCodec.framedRequest(id: number, method: method, params: params))
    }

    /// Makes sure the outbound timer goes off by `deadline`. One timer serves every request
    /// waiting on this connection, so that a relayed call schedules (and allocates) nothing
    /// of its own: calls with the same timeout come due in the order they were sent, and
    /// the timer is armed again only when a new deadline is earlier than the armed one, or
    /// when it goes off.
    private func armOutboundTimer(for deadline: ContinuousClock.Instant) {
        if let armed = outboundTimer {
            guard deadline < armed.at else { return }
            connection.loop.cancel(armed.timer)
        }
        let timer = connection.loop.scheduleOnLoop(after: deadline - connection.loop.clock.now) { [weak self] in
            self?.outboundTimerFired()
        }
        outboundTimer = (timer, deadline)
    }

    /// Answers `call_timeout` to every request whose deadline has passed, in the order they
    /// were sent, and arms the timer for the earliest deadline left.
    private func outboundTimerFired() {
        outboundTimer = nil
        let now = connection.loop.clock.now
        let due = outbound.filter { $0.value.deadline.map { $0.at <= now } ?? false }.sorted { $0.key < $1.key }
        for (number, _) in due { outbound[number] = nil }
        let instance = self.instance?.description ?? name
        for (_, call) in due {
            guard let deadline = call.deadline else { continue }
            call.resolve(.failure(.domain(
                reason: .callTimeout, message: "\(instance) did not answer \(deadline.method) within \(deadline.timeout)",
                data: ["instance": .string(instance), "method": .string(deadline.method)])))
        }
        if let next = outbound.values.compactMap({ $0.deadline?.at }).min() { armOutboundTimer(for: next) }
    }

    /// Sends this scene a notification.
    func notify(_ method: String, params: RawJSON?) {
        guard !connection.isClosed else { return }
        send(WireCodec.framedRequest(id: nil, method: method, params: params))
    }

    /// Sends a coordinator message (a whole frame); until the scene's hello is answered it
    /// waits, so that the hello result is the first thing a scene receives.
    private func send(_ frame: [UInt8]) {
        if case .attaching(let instance, let client, var held) = life {
            held.append(frame)
            become(.attaching(instance, client: client, held: held))
        } else {
            connection.sendFramed(frame)
        }
    }

    private var notConnected: WireError {
        let instance = self.instance?.description ?? name
        return .domain(reason: .notConnected, message: "\(instance) has no connected process", data: ["instance": .string(instance)])
    }

    /// Answers every request still waiting with `not_connected`.
    func failOutbound() {
        let waiting = outbound
        outbound.removeAll()
        if let armed = outboundTimer {
            connection.loop.cancel(armed.timer)
            outboundTimer = nil
        }
        for (_, call) in waiting.sorted(by: { $0.key < $1.key }) {
            call.resolve(.failure(notConnected))
        }
    }

    /// Closes a scene connection once what is queued is written (its process stops).
    func closeScene() {
        connection.closeAfterFlush(.local("the scene is stopping"))
    }

    /// Drops an attached process's connection now (it stopped answering): its instance
    /// waits for it to attach again.
    func dropAttached(_ why: String) {
        connection.close(.local(why))
    }

    // MARK: Relay

    /// `scene.call` / `scene.notify`: delivers the caller's method and params to the
    /// target scene process; a call is answered with the scene's own answer.
    func relay(id: JSONValue, params: JSONValue?, expectsAnswer: Bool) {
        let call: SceneCallParams
        do {
            call = try WireCodec.decode(SceneCallParams.self, from: params)
        } catch {
            reply(id, error: error)
            return
        }
        if let refusal = SceneCallParams.refusal(method: call.method, timeout: call.timeout) {
            reply(id, error: refusal)
            return
        }
        var target: InstanceID?
        if case .instance(let text) = call.to {
            guard let parsed = InstanceID(text) else {
                reply(id, error: .invalidParams("to: \"\(text)\" is not an instance id (<scene>-<n>)"))
                return
            }
            target = parsed
        }
        let scene: String
        switch call.to {
        case .instance: scene = target?.scene ?? ""
        case .scene(let named): scene = named
        }
        // A scene that declares its interface is held to it before anything reaches it.
        if let refusal = registry.interface(of: scene)?.refusal(ofCall: call.method, params: call.params, scene: scene) {
            reply(id, error: refusal)
            return
        }
        // From here on every answer goes through `complete`: a caller that half-closes
        // still gets it.
        unanswered.append(id)
        let params = call.params.map(RawJSON.init)
        if let target {
            deliver(call.method, params: params, timeout: call.timeout, to: target, id: id, expectsAnswer: expectsAnswer)
            return
        }
        // Which instance is most recent is the registry's to say (it runs on this thread);
        // an activatable scene with none open gets one, and the call waits until it is active.
        let session = bound
        let method = expectsAnswer ? WireMethod.sceneCall : WireMethod.sceneNotify
        registry.activate(scene, for: method.rawValue) { result in
            switch result {
            case .success(let target):
                session.value.deliver(call.method, params: params, timeout: call.timeout, to: target, id: id, expectsAnswer: expectsAnswer)
            case .failure(let reason):
                session.value.complete(id, .failure(.domain(reason)))
            }
        }
    }

    /// Passes `method` and `params` on to `target`'s process; a call's answer becomes the
    /// answer to request `id`.
    func deliver(_ method: String, params: RawJSON?, timeout: Double?, to target: InstanceID, id: JSONValue, expectsAnswer: Bool) {
        let wait = timeout.map { Duration.seconds($0) } ?? server.configuration.callTimeout
        if registry.runsInProcess(target) {
            deliverInProcess(method, params: params, timeout: wait, to: target, id: id, expectsAnswer: expectsAnswer)
            return
        }
        guard let scene = server.supervisor.session(of: target) else {
            // Not connected, or not open at all: the registry knows which.
            let open = registry.isOpen(target)
            let error: WireError = open
                ? .domain(reason: .notConnected, message: "\(target) has no connected process", data: ["instance": .string(target.description)])
                : .domain(RegistryRejection.instanceNotOpen(target))
            complete(id, .failure(error))
            return
        }
        guard expectsAnswer else {
            scene.notify(method, params: params)
            complete(id, .success(.object([:])))
            return
        }
        scene.request(method, params: params, timeout: wait, answering: self, id: id)
    }

    /// Passes `method` and `params` on to the behaviour of in-process instance `target`;
    /// its answer, back on the loop, answers request `id`.
    private func deliverInProcess(
        _ method: String, params: RawJSON?, timeout: Duration, to target: InstanceID, id: JSONValue, expectsAnswer: Bool
    ) {
        let registry = self.registry
        let call = SceneCall(method: method, params: ScenePayload(json: params?.value ?? .object([:])))
        let session = LoopBound(self, loop: connection.loop)
        // A running behaviour answers without a task; its answer comes back to the loop
        // (at once when the behaviour runs there too).
        if expectsAnswer, registry.callRunning(call, on: target, timeout: timeout, completion: { answer in
            let framed = answer.flatMap { payload in Result { () throws(SceneError) in try payload.json() } }
            session.loop.execute { session.value.complete(id, framed) }
        }) {
            return
        }
        Task {
            let answer: Result<JSONValue, WireError>
            do throws(SceneError) {
                if expectsAnswer {
                    answer = .success(try await registry.call(call, to: .instance(target), timeout: timeout).json())
                } else {
                    try await registry.notify(call, to: .instance(target))
                    answer = .success(.object([:]))
                }
            } catch {
                answer = .failure(error)
            }
            session.loop.execute { session.value.complete(id, answer) }
        }
    }
}
