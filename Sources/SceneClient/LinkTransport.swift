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
        let request = SceneCallParams(to: target, method: call.method, params: try call.params.json(), timeout: timeout)
        do {
            let answer = try await link.call(
                WireMethod.sceneCall.rawValue, params: WireCodec.json(request),
                timeout: (request.timeout ?? Self.longest) + Self.grace)
            return ScenePayload(json: answer)
        } catch {
            throw error.sceneError
        }
    }

    /// The one actor a connection hosts is its own scene's: nothing on the way to it.
    func callsDirectly(_ instance: InstanceID) -> Bool { true }
}
