import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

// What the methods about the whole registry and scenes' services do on the registry: a
// signal emitted, the state, and a saved session loaded.

extension EmitParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let instance)? = members["instance"], case .string(let signal)? = members["signal"] else { return nil }
        return Self(instance: instance, signal: signal, payload: members["payload"].nullAsAbsent)
    }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            guard let instance else { throw .wire(.invalidParams("instance: missing (a control connection names it)")) }
            guard !signal.isEmpty else { throw .wire(.invalidParams("signal: must not be empty")) }
            let id = try CallFailure.instance(instance)
            try CallFailure.wire { () throws(WireError) in try registry.emit(signal, payload: payload, from: id) }
            return EmptyResult()
        }
    }
}

extension StateParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? { Self() }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        guard WireRoutes<R>.isJSON else {
            return .done(.success(.success(registry.state().mappingPaths(WireRoutes<R>.json))))
        }
        // Taken now; its instances are made as its slices are written.
        return .done(.success(.success(registry.captureState() as! RegistryStateCapture<JSONValue>)))
    }
}

/// `session.load`'s registry call: the saved session (read by the session from its file),
/// loaded in place of what is open.
struct LoadSession: RegistryCall {
    let snapshot: RegistrySnapshot<JSONValue>
    let force: Bool

    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        let session: RegistrySnapshot<R>
        if WireRoutes<R>.isJSON {
            session = snapshot as! RegistrySnapshot<R>
        } else {
            // A registry of the app's own routes reads the saved routes as its own.
            do {
                session = try JSONValue.encoded(snapshot).decoded(as: RegistrySnapshot<R>.self)
            } catch {
                return .refused(.domain(
                    reason: .invalidSession, message: "the session does not fit this app's routes: \(error)",
                    data: ["detail": .string("\(error)")]))
            }
        }
        return .answer(registry.beginLoadSession(session, force: force)) { ids in
            JSONValue.object(["instances": .array(ids.map { .string($0.description) })])
        }
    }
}
