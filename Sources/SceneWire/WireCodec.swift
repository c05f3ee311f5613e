public import SceneCore
public import SceneFlow

/// Builds and reads the JSON text of protocol messages (the payloads of frames).
public enum WireCodec {
    /// A response carrying `result`.
    public static func response(id: JSONValue, result: JSONValue) -> [UInt8] {
        var text = #"{"jsonrpc":"2.0","id":"#
        id.write(to: &text)
        text += #","result":"#
        result.write(to: &text)
        text += "}"
        return Array(text.utf8)
    }

    /// A response carrying `error`.
    public static func response(id: JSONValue, error: WireError) -> [UInt8] {
        var text = #"{"jsonrpc":"2.0","id":"#
        id.write(to: &text)
        text += #","error":"#
        error.json.write(to: &text)
        text += "}"
        return Array(text.utf8)
    }

    /// A request (`id` given) or a notification (`id` nil).
    public static func request(id: JSONValue?, method: String, params: JSONValue?) -> [UInt8] {
        var text = #"{"jsonrpc":"2.0","#
        if let id {
            text += #""id":"#
            id.write(to: &text)
            text += ","
        }
        text += #""method":"#
        JSONValue.writeQuoted(method, to: &text)
        if let params {
            text += #","params":"#
            params.write(to: &text)
        }
        text += "}"
        return Array(text.utf8)
    }

    /// The params of an `event` notification: `{seq, type, …}` with the event's members.
    public static func eventParams(_ event: SequencedEvent<JSONValue>) -> JSONValue {
        var members: [String: JSONValue] = ["seq": .integer(Int(event.seq)), "type": .string(event.event.type)]
        switch event.event {
        case .opened(let info):
            members["instance"] = json(InstanceObject(info))
        case .focused(let id):
            members["instance"] = .string(id.description)
        case .dismissed(let id, let reason):
            members["instance"] = .string(id.description)
            members["reason"] = .string(reason.rawValue)
        case .phaseChanged(let id, let phase):
            members["instance"] = .string(id.description)
            members["phase"] = .string(phase.rawValue)
        case .pushed(let id, let from):
            members["instance"] = .string(id.description)
            members["from"] = .string(from.description)
        case .flowChanged(let id, let path):
            members["instance"] = .string(id.description)
            members["path"] = json(path)
        case .linkHandled(let url, let id, let opened):
            members["url"] = .string(url)
            members["instance"] = .string(id.description)
            members["opened"] = .bool(opened)
        case .linkPending(let url), .linkSuperseded(let url):
            members["url"] = .string(url)
        case .linkRejected(let url, let reason):
            members["url"] = .string(url)
            members["error"] = WireError.domain(reason).json
        case .requestRejected(let request, let reason):
            members["request"] = .string(request)
            members["error"] = WireError.domain(reason).json
        case .spawned(let id, let pid):
            members["instance"] = .string(id.description)
            members["pid"] = .integer(Int(pid))
        case .disconnected(let id, let exit):
            members["instance"] = .string(id.description)
            switch exit {
            case .exited(let status)?:
                members["status"] = .integer(Int(status))
                members["signal"] = .null
            case .signalled(let signal)?:
                members["status"] = .null
                members["signal"] = .integer(Int(signal))
            case nil:
                members["status"] = .null
                members["signal"] = .null
            }
        case .restarted(let id):
            members["instance"] = .string(id.description)
        case .authChanged(let authenticated):
            members["authenticated"] = .bool(authenticated)
        }
        return .object(members)
    }

    /// Any encodable message as JSON (our own encoder: no bytes in between).
    public static func json(_ value: some Encodable) -> JSONValue {
        // The protocol's messages always encode; a failure would be a bug in this module.
        (try? JSONValue.encoded(value)) ?? .null
    }

    /// Decodes params, answering -32602 with the coding path of what does not fit.
    public static func decode<T: Decodable>(_ type: T.Type, from params: JSONValue?) throws(WireError) -> T {
        do {
            return try (params ?? .object([:])).decoded(as: T.self)
        } catch let error as DecodingError {
            throw .invalidParams(describe(error))
        } catch {
            throw .invalidParams("\(error)")
        }
    }

    /// A short description of a decoding error: the path, then what was wrong.
    public static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "params" : text)
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
