public import SceneCore
public import SceneFlow
public import SceneJSON

/// A protocol message that writes its own JSON, straight into bytes: the same value its
/// `Encodable` conformance gives, members in the same (sorted) order, but with no encoder
/// and no tree of values on the way. What a coordinator answers goes out this way.
public protocol WireWritable: Sendable {
    /// Appends the message's compact JSON to `output`.
    func write(to output: inout [UInt8])
}

extension JSONValue: WireWritable {}

/// A result large enough to be written a slice at a time (one per turn of a server's event
/// loop, so that its other connections are served in between): the `state` of an app with
/// many instances.
public protocol WireWritableInSlices: WireWritable {
    /// How many slices it is written in.
    var sliceCount: Int { get }
    /// Appends slice `index` (`0 ..< sliceCount`); the slices in order are `write(to:)`.
    func writeSlice(_ index: Int, to output: inout [UInt8])
}

/// Writes one JSON object's members: `{` before the first, `,` between, `}` at the end.
struct ObjectWriter {
    private var empty = true

    /// Writes `"key":`, after the separator the member needs.
    mutating func key(_ key: StaticString, to output: inout [UInt8]) {
        output.append(empty ? UInt8(ascii: "{") : UInt8(ascii: ","))
        empty = false
        output.append(UInt8(ascii: "\""))
        JSONValue.append(key, to: &output)
        JSONValue.append("\":", to: &output)
    }

    /// Closes the object.
    func end(_ output: inout [UInt8]) {
        if empty { output.append(UInt8(ascii: "{")) }
        output.append(UInt8(ascii: "}"))
    }
}

