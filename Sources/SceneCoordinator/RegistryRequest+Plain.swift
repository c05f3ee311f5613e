import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

extension RegistryRequest {
    /// The requests a busy client sends most, read straight from their params; nil for
    /// anything unusual (a missing or mistyped member, an id that does not parse), which
    /// the decoder then reads or explains. Members a method does not know are ignored, as
    /// the decoder ignores them.
    init?(plain method: WireMethod, params: JSONValue?) {
        let members: [String: JSONValue]
        switch params {
        case nil: members = [:]
        case .object(let object)?: members = object
        default: return nil
        }
        /// A member that is absent or null.
        func absent(_ key: String) -> Bool { members[key]?.isNull ?? true }
        func instance(_ key: String = "instance") -> InstanceID? {
            guard case .string(let text)? = members[key] else { return nil }
            return InstanceID(text)
        }
        switch method {
        case .flowSend:
            guard let id = instance(), let intent = members["intent"].flatMap(FlowIntent<JSONValue>.init(plainJSON:)) else { return nil }
            self = .flowSend(id, intent)
        case .sceneOpen:
            guard case .string(let scene)? = members["scene"] else { return nil }
            self = .open(scene: scene, value: absent("value") ? nil : members["value"])
        case .sceneFocus:
            guard let id = instance() else { return nil }
            self = .focus(id)
        case .sceneDismiss:
            guard let id = instance(), absent("scene") else { return nil }
            switch members["force"] {
            case nil, .null?: self = .dismissInstance(id, force: false)
            case .bool(let force)?: self = .dismissInstance(id, force: force)
            default: return nil
            }
        case .sceneRoute:
            guard let from = instance("from"), let route = members["route"], !route.isNull else { return nil }
            self = .route(route, from: from)
        case .linkOpen:
            guard case .string(let url)? = members["url"] else { return nil }
            self = .link(url)
        case .sceneEmit:
            guard let id = instance(), case .string(let signal)? = members["signal"], !signal.isEmpty else { return nil }
            self = .emit(id, signal: signal, payload: absent("payload") ? nil : members["payload"])
        case .state:
            self = .state
        default:
            return nil
        }
    }
}
