package import SceneFlow
package import SceneJSON

extension FlowIntent where R == JSONValue {
    /// The wire's fast path: the common intents read straight from `json`, as ``init(from:)`` reads them, without
    /// a decoder; nil for anything it does not take (lists, a reset, a missing or null
    /// argument, a count that is not an integer), which the decoder then reads or explains.
    package init?(plainJSON json: JSONValue) {
        guard case .object(let members) = json, case .string(let type)? = members["type"] else { return nil }
        let route = members["route"].flatMap { $0.isNull ? nil : $0 }
        switch type {
        case "push", "sheet", "cover", "popTo", "backOrPush", "pushUnique":
            guard let route else { return nil }
            switch type {
            case "push": self = .push(route)
            case "sheet": self = .sheet(route)
            case "cover": self = .cover(route)
            case "popTo": self = .popTo(route)
            case "backOrPush": self = .backOrPush(route)
            default: self = .pushUnique(route)
            }
        case "pop":
            switch members["count"] {
            case nil, .null?: self = .pop
            case .integer(let count)?: self = .popCount(count)
            default: return nil
            }
        case "popToRoot": self = .popToRoot
        case "dismiss": self = .dismiss
        case "dismissAll": self = .dismissAll
        default: return nil
        }
    }
}
