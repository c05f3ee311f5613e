public import SceneCore
public import SceneFlow
public import SceneJSON

/// The instance object: `{"id", "scene", "kind", "value", "phase", "focused", "path",
/// "pushedFrom"}`, with `value` and `pushedFrom` null when absent.
public struct InstanceObject: Codable, Hashable, Sendable {
    public var id: String
    public var scene: String
    public var kind: String
    public var value: JSONValue
    public var phase: String
    public var focused: Bool
    public var path: [RouteStep<JSONValue>]
    public var pushedFrom: String?

    public init(_ info: InstanceInfo<JSONValue>) {
        id = info.id.description
        scene = info.scene
        kind = info.kind.name
        value = info.value ?? .null
        phase = info.phase.rawValue
        focused = info.focused
        path = info.path
        pushedFrom = info.pushedFrom?.description
    }

    private enum CodingKeys: String, CodingKey { case id, scene, kind, value, phase, focused, path, pushedFrom }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        scene = try container.decode(String.self, forKey: .scene)
        kind = try container.decode(String.self, forKey: .kind)
        value = try container.decodeIfPresent(JSONValue.self, forKey: .value) ?? .null
        phase = try container.decode(String.self, forKey: .phase)
        focused = try container.decode(Bool.self, forKey: .focused)
        path = try container.decode([RouteStep<JSONValue>].self, forKey: .path)
        pushedFrom = try container.decodeIfPresent(String.self, forKey: .pushedFrom)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(scene, forKey: .scene)
        try container.encode(kind, forKey: .kind)
        try container.encode(value, forKey: .value)
        try container.encode(phase, forKey: .phase)
        try container.encode(focused, forKey: .focused)
        try container.encode(path, forKey: .path)
        try container.encode(pushedFrom.map(JSONValue.string) ?? .null, forKey: .pushedFrom)
    }
}

/// `hello` {protocol: [versions], role, client, token?}.
public struct HelloParams: Codable, Hashable, Sendable {
    public var `protocol`: [Int]
    public var role: String
    public var client: String
    public var token: String?

    public init(protocol versions: [Int] = [1], role: String, client: String, token: String? = nil) {
        self.protocol = versions
        self.role = role
        self.client = client
        self.token = token
    }
}

/// The `hello` result: {protocol, server, session}, and for a scene connection
/// {instance}: the instance it acts for, with its path.
public struct HelloResult: Codable, Hashable, Sendable {
    public var `protocol`: Int
    public var server: String
    public var session: String
    public var instance: InstanceObject?

    public init(protocol version: Int, server: String, session: String, instance: InstanceObject? = nil) {
        self.protocol = version
        self.server = server
        self.session = session
        self.instance = instance
    }
}

/// `scene.open` {scene, value?}.
public struct OpenParams: Codable, Hashable, Sendable {
    public var scene: String
    public var value: JSONValue?
    public init(scene: String, value: JSONValue? = nil) {
        self.scene = scene
        self.value = value
    }
}

/// The `scene.open` result: {instance, outcome: "opened" | "focused"}.
public struct OpenResult: Codable, Hashable, Sendable {
    public var instance: InstanceObject
    public var outcome: String
    public init(instance: InstanceObject, outcome: String) {
        self.instance = instance
        self.outcome = outcome
    }
}

/// `scene.push` {scene, value?, from}.
public struct PushParams: Codable, Hashable, Sendable {
    public var scene: String
    public var value: JSONValue?
    public var from: String
    public init(scene: String, value: JSONValue? = nil, from: String) {
        self.scene = scene
        self.value = value
        self.from = from
    }
}

/// A result that is one instance: {instance}.
public struct InstanceResult: Codable, Hashable, Sendable {
    public var instance: InstanceObject
    public init(instance: InstanceObject) { self.instance = instance }
}

