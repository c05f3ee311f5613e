public import SceneCore
public import SceneFlow
public import SceneJSON

/// The instance object: `{"id", "scene", "kind", "value", "phase", "focused", "path",
/// "queue", "pushedFrom"}`, with `value` and `pushedFrom` null when absent.
public struct InstanceObject: Codable, Hashable, Sendable {
    /// The instance id, `<scene>-<n>` (wire member `id`).
    public var id: String
    /// The id of the declared scene it is an instance of.
    public var scene: String
    /// The scene's kind: `window`, `volume` or `immersive`.
    public var kind: String
    /// The value it was opened with; `.null` when none (the member is always written).
    public var value: JSONValue
    /// Where it is in its life: `opening`, `active`, `inactive`, `background`,
    /// `disconnected` or `closed`.
    public var phase: String
    /// Whether it is the focused window or volume.
    public var focused: Bool
    /// Its visible navigation path, from the root; queued modals are not part of it.
    public var path: [RouteStep<JSONValue>]
    /// The id of the window it was pushed from; nil (written `null`) when it was not pushed.
    public var pushedFrom: String?
    /// The sheets and covers queued behind the visible one, next first (empty when none).
    public var queue: [RouteStep<JSONValue>]
    /// A window's default size, `{width, height}` in points, when its scene declares one.
    public var defaultSize: WindowSize?
    /// `automatic`, `contentSize` or `contentMinSize`, when its scene declares it.
    public var resizability: String?
    /// `"utilityPanel"` or `{relativeTo, position}`, when its scene declares it.
    public var placement: JSONValue?
    /// An immersive space's style now: `mixed`, `progressive` or `full`; nil otherwise.
    public var style: String?

    /// The wire form of the registry's `info`.
    public init(_ info: InstanceInfo<JSONValue>) {
        id = info.id.description
        scene = info.scene
        kind = info.kind.name
        value = info.value ?? .null
        phase = info.phase.rawValue
        focused = info.focused
        path = info.path
        pushedFrom = info.pushedFrom?.description
        queue = info.queue
        defaultSize = info.geometry.defaultSize
        resizability = info.geometry.resizability?.rawValue
        placement = info.geometry.placement?.json
        style = info.style?.rawValue
    }

    private enum CodingKeys: String, CodingKey {
        case id, scene, kind, value, phase, focused, path, pushedFrom, queue, defaultSize, resizability, placement, style
    }

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
        queue = try container.decodeIfPresent([RouteStep<JSONValue>].self, forKey: .queue) ?? []
        defaultSize = try container.decodeIfPresent(WindowSize.self, forKey: .defaultSize)
        resizability = try container.decodeIfPresent(String.self, forKey: .resizability)
        placement = try container.decodeIfPresent(JSONValue.self, forKey: .placement)
        style = try container.decodeIfPresent(String.self, forKey: .style)
    }
}

/// `hello` {protocol: [versions], role, client, token?}.
public struct HelloParams: Codable, Hashable, Sendable {
    /// The versions the client speaks (wire member `protocol`); without `1` the answer is
    /// `unsupported_protocol` and the connection closes.
    public var `protocol`: [Int]
    /// `control`, or `scene` for a process the coordinator spawned (see ``WireRole``);
    /// another role is `unsupported_role`.
    public var role: String
    /// The client's name, for the coordinator's logs.
    public var client: String
    /// For role `scene` (else `bad_token`; ignored for `control`): the single-use
    /// `SCENE_TOKEN` a spawned scene process was started with, or an attach token
    /// (`token.issue`, or the `reattach` of an earlier hello).
    public var token: String?

    /// Params for `hello`, offering version 1 unless `protocol` says otherwise.
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
    /// The version the connection speaks from now on (wire member `protocol`).
    public var `protocol`: Int
    /// The coordinator's configured server name, such as `scenectl/0.1.0`.
    public var server: String
    /// The name of this connection, `session-<n>`.
    public var session: String
    /// For a scene connection, the instance it acts for, with its path (after a restart,
    /// the path the instance had); nil, and left out, for a control connection.
    public var instance: InstanceObject?
    /// For a process that attached with a token: a re-attach token, good for one `hello`
    /// that takes this instance back (with its path) after the connection drops.
    public var reattach: String?