extension WireCodec {
    /// Writes `id` as its JSON string, `"<scene>-<n>"`.
    static func write(_ id: InstanceID, to output: inout [UInt8]) {
        JSONValue.writeQuoted(id.scene, to: &output)
        output.removeLast()  // the closing quote: the number goes inside
        output.append(UInt8(ascii: "-"))
        JSONValue.writeInteger(id.number, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Writes `id` as a string, or `null`.
    static func write(_ id: InstanceID?, to output: inout [UInt8]) {
        if let id { write(id, to: &output) } else { JSONValue.append("null", to: &output) }
    }

    /// Writes `text` as a string, or `null`.
    static func write(_ text: String?, to output: inout [UInt8]) {
        if let text { JSONValue.writeQuoted(text, to: &output) } else { JSONValue.append("null", to: &output) }
    }

    /// Writes a path, `[{"route", "type"}, …]`.
    public static func write(_ path: [RouteStep<JSONValue>], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, step) in path.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.append(#"{"route":"#, to: &output)
            step.route.write(to: &output)
            JSONValue.append(#","type":""#, to: &output)
            switch step.kind {
            case .push: JSONValue.append("push", to: &output)
            case .sheet: JSONValue.append("sheet", to: &output)
            case .cover: JSONValue.append("cover", to: &output)
            }
            JSONValue.append(#""}"#, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Writes `info` as the instance object.
    public static func write(_ info: InstanceInfo<JSONValue>, to output: inout [UInt8]) {
        JSONValue.append(#"{"focused":"#, to: &output)
        JSONValue.append(info.focused ? "true" : "false", to: &output)
        JSONValue.append(#","id":"#, to: &output)
        write(info.id, to: &output)
        JSONValue.append(#","kind":"#, to: &output)
        JSONValue.writeQuoted(info.kind.name, to: &output)
        JSONValue.append(#","path":"#, to: &output)
        write(info.path, to: &output)
        JSONValue.append(#","phase":"#, to: &output)
        JSONValue.writeQuoted(info.phase.rawValue, to: &output)
        JSONValue.append(#","pushedFrom":"#, to: &output)
        write(info.pushedFrom, to: &output)
        JSONValue.append(#","scene":"#, to: &output)
        JSONValue.writeQuoted(info.scene, to: &output)
        JSONValue.append(#","value":"#, to: &output)
        (info.value ?? .null).write(to: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Writes a registry's state as the `state` result.
    public static func write(_ state: RegistryState<JSONValue>, to output: inout [UInt8]) {
        for index in 0..<state.sliceCount { state.writeSlice(index, to: &output) }
    }
}

/// The parts of a `state` result, and the instances a slice at a time.
private struct StateWriting {
    let app: String
    let focused: InstanceID?
    let immersive: InstanceID?
    let pendingLink: String?
    let phase: ScenePhase
    let scenes: [RegistryState<JSONValue>.Scene]
    let seq: UInt64
    let count: Int
    /// The instances at a range of the id order.
    let instances: (Range<Int>) -> [InstanceInfo<JSONValue>]

    /// How many instances one slice writes.
    static let instancesPerSlice = 2_000

    /// The members before the instances, the instances a slice at a time, then the rest.
    var sliceCount: Int { 2 + (count + Self.instancesPerSlice - 1) / Self.instancesPerSlice }

    func writeSlice(_ index: Int, to output: inout [UInt8]) {
        if index == 0 {
            JSONValue.append(#"{"app":"#, to: &output)
            JSONValue.writeQuoted(app, to: &output)
            JSONValue.append(#","focused":"#, to: &output)
            WireCodec.write(focused, to: &output)
            JSONValue.append(#","immersive":"#, to: &output)
            WireCodec.write(immersive, to: &output)
            JSONValue.append(#","instances":["#, to: &output)
        } else if index == sliceCount - 1 {
            JSONValue.append(#"],"pendingLink":"#, to: &output)
            WireCodec.write(pendingLink, to: &output)
            JSONValue.append(#","phase":"#, to: &output)
            JSONValue.writeQuoted(phase.rawValue, to: &output)
            JSONValue.append(#","scenes":["#, to: &output)
            for (number, scene) in scenes.enumerated() {
                if number > 0 { output.append(UInt8(ascii: ",")) }
                SceneObject(scene).write(to: &output)
            }
            JSONValue.append(#"],"seq":"#, to: &output)
            JSONValue.writeInteger(Int(seq), to: &output)
            output.append(UInt8(ascii: "}"))
        } else {
            let start = (index - 1) * Self.instancesPerSlice
            for (offset, info) in instances(start..<min(start + Self.instancesPerSlice, count)).enumerated() {
                if start + offset > 0 { output.append(UInt8(ascii: ",")) }
                WireCodec.write(info, to: &output)
            }
        }
    }
}

extension RegistryState: WireWritableInSlices, WireWritable where R == JSONValue {
    private var writing: StateWriting {
        StateWriting(
            app: app, focused: focused, immersive: immersive, pendingLink: pendingLink, phase: phase, scenes: scenes,
            seq: seq, count: instances.count, instances: { Array(self.instances[$0]) })
    }

    public var sliceCount: Int { writing.sliceCount }

    /// Writes the `state` result, straight from the registry's state.
    public func write(to output: inout [UInt8]) {
        WireCodec.write(self, to: &output)
    }

    public func writeSlice(_ index: Int, to output: inout [UInt8]) {
        writing.writeSlice(index, to: &output)
    }
}

extension RegistryStateCapture: WireWritableInSlices, WireWritable where R == JSONValue {
    private var writing: StateWriting {
        StateWriting(
            app: app, focused: focused, immersive: immersive, pendingLink: pendingLink, phase: phase, scenes: scenes,
            seq: seq, count: count, instances: { self.instances($0) })
    }

    public var sliceCount: Int { writing.sliceCount }

    /// Writes the `state` result; each slice of instances is made as it is written.
    public func write(to output: inout [UInt8]) {
        for index in 0..<sliceCount { writeSlice(index, to: &output) }
    }

    public func writeSlice(_ index: Int, to output: inout [UInt8]) {
        writing.writeSlice(index, to: &output)
    }
}

extension InstanceObject: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("focused", to: &output)
        JSONValue.append(focused ? "true" : "false", to: &output)
        object.key("id", to: &output)
        JSONValue.writeQuoted(id, to: &output)
        object.key("kind", to: &output)
        JSONValue.writeQuoted(kind, to: &output)
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.key("phase", to: &output)
        JSONValue.writeQuoted(phase, to: &output)
        object.key("pushedFrom", to: &output)
        WireCodec.write(pushedFrom, to: &output)
        object.key("scene", to: &output)
        JSONValue.writeQuoted(scene, to: &output)
        object.key("value", to: &output)
        value.write(to: &output)
        object.end(&output)
    }
}

extension HelloResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        if let instance {
            object.key("instance", to: &output)
            instance.write(to: &output)
        }
        object.key("protocol", to: &output)
        JSONValue.writeInteger(self.protocol, to: &output)
        object.key("server", to: &output)
        JSONValue.writeQuoted(server, to: &output)
        object.key("session", to: &output)
        JSONValue.writeQuoted(session, to: &output)
        object.end(&output)
    }
}

extension OpenResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("instance", to: &output)
        instance.write(to: &output)
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.end(&output)
    }
}

extension InstanceResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("instance", to: &output)
        instance.write(to: &output)
        object.end(&output)
    }
}

extension DismissResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("dismissed", to: &output)
        JSONValue.array(dismissed.map(JSONValue.string)).write(to: &output)
        if let vetoed {
            object.key("vetoed", to: &output)
            JSONValue.array(vetoed.map(JSONValue.string)).write(to: &output)
        }
        object.end(&output)
    }
}

extension RouteResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("instance", to: &output)
        instance.write(to: &output)
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.end(&output)
    }
}

extension FlowSendResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.end(&output)
    }
}

extension PathResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.end(&output)
    }
}

extension BatchOutcome: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        if let error {
            object.key("error", to: &output)
            error.write(to: &output)
        }
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.end(&output)
    }
}

extension FlowBatchResultObject: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("outcomes", to: &output)
        output.append(UInt8(ascii: "["))
        for (index, outcome) in outcomes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            outcome.write(to: &output)
        }
        output.append(UInt8(ascii: "]"))
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.end(&output)
    }
}

extension LinkOpenResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        if let instance {
            object.key("instance", to: &output)
            instance.write(to: &output)
        }
        if let opened {
            object.key("opened", to: &output)
            JSONValue.append(opened ? "true" : "false", to: &output)
        }
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        if let path {
            object.key("path", to: &output)
            WireCodec.write(path, to: &output)
        }
        if let superseded {
            object.key("superseded", to: &output)
            JSONValue.writeQuoted(superseded, to: &output)
        }
        object.end(&output)
    }
}

