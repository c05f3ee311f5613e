public import SceneCore
import SceneJSON
import SceneWire

/// The coordinator's scenes as a client (or a scene process) asks for them over its
/// connection: ``SceneConnection/scenes``. The same requests, answers and errors as a
/// registry's or a behaviour's (`SceneRequests`); a refusal is the coordinator's
/// `SceneError` as it sent it, any other failure as ``ClientError/sceneError`` says.
public struct ConnectionScenes: SceneRequests {
    let connection: SceneConnection

    /// Runs a request over the connection, its failure as a `SceneError`.
    private func asking<T>(_ body: () async throws(ClientError) -> T) async throws(SceneError) -> T {
        do {
            return try await body()
        } catch {
            throw error.sceneError
        }
    }

    /// An instance id the coordinator answered.
    private func id(_ text: String) throws(SceneError) -> InstanceID {
        guard let id = InstanceID(text) else { throw .sceneFailed("the coordinator answered \"\(text)\", which is no instance id") }
        return id
    }

    @discardableResult
    public func open<Value>(_ scene: SceneID<Value>, value: Value) async throws(SceneError) -> InstanceID {
        let json = try SceneID.json(value)
        return try id(try await asking { () throws(ClientError) in try await connection.open(scene.id, value: json).instance.id })
    }

    @discardableResult
    public func push<Value>(_ scene: SceneID<Value>, value: Value, from window: InstanceID) async throws(SceneError) -> InstanceID {
        let json = try SceneID.json(value)
        return try id(try await asking { () throws(ClientError) in
            try await connection.push(scene.id, value: json, from: window.description).id
        })
    }

    public func focus(_ instance: InstanceID) async throws(SceneError) {
        _ = try await asking { () throws(ClientError) in try await connection.focus(instance.description) }
    }

    @discardableResult
    public func dismiss(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID] {
        let gone = try await asking { () throws(ClientError) in try await connection.dismiss(instance: instance.description, force: force) }
        var ids: [InstanceID] = []
        for text in gone { ids.append(try id(text)) }
        return ids
    }

    public func call<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget, timeout: Duration?)
        async throws(SceneError) -> Answer
    {
        let request = SceneCallParams(to: target, method: method.name, params: try ScenePayload(params).json(), timeout: timeout)
        let answer = try await asking { () throws(ClientError) in
            try await connection.callScene(request.to, method: request.method, params: request.params, timeout: request.timeout)
        }
        return try ScenePayload(json: answer).decodeAnswer(Answer.self)
    }

    public func notify<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget)
        async throws(SceneError)
    {
        let request = SceneCallParams(to: target, method: method.name, params: try ScenePayload(params).json())
        try await asking { () throws(ClientError) in
            try await connection.notifyScene(request.to, method: request.method, params: request.params)
        }
    }

    public func present<Value, Answer: Decodable & Sendable>(
        _ scene: SceneID<Value>, value: Value, from presenter: InstanceID, answering: Answer.Type
    ) async throws(SceneError) -> Presented<Answer> {
        let json = try SceneID.json(value)
        let answer = try await asking { () throws(ClientError) in
            try await connection.present(scene.id, value: json, from: presenter.description)
        }
        return Presented(instance: try id(answer.instance.id), result: try ScenePayload(json: answer.result).decodeAnswer(Answer.self))
    }

    public func finish(_ instance: InstanceID, with result: some Encodable & Sendable) async throws(SceneError) {
        let json = try ScenePayload(result).json()
        try await asking { () throws(ClientError) in try await connection.finish(instance.description, result: json) }
    }
}

extension SceneConnection {
    /// The coordinator's scenes, asked for over this connection (`SceneRequests`): as a
    /// control client, any instance; as a scene, its own.
    public var scenes: ConnectionScenes { ConnectionScenes(connection: self) }
}