    /// The `hello` result, with `instance` only for a scene connection.
    public init(protocol version: Int, server: String, session: String, instance: InstanceObject? = nil, reattach: String? = nil) {
        self.protocol = version
        self.server = server
        self.session = session
        self.instance = instance
        self.reattach = reattach
    }
}

/// `scene.open` {scene, value?}.
public struct OpenParams: Codable, Hashable, Sendable {
    /// The id of the declared scene to open.
    public var scene: String
    /// The value to open it with; `null` counts as absent, and a `perValue` scene needs one.
    public var value: JSONValue?
    /// Params for `scene.open`, with no value unless one is given.
    public init(scene: String, value: JSONValue? = nil) {
        self.scene = scene
        self.value = value
    }
}

/// The `scene.open` result: {instance, outcome: "opened" | "focused"}.
public struct OpenResult: Codable, Hashable, Sendable {
    /// The instance opened, or the one the scene's policy reused.
    public var instance: InstanceObject
    /// `opened` for a new instance, `focused` for a reused one (it is brought to the front).
    public var outcome: OutcomeName
    /// The `scene.open` result, with every member given.
    public init(instance: InstanceObject, outcome: OutcomeName) {
        self.instance = instance
        self.outcome = outcome
    }
}

/// `scene.push` {scene, value?, from}.
public struct PushParams: Codable, Hashable, Sendable {
    /// The window scene to open in `from`'s place; another kind is `not_a_window`.
    public var scene: String
    /// The value to open it with; nil when none.
    public var value: JSONValue?
    /// The open window to push from: it goes `background` until the pushed window is
    /// dismissed.
    public var from: String
    /// Params for `scene.push`, with no value unless one is given.
    public init(scene: String, value: JSONValue? = nil, from: String) {
        self.scene = scene
        self.value = value
        self.from = from
    }
}

/// A result that is one instance: {instance}.
public struct InstanceResult: Codable, Hashable, Sendable {
    /// The instance as it is after the request (`scene.push`, `scene.focus`, `scene.phase`).
    public var instance: InstanceObject
    /// The result holding `instance`.
    public init(instance: InstanceObject) { self.instance = instance }
}

/// `scene.dismiss` {instance} or {scene, value?}, with `force` (default false: the
/// instances are asked to close, and may refuse).
public struct DismissParams: Codable, Hashable, Sendable {
    /// The instance to dismiss, with the windows pushed from it; nil in the scene form.
    public var instance: String?
    /// The scene whose instances to dismiss; nil in the instance form (giving both, or
    /// neither, is -32602).
    public var scene: String?
    /// In the scene form, dismisses only the instances opened with this value.
    public var value: JSONValue?
    /// Whether to dismiss without asking the scenes first (`scene.close`); false when nil,
    /// except for a scene connection dismissing itself, where it is true.
    public var force: Bool?
    /// Params for the instance form of `scene.dismiss`.
    public init(instance: String, force: Bool? = nil) {
        self.instance = instance
        self.force = force
    }
    /// Params for the scene form of `scene.dismiss`: every instance of `scene`, or those
    /// opened with `value`.
    public init(scene: String, value: JSONValue? = nil, force: Bool? = nil) {
        self.scene = scene
        self.value = value
        self.force = force
    }
}

/// A result listing dismissed instances: {dismissed: [ids]}, and for a `{scene}` dismiss
/// also {vetoed: [ids]}, the instances that refused to close.
public struct DismissResult: Codable, Hashable, Sendable {
    /// The ids dismissed: pushed windows before the window they were pushed from; in the
    /// scene form, by number.
    public var dismissed: [String]
    /// For a scene-form `scene.dismiss`, the instances that refused to close; nil (left
    /// out) otherwise.
    public var vetoed: [String]?
    /// A dismissal result, with `vetoed` only for the scene form.
    public init(dismissed: [String], vetoed: [String]? = nil) {
        self.dismissed = dismissed
        self.vetoed = vetoed
    }
}

/// `scene.focus` {instance}.
public struct FocusParams: Codable, Hashable, Sendable {
    /// The window or volume to focus (an immersive space is `not_focusable`).
    public var instance: String
    /// Params for `scene.focus`.
    public init(instance: String) { self.instance = instance }
}