extension SubscribeResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        JSONValue.append(#"{"seq":"#, to: &output)
        JSONValue.writeInteger(Int(seq), to: &output)
        output.append(UInt8(ascii: "}"))
    }
}

extension SceneObject: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("id", to: &output)
        JSONValue.writeQuoted(id, to: &output)
        object.key("instances", to: &output)
        JSONValue.writeQuoted(instances, to: &output)
        object.key("kind", to: &output)
        JSONValue.writeQuoted(kind, to: &output)
        if let max {
            object.key("max", to: &output)
            JSONValue.writeInteger(max, to: &output)
        }
        object.key("restore", to: &output)
        JSONValue.append(restore ? "true" : "false", to: &output)
        if let size {
            object.key("size", to: &output)
            JSONValue.array(size.map(JSONValue.double)).write(to: &output)
        }
        if let style {
            object.key("style", to: &output)
            JSONValue.writeQuoted(style, to: &output)
        }
        object.end(&output)
    }
}

extension StateResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("app", to: &output)
        JSONValue.writeQuoted(app, to: &output)
        object.key("focused", to: &output)
        WireCodec.write(focused, to: &output)
        object.key("immersive", to: &output)
        WireCodec.write(immersive, to: &output)
        object.key("instances", to: &output)
        output.append(UInt8(ascii: "["))
        for (index, instance) in instances.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            instance.write(to: &output)
        }
        output.append(UInt8(ascii: "]"))
        object.key("pendingLink", to: &output)
        WireCodec.write(pendingLink, to: &output)
        object.key("phase", to: &output)
        JSONValue.writeQuoted(phase, to: &output)
        object.key("scenes", to: &output)
        output.append(UInt8(ascii: "["))
        for (index, scene) in scenes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            scene.write(to: &output)
        }
        output.append(UInt8(ascii: "]"))
        object.key("seq", to: &output)
        JSONValue.writeInteger(Int(seq), to: &output)
        object.end(&output)
    }
}

extension EmptyResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        JSONValue.append("{}", to: &output)
    }
}
