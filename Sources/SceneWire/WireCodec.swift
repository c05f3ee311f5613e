public import SceneCore
public import SceneFlow
public import SceneJSON
import SceneSocket

/// Builds and reads the JSON text of protocol messages (the payloads of frames).
public enum WireCodec {
    /// A response carrying `result`.
    public static func response(id: JSONValue, result: JSONValue) -> [UInt8] {
        Array(framedResponse(id: id, result: result).dropFirst(4))
    }

    /// A response carrying `error`.
    public static func response(id: JSONValue, error: WireError) -> [UInt8] {
        Array(framedResponse(id: id, error: error).dropFirst(4))
    }

    /// A framed response (the frame's header included) whose `result` writes itself
    /// straight into the frame (a ``RawJSON`` exactly as it came).
    public static func framedResponse(id: JSONValue, result: some WireWritable) -> [UInt8] {
        var bytes = framedResponseStart(id: id, reserving: result.writtenSizeEstimate)
        result.write(to: &bytes)
        finishFramedResponse(&bytes)
        return bytes
    }

    /// The start of a framed response whose result is written after it, piece by piece;
    /// ``finishFramedResponse(_:)`` completes it.
    /// `reserving` is about how many bytes the result takes (its
    /// ``WireWritable/writtenSizeEstimate``).
    public static func framedResponseStart(id: JSONValue, reserving resultSize: Int = 64) -> [UInt8] {
        // The envelope around a result: `{"jsonrpc":"2.0","id":…,"result":…}`.
        var bytes = frameStart(capacity: 64 + resultSize)
        appendText(#"{"jsonrpc":"2.0","id":"#, to: &bytes)
        id.write(to: &bytes)
        appendText(#","result":"#, to: &bytes)
        return bytes
    }

    /// Closes a response begun with ``framedResponseStart(id:reserving:)`` once its result is written.
    public static func finishFramedResponse(_ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        frameEnd(&bytes)
    }

    /// A framed response carrying `error`.
    public static func framedResponse(id: JSONValue, error: WireError) -> [UInt8] {
        var bytes = frameStart(capacity: 160)
        appendText(#"{"jsonrpc":"2.0","id":"#, to: &bytes)
        id.write(to: &bytes)
        appendText(#","error":"#, to: &bytes)
        error.json.write(to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        frameEnd(&bytes)
        return bytes
    }

    // MARK: Frames, written straight into bytes

    /// `text` as a frame: its 4-byte length, then its UTF-8 bytes, in one array.
    public static func framed(_ text: String) -> [UInt8] {
        var bytes = frameStart(capacity: text.utf8.count)
        bytes.append(contentsOf: text.utf8)
        frameEnd(&bytes)
        return bytes
    }

    /// A framed request (`id` given) or notification, its params written straight into
    /// the frame (a ``RawJSON`` exactly as it came).
    public static func framedRequest(id: Int?, method: String, params: (some WireWritable)?) -> [UInt8] {
        var bytes = frameStart(capacity: 96)
        appendText(#"{"jsonrpc":"2.0","#, to: &bytes)
        if let id {
            appendText(#""id":"#, to: &bytes)
            JSONValue.writeInteger(id, to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        appendText(#""method":"#, to: &bytes)
        JSONValue.writeQuoted(method, to: &bytes)
        if let params {
            appendText(#","params":"#, to: &bytes)
            params.write(to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        frameEnd(&bytes)
        return bytes
    }

    /// An array with room for the header and `capacity` bytes after it, allocated once,
    /// holding the header's place.
    private static func frameStart(capacity: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(FrameHeader.size + capacity)
        bytes.append(contentsOf: repeatElement(0, count: FrameHeader.size))
        return bytes
    }

    /// Writes the frame's length into the header reserved at its start.
    private static func frameEnd(_ bytes: inout [UInt8]) {
        FrameHeader.seal(&bytes)
    }

    private static func appendText(_ text: StaticString, to bytes: inout [UInt8]) {
        JSONValue.append(text, to: &bytes)
    }

    /// The params of an `event` notification: `{seq, type, …}` with the event's members.
    public static func eventParams(_ event: SequencedEvent<JSONValue>) -> JSONValue {
        var members: [String: JSONValue] = ["seq": .integer(Int(event.seq)), "type": .string(event.event.type)]
        switch event.event {
        case .opened(let info):
            members["instance"] = json(InstanceObject(info))
        case .reopened(let info, let entry):
            members["instance"] = json(InstanceObject(info))
            members["reopened"] = true
            members["reopenedFrom"] = .string(entry.description)
        case .changed(let info):
            members["instance"] = json(InstanceObject(info))
        case .focused(let id):
            members["instance"] = .string(id.description)
        case .refocused(let id, let entry):
            members["instance"] = .string(id.description)
            members["reopened"] = true
            members["reopenedFrom"] = .string(entry.description)
        case .dismissed(let id, let reason):
            members["instance"] = .string(id.description)
            members["reason"] = .string(reason.rawValue)
        case .phaseChanged(let id, let phase):
            members["instance"] = .string(id.description)
            members["phase"] = .string(phase.rawValue)
        case .pushed(let id, let from):
            members["instance"] = .string(id.description)
            members["from"] = .string(from.description)
        case .flowChanged(let id, let path, let queue, let cause):
            members["instance"] = .string(id.description)
            members["path"] = json(path)
            members["queue"] = json(queue)
            var causeMembers: [String: JSONValue] = ["by": .string(cause.by.rawValue)]
            if let intent = cause.intent { causeMembers["intent"] = .string(intent) }
            members["cause"] = .object(causeMembers)
        case .flowQueued(let id, let step, let queue):
            members["instance"] = .string(id.description)
            members["step"] = json(step)
            members["queue"] = json(queue)
        case .finished(let id, let result):
            members["instance"] = .string(id.description)
            members["result"] = result
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
        case .signalEmitted(let id, let signal, let payload):
            members["instance"] = .string(id.description)
            members["scene"] = .string(id.scene)
            members["signal"] = .string(signal)
            members["payload"] = payload ?? .null
        }
        return .object(members)
    }

    /// A path as JSON, `[{"type", "route"}, …]`, built directly: the same value the
    /// `Encodable` path gives, without the encoder's generic machinery (paths go out in
    /// every `flow.*` answer and `flow.changed` event).
    public static func json(_ path: [RouteStep<JSONValue>]) -> JSONValue {
        .array(path.map { step in .object(["type": .string(step.kind.rawValue), "route": step.route]) })
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
