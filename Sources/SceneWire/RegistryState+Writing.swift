public import SceneCore
public import SceneJSON

/// The parts of a `state` result, and the instances a slice at a time.
private struct StateWriting {
    let app: String
    let focused: InstanceID?
    let immersive: InstanceID?
    let pendingLink: String?
    let phase: ScenePhase
    /// The `scenes` array, written (asked for by the last slice only).
    let scenes: () -> [UInt8]
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
            JSONValue.append(#","scenes":"#, to: &output)
            output.append(contentsOf: scenes())
            JSONValue.append(#","seq":"#, to: &output)
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

extension RegistryState: WireWritableInSlices, WireWritable where R == JSONValue {
    private var writing: StateWriting {
        StateWriting(
            app: app, focused: focused, immersive: immersive, pendingLink: pendingLink, phase: phase,
            scenes: { StateWriting.written(self.scenes) }, seq: seq, count: instances.count,
            instances: { Array(self.instances[$0]) })
    }

    public var sliceCount: Int { writing.sliceCount }

    public var writtenSizeEstimate: Int { StateWriting.sizeEstimate(instances: instances.count, scenes: scenes.count) }

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
            app: app, focused: focused, immersive: immersive, pendingLink: pendingLink, phase: phase,
            scenes: { self.scenes(writtenBy: StateWriting.written) }, seq: seq, count: count,
            instances: { self.instances($0) })
    }

    public var sliceCount: Int { writing.sliceCount }

    public var writtenSizeEstimate: Int { StateWriting.sizeEstimate(instances: count, scenes: scenes.count) }

    /// Writes the `state` result; each slice of instances is made as it is written.
    public func write(to output: inout [UInt8]) {
        let writing = self.writing
        for index in 0..<writing.sliceCount { writing.writeSlice(index, to: &output) }
    }

    public func writeSlice(_ index: Int, to output: inout [UInt8]) {
        writing.writeSlice(index, to: &output)
    }
}
