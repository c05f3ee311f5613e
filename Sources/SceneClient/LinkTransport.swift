import SceneCore
import SceneJSON
import SceneWire

/// A connection's typed calls: each a `scene.call` over its link.
struct LinkTransport: SceneCallTransport {
    let link: ClientLink

    /// How long past the call's own timeout the answer is waited for before the call is
    /// given up: the coordinator answers `call_timeout` first.
    private static let grace = 5.0
    /// Without a timeout of its own, the coordinator's bounds the call (at most an hour).
    private static let longest = Double(SceneCall.maximumTimeout.components.seconds)

    func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError) -> ScenePayload {
        var params: [UInt8] = []
        try call.params.write(to: &params)
        let request = SceneCallRequest(
            call: SceneCallParams(to: target, method: call.method, params: nil, timeout: timeout), params: RawJSON(checked: params))
        do {
            let answer = try await link.call(
                WireMethod.sceneCall.rawValue, params: request, timeout: (request.call.timeout ?? Self.longest) + Self.grace)
            return ScenePayload(json: answer)
        } catch {
            throw error.sceneError
        }
    }

    /// The one actor a connection hosts is its own scene's: nothing on the way to it.
    func callsDirectly(_ instance: InstanceID) -> Bool { true }
}

/// A typed call's `scene.call` params, its arguments' JSON written already.
private struct SceneCallRequest: WireWritable {
    /// Whom it is for, the method and the timeout (its `params` unset).
    let call: SceneCallParams
    /// The arguments, as the object the wire carries.
    let params: RawJSON

    func write(to output: inout [UInt8]) {
        SceneCallParams.write(to: call.to, method: call.method, params: params, timeout: call.timeout, from: nil, into: &output)
    }
}
