public import SceneCore
public import SceneJSON

/// `scene.emit` {instance?, signal, payload?}: a scene announces a signal.
public struct EmitParams: Codable, Hashable, Sendable {
    /// The emitting instance (a scene connection's own when left out).
    public var instance: String?
    /// The signal's name.
    public var signal: String
    /// What goes with it; `null` when left out.
    public var payload: JSONValue?

    /// Params for `scene.emit`.
    public init(instance: String? = nil, signal: String, payload: JSONValue? = nil) {
        self.instance = instance
        self.signal = signal
        self.payload = payload
    }
}

/// `scene.describe` {scene}.
public struct DescribeParams: Codable, Hashable, Sendable {
    /// The scene's id.
    public var scene: String
    /// Params for `scene.describe`.
    public init(scene: String) { self.scene = scene }
}

/// The `scene.describe` result: {interface, kind, instances, max, activatable}.
public struct DescribeResult: Codable, Hashable, Sendable {
    /// The scene's methods and signals (`{"methods": {…}, "signals": {…}}`); null when it
    /// declares none.
    public var interface: JSONValue
    /// `window`, `volume` or `immersive`.
    public var kind: String
    /// `single`, `perValue` or `multiple`, as the manifest says.
    public var instances: String
    /// The most instances it may have; null when unbounded.
    public var max: Int?
    /// Whether a call to it, with none of its instances open, opens one.
    public var activatable: Bool

    /// The result for `description`.
    public init(_ description: SceneDescription) {
        interface = description.interface?.json ?? .null
        kind = description.kind.name
        instances = description.instances.name
        max = description.max
        activatable = description.activatable
    }

    private enum CodingKeys: String, CodingKey { case interface, kind, instances, max, activatable }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(interface, forKey: .interface)
        try container.encode(kind, forKey: .kind)
        try container.encode(instances, forKey: .instances)
        // Always present: null says unbounded.
        if let max { try container.encode(max, forKey: .max) } else { try container.encodeNil(forKey: .max) }
        try container.encode(activatable, forKey: .activatable)
    }
}
