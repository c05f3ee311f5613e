public import SceneFlow
public import SceneJSON

// The params and results of navigation across scenes: scene.route's result,
// scene.program, scene.present and scene.finish (Protocols/ has their shapes).

/// The `scene.route` result: {outcome: "presented" | "opened" | "focused", instance, path, via}.
public struct RouteResult: Codable, Hashable, Sendable {
    /// `presented` in `from` by a scope rule; by a claim, `opened` in a new instance or
    /// `focused` in an existing one.
    public var outcome: OutcomeName
    /// The instance the route landed in.
    public var instance: InstanceObject
    /// That instance's path, with the route shown (the same as `instance.path`).
    public var path: [RouteStep<JSONValue>]
    /// What was consulted, in order: instance ids for scopes (the asking instance, then
    /// each window it was pushed from), scene ids for claims.
    public var via: [String]
    /// The `scene.route` result, with `path` taken from `instance`.
    public init(outcome: OutcomeName, instance: InstanceObject, via: [String] = []) {
        self.outcome = outcome
        self.instance = instance
        self.path = instance.path
        self.via = via
    }

    private enum CodingKeys: String, CodingKey { case outcome, instance, path, via }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        outcome = try container.decode(OutcomeName.self, forKey: .outcome)
        instance = try container.decode(InstanceObject.self, forKey: .instance)
        path = try container.decode([RouteStep<JSONValue>].self, forKey: .path)
        via = try container.decodeIfPresent([String].self, forKey: .via) ?? []
    }
}

/// `scene.program` {steps: [{method, params}]}.
public struct ProgramParams: Codable, Hashable, Sendable {
    /// The steps, in order: each `{"method", "params"}` with the method's own params, where
    /// `"$k"` in a member naming an instance names the instance of step `k`'s result.
    public var steps: [JSONValue]
    /// Params for `scene.program`.
    public init(steps: [JSONValue]) { self.steps = steps }
}

/// The `scene.program` result: {completed, results}.
public struct ProgramResult: Codable, Hashable, Sendable {
    /// How many steps completed: all of them.
    public var completed: Int
    /// Each step's result, as its method answers it.
    public var results: [JSONValue]
    /// The result, with every member given.
    public init(completed: Int, results: [JSONValue]) {
        self.completed = completed
        self.results = results
    }
}

/// `scene.present` {scene, value?, from}.
public struct PresentParams: Codable, Hashable, Sendable {
    /// The scene to open (or focus, by its policy) and await.
    public var scene: String
    /// The value to open it with; nil when none.
    public var value: JSONValue?
    /// The instance it is presented from: dismissing it ends the wait `parent_dismissed`.
    public var from: String
    /// Params for `scene.present`.
    public init(scene: String, value: JSONValue? = nil, from: String) {
        self.scene = scene
        self.value = value
        self.from = from
    }
}

/// The `scene.present` result: {instance, result}.
public struct PresentResult: Codable, Hashable, Sendable {
    /// The presented instance as it was when it finished (it is dismissed right after).
    public var instance: InstanceObject
    /// What it finished with.
    public var result: JSONValue
    /// The result, with every member given.
    public init(instance: InstanceObject, result: JSONValue) {
        self.instance = instance
        self.result = result
    }
}

/// `scene.finish` {instance?, result}: a scene connection's own instance when `instance`
/// is left out; a control connection names it.
public struct FinishParams: Codable, Hashable, Sendable {
    /// The presented instance that finishes.
    public var instance: String?
    /// What it finishes with: any JSON.
    public var result: JSONValue
    /// Params for `scene.finish`.
    public init(instance: String? = nil, result: JSONValue) {
        self.instance = instance
        self.result = result
    }

    private enum CodingKeys: String, CodingKey { case instance, result }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        instance = try container.decodeIfPresent(String.self, forKey: .instance)
        // Present, even as null: a result is what the presenter is waiting for.
        guard container.contains(.result) else {
            throw DecodingError.keyNotFound(
                CodingKeys.result, DecodingError.Context(codingPath: [], debugDescription: "result: missing"))
        }
        result = try container.decode(JSONValue.self, forKey: .result)
    }
}

extension PresentResult: WireWritable {
    public func write(to output: inout [UInt8]) {
        ((try? JSONValue(encoding: self)) ?? .null).write(to: &output)
    }
}

/// `scene.reopen` {scene?}.
public struct ReopenParams: Codable, Hashable, Sendable {
    /// The scene whose most recently dismissed instance to reopen; any scene's when nil.
    public var scene: String?
    /// Params for `scene.reopen`.
    public init(scene: String? = nil) { self.scene = scene }
}

/// `immersive.style` {style}.
public struct ImmersiveStyleParams: Codable, Hashable, Sendable {
    /// `mixed`, `progressive` or `full`.
    public var style: String
    /// Params for `immersive.style`.
    public init(style: String) { self.style = style }
}

/// `immersive.dismiss` {}: nothing to give.
public struct ImmersiveDismissParams: Codable, Hashable, Sendable {
    /// Params for `immersive.dismiss`.
    public init() {}
}

/// The `auth.set` result: {replayed}, the result of the pending link it replayed (as
/// `link.open` answers it, or `{"error": …}`), null when none was pending.
public struct AuthSetResult: Decodable, Hashable, Sendable {
    /// What the replayed link answered; nil (null) when nothing was replayed.
    public var replayed: JSONValue?
}