/// `scene.dismiss` {instance} or {scene, value?}, with `force` (default false: the
/// instances are asked to close, and may refuse).
public struct DismissParams: Codable, Hashable, Sendable {
    public var instance: String?
    public var scene: String?
    public var value: JSONValue?
    public var force: Bool?
    public init(instance: String, force: Bool? = nil) {
        self.instance = instance
        self.force = force
    }
    public init(scene: String, value: JSONValue? = nil, force: Bool? = nil) {
        self.scene = scene
        self.value = value
        self.force = force
    }
}

/// A result listing dismissed instances: {dismissed: [ids]}, and for a `{scene}` dismiss
/// also {vetoed: [ids]}, the instances that refused to close.
public struct DismissResult: Codable, Hashable, Sendable {
    public var dismissed: [String]
    public var vetoed: [String]?
    public init(dismissed: [String], vetoed: [String]? = nil) {
        self.dismissed = dismissed
        self.vetoed = vetoed
    }
}

/// `scene.focus` {instance}.
public struct FocusParams: Codable, Hashable, Sendable {
    public var instance: String
    public init(instance: String) { self.instance = instance }
}

/// `scene.route` {from, route}.
public struct RouteParams: Codable, Hashable, Sendable {
    public var from: String
    public var route: JSONValue
    public init(from: String, route: JSONValue) {
        self.from = from
        self.route = route
    }
}

/// The `scene.route` result: {outcome: "presented" | "opened" | "focused", instance, path}.
public struct RouteResult: Codable, Hashable, Sendable {
    public var outcome: String
    public var instance: InstanceObject
    public var path: [RouteStep<JSONValue>]
    public init(outcome: String, instance: InstanceObject) {
        self.outcome = outcome
        self.instance = instance
        self.path = instance.path
    }
}

/// `flow.send` {instance, intent}.
public struct FlowSendParams: Codable, Hashable, Sendable {
    public var instance: String
    public var intent: FlowIntent<JSONValue>
    public init(instance: String, intent: FlowIntent<JSONValue>) {
        self.instance = instance
        self.intent = intent
    }
}

/// The `flow.send` result: {outcome: "changed" | "queued" | "unchanged", path}.
public struct FlowSendResult: Codable, Hashable, Sendable {
    public var outcome: String
    public var path: [RouteStep<JSONValue>]
    public init(outcome: String, path: [RouteStep<JSONValue>]) {
        self.outcome = outcome
        self.path = path
    }
}

/// `flow.apply` {instance, plan}.
public struct FlowApplyParams: Codable, Hashable, Sendable {
    public var instance: String
    public var plan: FlowPlan<JSONValue>
    public init(instance: String, plan: FlowPlan<JSONValue>) {
        self.instance = instance
        self.plan = plan
    }
}

/// A result that is a path: {path}.
public struct PathResult: Codable, Hashable, Sendable {
    public var path: [RouteStep<JSONValue>]
    public init(path: [RouteStep<JSONValue>]) { self.path = path }
}

/// `flow.batch` {instance, intents, stopOnFailure?}.
public struct FlowBatchParams: Codable, Hashable, Sendable {
    public var instance: String
    public var intents: [FlowIntent<JSONValue>]
    public var stopOnFailure: Bool?
    public init(instance: String, intents: [FlowIntent<JSONValue>], stopOnFailure: Bool? = nil) {
        self.instance = instance
        self.intents = intents
        self.stopOnFailure = stopOnFailure
    }
}

/// One intent's outcome in a batch: {outcome, error?} — `error` is the JSON-RPC error
/// object a rejected intent would have been answered with.
public struct BatchOutcome: Codable, Hashable, Sendable {
    public var outcome: String
    public var error: JSONValue?
    public init(outcome: String, error: JSONValue? = nil) {
        self.outcome = outcome
        self.error = error
    }
}

/// The `flow.batch` result: {outcomes, path}.
public struct FlowBatchResultObject: Codable, Hashable, Sendable {
    public var outcomes: [BatchOutcome]
    public var path: [RouteStep<JSONValue>]
    public init(outcomes: [BatchOutcome], path: [RouteStep<JSONValue>]) {
        self.outcomes = outcomes
        self.path = path
    }
}

