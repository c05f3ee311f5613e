public import SceneCore
public import SceneFlow
public import SceneJSON

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

    /// Writes a placement as its JSON value does (`"utilityPanel"`, or
    /// `{"position", "relativeTo"}`), without building it.
    static func write(_ placement: WindowPlacement, to output: inout [UInt8]) {
        switch placement {
        case .utilityPanel:
            JSONValue.append(#""utilityPanel""#, to: &output)
        case .relative(let scene, let position):
            JSONValue.append(#"{"position":"#, to: &output)
            JSONValue.writeQuoted(position.rawValue, to: &output)
            JSONValue.append(#","relativeTo":"#, to: &output)
            JSONValue.writeQuoted(scene, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `text` as a string, or `null`.
    static func write(_ text: String?, to output: inout [UInt8]) {
        if let text { JSONValue.writeQuoted(text, to: &output) } else { JSONValue.append("null", to: &output) }
    }

    /// About how many bytes a path of `steps` steps writes: a step with a short route,
    /// `{"route":{"screen":"page"},"type":"push"}`, is 42.
    static func pathSizeEstimate(_ steps: Int) -> Int { 2 + 48 * steps }

    /// Writes a path, `[{"route", "type"}, …]`.
    public static func write(_ path: [RouteStep<JSONValue>], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, step) in path.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            write(step, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Writes one step of a path, `{"route", "type"}`.
    public static func write(_ step: RouteStep<JSONValue>, to output: inout [UInt8]) {
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

    /// Writes `info` as the instance object.
    public static func write(_ info: InstanceInfo<JSONValue>, to output: inout [UInt8]) {
        // Members in sorted order, as InstanceObject's encoder writes them.
        output.append(UInt8(ascii: "{"))
        if let size = info.geometry.defaultSize {
            // {"height", "width"}, as the JSON value of the size writes it.
            JSONValue.append(#""defaultSize":{"height":"#, to: &output)
            JSONValue.double(size.height).write(to: &output)
            JSONValue.append(#","width":"#, to: &output)
            JSONValue.double(size.width).write(to: &output)
            JSONValue.append("},", to: &output)
        }
        JSONValue.append(#""focused":"#, to: &output)
        JSONValue.append(info.focused ? "true" : "false", to: &output)
        JSONValue.append(#","id":"#, to: &output)
        write(info.id, to: &output)
        JSONValue.append(#","kind":"#, to: &output)
        JSONValue.writeQuoted(info.kind.name, to: &output)
        JSONValue.append(#","path":"#, to: &output)
        write(info.path, to: &output)
        JSONValue.append(#","phase":"#, to: &output)
        JSONValue.writeQuoted(info.phase.rawValue, to: &output)
        if let placement = info.geometry.placement {
            JSONValue.append(#","placement":"#, to: &output)
            write(placement, to: &output)
        }
        JSONValue.append(#","pushedFrom":"#, to: &output)
        write(info.pushedFrom, to: &output)
        JSONValue.append(#","queue":"#, to: &output)
        write(info.queue, to: &output)
        if let resizability = info.geometry.resizability {
            JSONValue.append(#","resizability":"#, to: &output)
            JSONValue.writeQuoted(resizability.rawValue, to: &output)
        }
        JSONValue.append(#","scene":"#, to: &output)
        JSONValue.writeQuoted(info.scene, to: &output)
        if let style = info.style {
            JSONValue.append(#","style":"#, to: &output)
            JSONValue.writeQuoted(style.rawValue, to: &output)
        }
        JSONValue.append(#","value":"#, to: &output)
        (info.value ?? .null).write(to: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Writes a registry's state as the `state` result.
    public static func write(_ state: RegistryState<JSONValue>, to output: inout [UInt8]) {
        for index in 0..<state.sliceCount { state.writeSlice(index, to: &output) }
    }
}

/// An ``OpenResult`` (with an outcome) or an ``InstanceResult`` (without) written straight
/// from the registry's own description of the instance: the same text, with no
/// ``InstanceObject`` made on the way. What a coordinator answers `scene.open`,
/// `scene.push`, `scene.focus` and the like with.
public struct InstanceInfoResult: WireWritable {
    /// The instance.
    public var info: InstanceInfo<JSONValue>
    /// `opened` or `focused` for `scene.open`; nil for the results that carry none.
    public var outcome: OutcomeName?

    /// The result for `info`, with `outcome` when the method's result has one.
    public init(_ info: InstanceInfo<JSONValue>, outcome: OutcomeName? = nil) {
        self.info = info
        self.outcome = outcome
    }

    /// About 220 bytes with an empty path, and a step about 48.
    public var writtenSizeEstimate: Int { 256 + WireCodec.pathSizeEstimate(info.path.count + info.queue.count) }

    public func write(to output: inout [UInt8]) {
        JSONValue.append(#"{"instance":"#, to: &output)
        WireCodec.write(info, to: &output)
        if let outcome {
            JSONValue.append(#","outcome":"#, to: &output)
            JSONValue.writeQuoted(outcome.rawValue, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
