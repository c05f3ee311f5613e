import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

// What the methods about scenes' instances do on the registry: open, push, dismiss,
// focus, reopen, phase, and the immersive space's dismissal and style.

extension OpenParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let scene)? = members["scene"] else { return nil }
        return Self(scene: scene, value: members["value"].nullAsAbsent)
    }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .answer(registry.beginOpen(self.scene, value: value)) { outcome in
            InstanceInfoResult(WireRoutes<R>.json(outcome.instance), outcome: outcome.name)
        }
    }
}

extension PushParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        let from: InstanceID
        do throws(WireError) { from = try instanceID(self.from, field: "from") } catch { return .refused(error) }
        return .answer(registry.beginPush(self.scene, value: value, from: from)) { info in
            InstanceInfoResult(WireRoutes<R>.json(info))
        }
    }
}

extension DismissParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let instance)? = members["instance"], members["scene"]?.isNull ?? true else { return nil }
        switch members["force"] {
        case nil, .null?: return Self(instance: instance)
        case .bool(let force)?: return Self(instance: instance, force: force)
        default: return nil
        }
    }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        let force = self.force ?? false
        switch (instance, self.scene) {
        case (let text?, nil):
            let id: InstanceID
            do throws(WireError) { id = try instanceID(text) } catch { return .refused(error) }
            return .answer(registry.beginDismiss(id, force: force, closingItself: id == scene)) { dismissed in
                DismissResult(dismissed: dismissed.map(\.description))
            }
        case (nil, let named?):
            return .answer(registry.beginDismiss(scene: named, value: value, force: force)) { outcome in
                DismissResult(dismissed: outcome.dismissed.map(\.description), vetoed: outcome.vetoed.map(\.description))
            }
        default:
            return .refused(.invalidParams("give either instance, or scene (with an optional value)"))
        }
    }
}

extension FocusParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let instance)? = members["instance"] else { return nil }
        return Self(instance: instance)
    }

    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let id = try CallFailure.instance(instance)
            let info = try CallFailure.registry { () throws(RegistryRejection) in try registry.focus(id) }
            return InstanceInfoResult(WireRoutes<R>.json(info))
        }
    }
}

extension ReopenParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .answer(registry.beginReopen(self.scene)) { outcome in InstanceInfoResult(WireRoutes<R>.json(outcome.instance)) }
    }
}

extension ScenePhaseParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let id = try CallFailure.instance(instance)
            guard let phase = ScenePhase(rawValue: phase) else {
                throw .wire(.invalidParams("phase: \"\(self.phase)\" is not a phase (active, inactive or background)"))
            }
            let info = try CallFailure.registry { () throws(RegistryRejection) in
                try registry.setPhase(id, phase)
                return try registry.info(id)
            }
            return InstanceInfoResult(WireRoutes<R>.json(info))
        }
    }
}

extension ImmersiveDismissParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? { Self() }

    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            let dismissed = try CallFailure.registry { () throws(RegistryRejection) in try registry.dismissImmersive() }
            return DismissResult(dismissed: dismissed.map(\.description))
        }
    }
}

extension ImmersiveStyleParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            guard let style = ImmersionStyle(rawValue: style) else {
                throw .wire(.invalidParams("style: \"\(self.style)\" is not a style (mixed, progressive or full)"))
            }
            let info = try CallFailure.registry { () throws(RegistryRejection) in try registry.setImmersiveStyle(style) }
            return InstanceInfoResult(WireRoutes<R>.json(info))
        }
    }
}
