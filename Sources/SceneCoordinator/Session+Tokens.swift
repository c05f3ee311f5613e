import SceneCore
import SceneJSON
import SceneSocket
import SceneWire

/// `token.issue`, `token.list`, `token.revoke`: the attach tokens with which a process the
/// coordinator did not start says `hello` as one of a scene's instances. Control only
/// (a scene connection is `forbidden` them), answered at once.
extension Session {
    func issueToken(id: JSONValue, params: JSONValue?) {
        do throws(WireError) {
            let request = try WireCodec.decode(TokenIssueParams.self, from: params)
            try checkAttachable(request)
            if let ttl = request.ttl, !(ttl > 0 && ttl.isFinite) {
                throw .invalidParams("ttl: \(ttl) is not a number of seconds more than 0")
            }
            if let uses = request.uses, uses < 1 {
                throw .invalidParams("uses: \(uses) is not at least 1")
            }
            let (secret, token) = server.tokens.issue(scene: request.scene, value: request.value, ttl: request.ttl, uses: request.uses)
            Log.info("\(name) (\(client)) issued attach token \(token.id) for \(request.scene)")
            reply(id, result: WireCodec.json(TokenIssueResult(token: secret, info: token.info)))
        } catch {
            reply(id, error: error)
        }
    }

    func listTokens(id: JSONValue) {
        reply(id, result: WireCodec.json(TokenListResult(tokens: server.tokens.all.map(\.info))))
    }

    func revokeToken(id: JSONValue, params: JSONValue?) {
        do throws(WireError) {
            let request = try WireCodec.decode(TokenRevokeParams.self, from: params)
            guard server.tokens.revoke(request.id) else {
                throw .domain(
                    reason: .unknownToken, message: "no attach token \"\(request.id)\" is good (never issued, spent, expired or revoked)",
                    data: ["id": .string(request.id)])
            }
            Log.info("\(name) (\(client)) revoked attach token \(request.id)")
            reply(id, result: .object([:]))
        } catch {
            reply(id, error: error)
        }
    }

    /// A token is for a declared scene that processes back, with a value exactly when the
    /// scene has an instance per value.
    private func checkAttachable(_ request: TokenIssueParams) throws(WireError) {
        let description: SceneDescription
        switch registry.describe(request.scene) {
        case .success(let described): description = described
        case .failure(let reason): throw .domain(reason)
        }
        guard registry.launch(of: request.scene) != nil else {
            throw .invalidParams("scene: \(request.scene) is not backed by a process (no launch, no attach): nothing can attach to it")
        }
        let value = request.value.flatMap { $0 == .null ? nil : $0 }
        if description.instances == .perValue, value == nil {
            throw .invalidParams("value: \(request.scene) has an instance per value; its token needs the value")
        }
    }
}