/// `flow.transaction` {instance, intents}.
public struct FlowTransactionParams: Codable, Hashable, Sendable {
    public var instance: String
    public var intents: [FlowIntent<JSONValue>]
    public init(instance: String, intents: [FlowIntent<JSONValue>]) {
        self.instance = instance
        self.intents = intents
    }
}

/// `link.open` {url}.
public struct LinkOpenParams: Codable, Hashable, Sendable {
    public var url: String
    public init(url: String) { self.url = url }
}

/// The `link.open` result: {outcome: "handled" | "pending", instance?, opened?, path?,
/// superseded?}.
public struct LinkOpenResult: Codable, Hashable, Sendable {
    public var outcome: String
    public var instance: InstanceObject?
    public var opened: Bool?
    public var path: [RouteStep<JSONValue>]?
    public var superseded: String?
    public init(
        outcome: String, instance: InstanceObject? = nil, opened: Bool? = nil, superseded: String? = nil
    ) {
        self.outcome = outcome
        self.instance = instance
        self.opened = opened
        self.path = instance?.path
        self.superseded = superseded
    }
}

/// `auth.set` {authenticated}.
public struct AuthSetParams: Codable, Hashable, Sendable {
    public var authenticated: Bool
    public init(authenticated: Bool) { self.authenticated = authenticated }
}

/// `subscribe` {topics?}.
public struct SubscribeParams: Codable, Hashable, Sendable {
    public var topics: [String]?
    public init(topics: [String]? = nil) { self.topics = topics }
}

/// The `subscribe` result: {seq}, the number of the last event before the subscription.
public struct SubscribeResult: Codable, Hashable, Sendable {
    public var seq: UInt64
    public init(seq: UInt64) { self.seq = seq }
}

/// One declared scene in `state`: {id, kind, instances, max?, size?, style?, restore}.
public struct SceneObject: Codable, Hashable, Sendable {
    public var id: String
    public var kind: String
    public var instances: String
    public var max: Int?
    public var size: [Double]?
    public var style: String?
    public var restore: Bool

    public init(_ scene: RegistryState<JSONValue>.Scene) {
        id = scene.id
        kind = scene.kind.name
        instances = scene.instances.name
        if case .multiple(let limit) = scene.instances { max = limit }
        switch scene.kind {
        case .volume(let size): self.size = [size.width, size.height, size.depth]
        case .immersive(let style): self.style = style.rawValue
        case .window: break
        }
        restore = scene.restore
    }
}

/// The `state` result: {app, scenes, instances, focused, immersive, pendingLink, phase, seq}.
public struct StateResult: Codable, Hashable, Sendable {
    public var app: String
    public var scenes: [SceneObject]
    public var instances: [InstanceObject]
    public var focused: String?
    public var immersive: String?
    public var pendingLink: String?
    public var phase: String
    public var seq: UInt64

    public init(_ state: RegistryState<JSONValue>) {
        app = state.app
        scenes = state.scenes.map(SceneObject.init)
        instances = state.instances.map(InstanceObject.init)
        focused = state.focused?.description
        immersive = state.immersive?.description
        pendingLink = state.pendingLink
        phase = state.phase.rawValue
        seq = state.seq
    }

    private enum CodingKeys: String, CodingKey {
        case app, scenes, instances, focused, immersive, pendingLink, phase, seq
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(app, forKey: .app)
        try container.encode(scenes, forKey: .scenes)
        try container.encode(instances, forKey: .instances)
        // The contract writes these as null when absent.
        try container.encode(focused.map(JSONValue.string) ?? .null, forKey: .focused)
        try container.encode(immersive.map(JSONValue.string) ?? .null, forKey: .immersive)
        try container.encode(pendingLink.map(JSONValue.string) ?? .null, forKey: .pendingLink)
        try container.encode(phase, forKey: .phase)
        try container.encode(seq, forKey: .seq)
    }
}

/// A result with nothing in it: {}.
public struct EmptyResult: Codable, Hashable, Sendable {
    public init() {}
}
