public import SceneJSON

/// A scene as a service sees it: what `scene.describe` answers.
public struct SceneDescription: Hashable, Sendable {
    /// The scene's id.
    public let scene: String
    /// Window, volume or immersive space.
    public let kind: SceneKind
    /// How many instances it may have.
    public let instances: InstancePolicy
    /// Whether a call to it, when none of its instances is open, opens one.
    public let activatable: Bool
    /// Its methods and signals, when it declares them.
    public let interface: SceneInterface?

    /// The most instances it may have, when its policy caps them: 1 for `single`, the
    /// declared cap of `multiple`; nil for `perValue` (one per value, values uncapped).
    public var max: Int? {
        switch instances {
        case .single: return 1
        case .perValue: return nil
        case .multiple(let max): return max
        }
    }
}

extension SceneRegistry {
    // MARK: Describing

    /// What `scene` is and serves.
    ///
    /// - Throws: `unknown_scene`.
    public nonisolated func describe(_ scene: String) throws(RegistryRejection) -> SceneDescription {
        guard let declaration = declarationsByID[scene] else { throw .unknownScene(scene) }
        return SceneDescription(
            scene: scene, kind: declaration.kind, instances: declaration.instances, activatable: declaration.activatable,
            interface: declaration.interface)
    }

    /// The interface `scene` declares; nil when it declares none (or is not declared).
    public nonisolated func interface(of scene: String) -> SceneInterface? {
        interfaces[scene]
    }

    /// Why `call` may not reach an instance of `scene`: its interface does not declare the
    /// method (-32601), or the params break the method's schema (-32602). Nil when the
    /// scene declares no interface or the call fits it.
    public nonisolated func refusal(of call: SceneCall, to scene: String) -> SceneError? {
        interfaces[scene]?.refusal(of: call, scene: scene)
    }

    // MARK: Activation

    /// The instance a call or notification to `scene` goes to: its most recent instance,
    /// as now; when none is open and the scene is `activatable`, a new one, opened by the
    /// scene's usual rules, once it is active.
    ///
    /// - An activatable scene's instance that is still opening is waited for, so calls
    ///   that come while the first one opens it all go to that one instance, whatever the
    ///   scene's instance policy.
    /// - Throws (in the step): `unknown_scene`; `not_open` when nothing is open and the
    ///   scene is not activatable; what opening it throws (`launch_failed`,
    ///   `launch_timeout`, `value_required`, …), also as a `request.rejected` event for
    ///   `request`.
    package func beginActivation(of scene: String, for request: String) -> RegistryStep<R, InstanceID> {
        switch book.activationTarget(of: scene, activatable: activatable.contains(scene)) {
        case .failure(let reason): return .done(.failure(reason))
        case .success(.existing(let id)): return .done(.success(id))
        case .success(.join(let id)): return afterOpening(id) { _ in id }
        case .success(.new): break
        }
        return step(request) { () throws(RegistryRejection) in
            try openStep(scene, value: nil).map { $0.map(\.instance.id) }
        }
    }

    // MARK: Signals

    /// Announces `signal` from instance `id`: a `signal.emitted` event with `payload`,
    /// which subscribers of topic `signal` receive.
    ///
    /// - Throws, in this order: `not_open` when `id` is not open (or still opening),
    ///   `unknown_signal` when the scene declares an interface without `signal` (each also a
    ///   `request.rejected`); -32602 when the payload breaks the schema the interface gives
    ///   the signal (no event).
    @_specialize(where R == JSONValue)
    public func emit(_ signal: String, payload: JSONValue?, from id: InstanceID) throws(SceneError) {
        let interface = interfaces[id.scene]
        do throws(RegistryRejection) {
            try rejectingSync("scene.emit") { (self) throws(RegistryRejection) in
                guard let record = self.book.records[id], record.phase != .opening else { throw .instanceNotOpen(id) }
                if let interface, interface.signals[signal] == nil { throw .unknownSignal(scene: id.scene, signal: signal) }
            }
        } catch {
            throw SceneError(error)
        }
        if let refusal = interface?.refusal(ofPayload: payload, signal: signal, scene: id.scene) { throw refusal }
        flush()
        log.emit(.signalEmitted(id, signal: signal, payload: payload))
    }
}
