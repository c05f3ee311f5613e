public import SceneCore
public import SceneJSON

/// What a `state` result is written from: a registry's state, or a capture of it whose
/// instances are made as they are written.
private protocol StateSource {
    var app: String { get }
    var focused: InstanceID? { get }
    var immersive: InstanceID? { get }
    var pendingLink: String? { get }
    var phase: ScenePhase { get }
    var seq: UInt64 { get }
    /// How many instances it has.
    var instanceCount: Int { get }
    /// The `scenes` array, written (asked for by the last slice only).
    func writtenScenes() -> [UInt8]
    /// The instances at a range of the id order.
    func instances(in range: Range<Int>) -> [InstanceInfo<JSONValue>]
}

/// The parts of a `state` result, and the instances a slice at a time: generic over its
/// source rather than holding closures over it, so that writing one allocates nothing of
/// its own.
private struct StateWriting<Source: StateSource> {
    let source: Source

    /// How many instances one slice writes.
    static var instancesPerSlice: Int { 2_000 }

    /// The members before the instances, the instances a slice at a time, then the rest.
    static func sliceCount(instances count: Int) -> Int { 2 + (count + instancesPerSlice - 1) / instancesPerSlice }

    var sliceCount: Int { Self.sliceCount(instances: source.instanceCount) }

    func writeSlice(_ index: Int, to output: inout [UInt8]) {
        if index == 0 {
            JSONValue.append(#"{"app":"#, to: &output)
            JSONValue.writeQuoted(source.app, to: &output)
            JSONValue.append(#","focused":"#, to: &output)
            WireCodec.write(source.focused, to: &output)
            JSONValue.append(#","immersive":"#, to: &output)
            WireCodec.write(source.immersive, to: &output)
            JSONValue.append(#","instances":["#, to: &output)
        } else if index == sliceCount - 1 {
            JSONValue.append(#"],"pendingLink":"#, to: &output)
            WireCodec.write(source.pendingLink, to: &output)
            JSONValue.append(#","phase":"#, to: &output)
            JSONValue.writeQuoted(source.phase.rawValue, to: &output)
            JSONValue.append(#","scenes":"#, to: &output)
            output.append(contentsOf: source.writtenScenes())
            JSONValue.append(#","seq":"#, to: &output)
            JSONValue.writeInteger(Int(source.seq), to: &output)
            output.append(UInt8(ascii: "}"))
        } else {
            let start = (index - 1) * Self.instancesPerSlice
            let end = min(start + Self.instancesPerSlice, source.instanceCount)
            for (offset, info) in source.instances(in: start..<end).enumerated() {
                if start + offset > 0 { output.append(UInt8(ascii: ",")) }
                WireCodec.write(info, to: &output)
            }
        }
    }
}

/// The text of a `state` result that does not depend on where it is written from.
private enum StateText {
    /// About how long a `state` result is (an instance with an empty path writes about
    /// 200 bytes, a declared scene about 80).
    static func sizeEstimate(instances: Int, scenes: Int) -> Int {
        160 + 256 * instances + 96 * scenes
    }

    /// The declared scenes as the `scenes` array of a `state` result.
    static func written(_ scenes: [RegistryState<JSONValue>.Scene]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "[")]
        for (number, scene) in scenes.enumerated() {
            if number > 0 { output.append(UInt8(ascii: ",")) }
            SceneObject(scene).write(to: &output)
        }
        output.append(UInt8(ascii: "]"))
        return output
    }
}

extension RegistryState: StateSource where R == JSONValue {
    var instanceCount: Int { instances.count }
    func writtenScenes() -> [UInt8] { StateText.written(scenes) }
    func instances(in range: Range<Int>) -> [InstanceInfo<JSONValue>] { Array(instances[range]) }
}

extension RegistryState: WireWritableInSlices, WireWritable where R == JSONValue {
    public var sliceCount: Int { StateWriting<Self>.sliceCount(instances: instances.count) }

    public var writtenSizeEstimate: Int { StateText.sizeEstimate(instances: instances.count, scenes: scenes.count) }

    /// Writes the `state` result, straight from the registry's state.
    public func write(to output: inout [UInt8]) {
        WireCodec.write(self, to: &output)
    }

    public func writeSlice(_ index: Int, to output: inout [UInt8]) {
        StateWriting(source: self).writeSlice(index, to: &output)
    }
}

extension RegistryStateCapture: StateSource where R == JSONValue {
    var instanceCount: Int { count }
    func writtenScenes() -> [UInt8] { scenes(writtenBy: StateText.written) }
    func instances(in range: Range<Int>) -> [InstanceInfo<JSONValue>] { instances(range) }
}

extension RegistryStateCapture: WireWritableInSlices, WireWritable where R == JSONValue {
    public var sliceCount: Int { StateWriting<Self>.sliceCount(instances: count) }

    public var writtenSizeEstimate: Int { StateText.sizeEstimate(instances: count, scenes: scenes.count) }

    /// Writes the `state` result; each slice of instances is made as it is written.
    public func write(to output: inout [UInt8]) {
        let writing = StateWriting(source: self)
        for index in 0..<writing.sliceCount { writing.writeSlice(index, to: &output) }
    }

    public func writeSlice(_ index: Int, to output: inout [UInt8]) {
        StateWriting(source: self).writeSlice(index, to: &output)
    }
}
