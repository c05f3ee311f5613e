package import SceneFlow
package import SceneJSON

extension FlowIntent where R == JSONValue {
    /// The wire's fast path: the common intents read straight from `json`, as ``init(from:)`` reads them, without
    /// a decoder; nil for anything it does not take (lists, a reset, a missing or null
    /// argument, a count that is not an integer), which the decoder then reads or explains.
    package init?(plainJSON json: JSONValue) {
        guard case .object(let members) = json, case .string(let type)? = members["type"] else { return nil }
        self.init(plainType: type, route: members["route"], count: members["count"])
    }

    /// ``init(plainJSON:)`` read straight from the bytes of the intent object that comes
    /// next in `parser`, without building the object (its route is built, being the value
    /// the intent carries). Members are taken as the object's would be: the last of a key
    /// given twice, unknown ones ignored.
    package init?(plainObject parser: inout JSONParser) {
        var type: String?
        var route: JSONValue?
        var count: JSONValue?
        let read = parser.readObject(keys: ["type", "route", "count"]) { parser, key throws(JSONParseError) in
            switch key {
            case 0?:
                guard let text = try parser.readString() else { return false }
                type = text
            case 1?: route = try parser.parseValue()
            case 2?: count = try parser.parseValue()
            default: try parser.skipValue()
            }
            return true
        }
        guard read, let type else { return nil }
        self.init(plainType: type, route: route, count: count)
    }

    /// The intent of `type` with its `route` or `count` member as given (nil: absent).
    private init?(plainType type: String, route: JSONValue?, count: JSONValue?) {
        let route = route.nullAsAbsent
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
            switch count {
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

extension FlowSendParams {
    /// `flow.send`'s params read straight from `bytes` (the `params` object of a request
    /// whose envelope was scanned, so known to be well-formed JSON), with the plain intents
    /// ``FlowIntent/init(plainJSON:)`` takes; nil for anything else, which the general
    /// path then reads or explains.
    package static func plain(bytes: UnsafeRawBufferPointer) -> FlowSendParams? {
        var parser = JSONParser(params: bytes)
        var instance: String?
        var intent: FlowIntent<JSONValue>?
        let read = parser.readObject(keys: ["instance", "intent"]) { parser, key throws(JSONParseError) in
            switch key {
            case 0?:
                guard let text = try parser.readString() else { return false }
                instance = text
            case 1?:
                guard let plain = FlowIntent<JSONValue>(plainObject: &parser) else { return false }
                intent = plain
            default: try parser.skipValue()
            }
            return true
        }
        guard read, let instance, let intent else { return nil }
        return FlowSendParams(instance: instance, intent: intent)
    }
}

extension OpenParams {
    /// `scene.open`'s params read straight from `bytes`, as ``FlowSendParams/plain(bytes:)``
    /// reads `flow.send`'s; nil for anything unusual.
    package static func plain(bytes: UnsafeRawBufferPointer) -> OpenParams? {
        var parser = JSONParser(params: bytes)
        var scene: String?
        var value: JSONValue?
        let read = parser.readObject(keys: ["scene", "value"]) { parser, key throws(JSONParseError) in
            switch key {
            case 0?:
                guard let text = try parser.readString() else { return false }
                scene = text
            case 1?: value = try parser.parseValue()
            default: try parser.skipValue()
            }
            return true
        }
        guard read, let scene else { return nil }
        return OpenParams(scene: scene, value: value.nullAsAbsent)
    }
}
