import SceneCore
import SceneJSON
import SceneSocket
import SceneWire

/// The methods a session serves itself, without a registry call: by method, the handler
/// that answers it, at once or in its turn as its row in ``WireCalls`` says.
extension Session {
    /// A handler: it answers request `id` with `params`.
    typealias Handler = @Sendable (Session, _ id: JSONValue, _ params: JSONValue?) -> Void

    /// Every method a session serves itself.
    static let handlers: [WireMethod: Handler] = [
        .ping: { session, id, _ in session.reply(id, result: .object([:])) },
        .coordinatorShutdown: { session, id, _ in session.shutDownCoordinator(id: id) },
        .subscribe: { session, id, params in session.subscribe(id: id, params: params) },
        .unsubscribe: { session, id, _ in
            session.unsubscribe()
            session.reply(id, result: .object([:]))
        },
        .sceneCall: { session, id, params in session.relay(id: id, params: params, expectsAnswer: true) },
        .sceneNotify: { session, id, params in session.relay(id: id, params: params, expectsAnswer: false) },
        .sceneStatus: { session, id, params in session.status(id: id, params: params) },
        .sceneDescribe: { session, id, params in session.describe(id: id, params: params) },
        .sceneRestart: { session, id, params in session.restart(id: id, params: params) },
        .sessionSave: { session, id, params in session.saveSession(id: id, params: params) },
        .sessionLoad: { session, id, params in session.loadSession(id: id, params: params) },
        .sessionList: { session, id, _ in session.listSessions(id: id) },
        .sessionDelete: { session, id, params in session.deleteSession(id: id, params: params) },
        .tokenIssue: { session, id, params in session.issueToken(id: id, params: params) },
        .tokenList: { session, id, _ in session.listTokens(id: id) },
        .tokenRevoke: { session, id, params in session.revokeToken(id: id, params: params) },
    ]

    /// How a method is served: what its row says, with its registry call or handler.
    struct MethodRoute: Sendable {
        let method: WireMethod
        let scene: SceneAccess
        let order: AnswerOrder
        let registry: (any WireRegistryCall.Type)?
        let handler: Handler?
    }

    /// Every method's route, read from ``WireCalls`` once, by the method's name: a request
    /// finds its route with one lookup of the name it came with.
    static let routes: [String: MethodRoute] = {
        var routes: [String: MethodRoute] = [:]
        for spec in WireCalls.all {
            routes[spec.method.rawValue] = MethodRoute(
                method: spec.method, scene: spec.scene, order: spec.order, registry: RegistryCalls.byMethod[spec.method],
                handler: handlers[spec.method])
        }
        return routes
    }()

    /// `coordinator.shutdown`: answered, then the coordinator stops.
    private func shutDownCoordinator(id: JSONValue) {
        reply(id, result: .object([:]))
        Log.info("\(name) (\(client)) asked the coordinator to shut down")
        server.requestShutdown()
    }

    /// `scene.status`: the instance, and how its process is doing (answered at once, as
    /// `ping` is, without waiting behind this connection's registry requests).
    func status(id: JSONValue, params: JSONValue?) {
        do throws(WireError) {
            let request = try WireCodec.decode(StatusParams.self, from: params)
            let instance = try instanceID(request.instance)
            switch registry.info(instance) {
            case .success(let info):
                let result = StatusResult(instance: InstanceObject(info), process: server.supervisor.status(of: instance))
                reply(id, result: WireCodec.json(result))
            case .failure(let reason):
                reply(id, error: explained(.domain(reason)))
            }
        } catch {
            reply(id, error: error)
        }
    }

    /// `scene.describe`: what a scene is and serves (answered at once: declarations do not
    /// change while the coordinator runs).
    func describe(id: JSONValue, params: JSONValue?) {
        do {
            let request = try WireCodec.decode(DescribeParams.self, from: params)
            switch registry.describe(request.scene) {
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
    func restart(id: JSONValue, params: JSONValue?) {
        let target: InstanceID
        do throws(WireError) {
            target = try instanceID(try WireCodec.decode(RestartParams.self, from: params).instance)
        } catch {
            reply(id, error: error)
            return
        }
        guard case .success(let info) = registry.info(target) else {
            reply(id, error: explained(.domain(RegistryRejection.instanceNotOpen(target))))
            return
        }
        let notConnected = WireError.domain(
            reason: .notConnected, message: "\(target) has no process or behaviour to restart",
            data: ["instance": .string(target.description)])
        switch registry.hosting(of: target) {
        case .process?:
            guard server.supervisor.restart(target) else {
                reply(id, error: notConnected)
                return
            }
            reply(id, result: WireCodec.json(InstanceResult(instance: InstanceObject(info))))
        case .inProcess?:
            unanswered.append(id)
            let registry = self.registry
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