/// `scene.route` {from, route}.
public struct RouteParams: Codable, Hashable, Sendable {
    /// The instance asking, where the route's responder chain starts.
    public var from: String
    /// The route to show: any JSON, `null` included.
    public var route: JSONValue
    /// Params for `scene.route`, with every member given.
    public init(from: String, route: JSONValue) {
        self.from = from
        self.route = route
    }
}

/// `link.open` {url}.
public struct LinkOpenParams: Codable, Hashable, Sendable {
    /// The deep link, checked against the input limits, the origin allowlists and every
    /// scene's link patterns.
    public var url: String
    /// Params for `link.open`.
    public init(url: String) { self.url = url }
}

/// The `link.open` result: {outcome: "handled" | "pending", instance?, opened?, path?,
/// superseded?}.
public struct LinkOpenResult: Codable, Hashable, Sendable {
    /// `handled` when the link landed, `pending` when it waits for `auth.set`.
    public var outcome: OutcomeName
    /// Where a handled link landed (focused); nil (left out) when pending.
    public var instance: InstanceObject?
    /// For a handled link, whether a new instance was opened for it; nil when pending.
    public var opened: Bool?
    /// For a handled link, the landing instance's path (the mapping's plan, if it has one);
    /// nil when pending.
    public var path: [RouteStep<JSONValue>]?
    /// For a pending link, the pending URL it replaced; nil (left out) otherwise.
    public var superseded: String?
    /// For a link whose mapping runs a program, what its steps did (then `instance`,
    /// `opened` and `path` are left out).
    public var program: ProgramResult?
    /// The `link.open` result, with `path` taken from `instance`.
    public init(
        outcome: OutcomeName, instance: InstanceObject? = nil, opened: Bool? = nil, superseded: String? = nil,
        program: ProgramResult? = nil
    ) {
        self.outcome = outcome
        self.instance = instance
        self.opened = opened
        self.path = instance?.path
        self.superseded = superseded
        self.program = program
    }
}

/// `auth.set` {authenticated}.
public struct AuthSetParams: Codable, Hashable, Sendable {
    /// Whether the user is signed in; turning it on replays a pending link.
    public var authenticated: Bool
    /// Params for `auth.set`.
    public init(authenticated: Bool) { self.authenticated = authenticated }
}

/// One declared scene in `state`: {id, kind, instances, max?, size?, style?, restore}.
public struct SceneObject: Codable, Hashable, Sendable {
    /// The scene id.
    public var id: String
    /// `window`, `volume` or `immersive`.
    public var kind: String
    /// The instance policy: `single`, `perValue` or `multiple`.
    public var instances: String
    /// A `multiple` scene's maximum; nil (left out) when it has none.
    public var max: Int?
    /// A volume's `[width, height, depth]`, in metres; nil (left out) for other kinds.
    public var size: [Double]?
    /// An immersive space's style, `mixed`, `progressive` or `full`; nil (left out) for
    /// other kinds.
    public var style: String?
    /// Whether a registry restore brings its instances back.
    public var restore: Bool

    /// The `state` entry for a declared scene.
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
    /// The manifest's app name.
    public var app: String
    /// The declared scenes, in declaration order.
    public var scenes: [SceneObject]
    /// Every instance, `opening` ones included, sorted by scene id, then number.
    public var instances: [InstanceObject]
    /// The focused instance's id; nil, written `null`, when none.
    public var focused: String?
    /// The open immersive space's id; nil, written `null`, when none.
    public var immersive: String?
    /// The link waiting for `auth.set`; nil, written `null`, when none.
    public var pendingLink: String?
    /// The app's phase: `active` when any instance is, else `inactive` when any is, else
    /// `background`.
    public var phase: String
    /// The number of the last event when the state was taken.
    public var seq: UInt64

    /// The `state` result for a state the registry took.
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

/// `state` {}: nothing to give.
public struct StateParams: Codable, Hashable, Sendable {
    /// Params for `state`.
    public init() {}
}

/// Params with nothing in them: {} (`ping`, `unsubscribe`, `session.list`,
/// `coordinator.shutdown`).
public typealias EmptyParams = EmptyResult

/// A result with nothing in it: {}.
public struct EmptyResult: Codable, Hashable, Sendable {
    /// The empty result, `{}`.
    public init() {}
}
