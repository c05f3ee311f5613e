import SceneJSON

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

extension InstanceObject: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        // Members in sorted order, as the protocol's examples show them; the geometry only
        // when declared.
        var object = ObjectWriter()
        if let defaultSize {
            object.key("defaultSize", to: &output)
            JSONValue.object(["height": .double(defaultSize.height), "width": .double(defaultSize.width)]).write(to: &output)
        }
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
        if let placement {
            object.key("placement", to: &output)
            placement.write(to: &output)
        }
        object.key("pushedFrom", to: &output)
        WireCodec.write(pushedFrom, to: &output)
        object.key("queue", to: &output)
        WireCodec.write(queue, to: &output)
        if let resizability {
            object.key("resizability", to: &output)
            JSONValue.writeQuoted(resizability, to: &output)
        }
        object.key("scene", to: &output)
        JSONValue.writeQuoted(scene, to: &output)
        if let style {
            object.key("style", to: &output)
            JSONValue.writeQuoted(style, to: &output)
        }
        object.key("value", to: &output)
        value.write(to: &output)
        object.end(&output)
    }
}

extension HelloResult: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        if let instance {
            object.key("instance", to: &output)
            instance.write(to: &output)
        }
        object.key("protocol", to: &output)
        JSONValue.writeInteger(self.protocol, to: &output)
        if let reattach {
            object.key("reattach", to: &output)
            JSONValue.writeQuoted(reattach, to: &output)
        }
        object.key("server", to: &output)
        JSONValue.writeQuoted(server, to: &output)
        object.key("session", to: &output)
        JSONValue.writeQuoted(session, to: &output)
        object.end(&output)
    }
}

extension OpenResult: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("instance", to: &output)
        instance.write(to: &output)
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.end(&output)
    }
}

extension InstanceResult: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("instance", to: &output)
        instance.write(to: &output)
        object.end(&output)
    }
}

extension DismissResult: WrittenMessage {
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

extension RouteResult: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("instance", to: &output)
        instance.write(to: &output)
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.key("via", to: &output)
        output.append(UInt8(ascii: "["))
        for (index, stop) in via.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.writeQuoted(stop, to: &output)
        }
        output.append(UInt8(ascii: "]"))
        object.end(&output)
    }
}

extension FlowSendResult: WrittenMessage {
    public var writtenSizeEstimate: Int { 32 + WireCodec.pathSizeEstimate(path.count) }

    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.end(&output)
    }
}

extension PathResult: WrittenMessage {
    public var writtenSizeEstimate: Int { 16 + WireCodec.pathSizeEstimate(path.count) }

    public func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("path", to: &output)
        WireCodec.write(path, to: &output)
        object.end(&output)
    }
}

extension BatchOutcome: WrittenMessage {
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

extension FlowBatchResultObject: WrittenMessage {
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

extension LinkOpenResult: WrittenMessage {
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
        if let program {
            object.key("program", to: &output)
            ((try? JSONValue(encoding: program)) ?? .null).write(to: &output)
        }
        if let superseded {
            object.key("superseded", to: &output)
            JSONValue.writeQuoted(superseded, to: &output)
        }
        object.end(&output)
    }
}

extension SubscribeResult: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        // Members in sorted order, as the encoder writes them.
        output.append(UInt8(ascii: "{"))
        if let origin {
            JSONValue.append(#""origin":"#, to: &output)
            JSONValue.writeQuoted(origin, to: &output)
            output.append(UInt8(ascii: ","))
        }
        JSONValue.append(#""seq":"#, to: &output)
        JSONValue.writeInteger(Int(seq), to: &output)
        output.append(UInt8(ascii: "}"))
    }
}

extension SceneObject: WrittenMessage {
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


extension EmptyResult: WrittenMessage {
    public func write(to output: inout [UInt8]) {
        JSONValue.append("{}", to: &output)
    }
}

extension ProgramResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        ((try? JSONValue(encoding: self)) ?? .null).write(to: &output)
    }
}
