public import SceneFlow
public import SceneJSON
public import SceneLinks

/// What a scene is: a window, a volume with a size, or an immersive space with a style.
public enum SceneKind: Hashable, Sendable {
    /// A flat window.
    case window
    /// A bounded 3D volume, with its size in metres (width, height, depth).
    case volume(size: VolumeSize)
    /// An immersive space; at most one is open in the whole app.
    case immersive(style: ImmersionStyle)

    /// `window`, `volume` or `immersive`.
    public var name: String {
        switch self {
        case .window: return "window"
        case .volume: return "volume"
        case .immersive: return "immersive"
        }
    }

    /// Whether instances take part in focus (windows and volumes do).
    public var isFocusable: Bool {
        if case .immersive = self { return false }
        return true
    }

    /// Whether this is a window.
    public var isWindow: Bool { self == .window }

    /// Whether this is an immersive space.
    public var isImmersive: Bool {
        if case .immersive = self { return true }
        return false
    }
}

/// A volume's size in metres.
public struct VolumeSize: Hashable, Sendable, Codable {
    /// The width, in metres.
    public var width: Double
    /// The height, in metres.
    public var height: Double
    /// The depth, in metres.
    public var depth: Double

    /// Creates a size from its three dimensions, in metres.
    public init(width: Double, height: Double, depth: Double) {
        self.width = width
        self.height = height
        self.depth = depth
    }
}

/// How much an immersive space replaces the surroundings.
public enum ImmersionStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// `mixed` blends the space with the surroundings, `progressive` replaces part of
    /// them, `full` replaces them entirely (the manifest's `style`; `mixed` by default).
    case mixed, progressive, full
}

/// How many instances a scene may have.
public enum InstancePolicy: Hashable, Sendable {
    /// One instance; opening it again focuses it and ignores the new value.
    case single
    /// One instance per distinct value; opening an open value focuses it.
    case perValue
    /// A new instance each time, up to `max` when given.
    case multiple(max: Int?)

    /// `single`, `perValue` or `multiple`.
    public var name: String {
        switch self {
        case .single: return "single"
        case .perValue: return "perValue"
        case .multiple: return "multiple"
        }
    }
}

/// Decides whether a route matches a rule.
///
/// For manifest routes (`JSONValue`) a `when` object matches a route when every key it
/// names is present in the route with an equal value, recursively; `{}` matches all.
public struct RoutePredicate<R: Route>: Sendable {
    private let test: @Sendable (R) -> Bool
    /// The `when` object a manifest wrote, if the predicate came from one.
    public let when: JSONValue?

    /// A predicate from a closure.
    public init(_ test: @escaping @Sendable (R) -> Bool) {
        self.test = test
        self.when = nil
    }

    /// Whether `route` matches.
    public func matches(_ route: R) -> Bool { test(route) }

    /// The predicate that matches every route.
    public static var always: RoutePredicate { RoutePredicate { _ in true } }
}

extension RoutePredicate where R == JSONValue {
    /// Matches routes that contain `when` (see `JSONValue.contains(_:)`).
    public init(when: JSONValue) {
        self.test = { $0.contains(when) }
        self.when = when
    }
}

/// What a scope rule decides for a route that matches it.
public enum ScopeAction: Hashable, Sendable {
    /// Present the route in this instance as a push, sheet or cover.
    case present(RouteStepKind)
    /// Refuse the route with this reason (reported as `route_rejected`).
    case reject(String)
    /// Pass the route to the registry.
    case pass

    /// A decision as `scene.decide` answers it: `{"decision": "present", "style": "push" |
    /// "sheet" | "cover"}`, `{"decision": "pass"}` or `{"decision": "reject", "reason": …}`;
    /// nil for anything else (then the scope rules decide).
    public init?(decision json: JSONValue) {
        switch json["decision"]?.stringValue {
        case "present":
            guard let style = json["style"]?.stringValue.flatMap(RouteStepKind.init(rawValue:)) else { return nil }
            self = .present(style)
        case "pass":
            self = .pass
        case "reject":
            guard let reason = json["reason"]?.stringValue, !reason.isEmpty else { return nil }
            self = .reject(reason)
        default:
            return nil
        }
    }

    /// The decision as `scene.decide` answers it.
    public var decisionJSON: JSONValue {
        switch self {
        case .present(let kind): return ["decision": "present", "style": .string(kind.rawValue)]
        case .pass: return ["decision": "pass"]
        case .reject(let reason): return ["decision": "reject", "reason": .string(reason)]
        }
    }
}

/// One rule of a scene's scope: the first rule whose predicate matches decides.
public struct ScopeRule<R: Route>: Sendable {
    /// Which routes the rule applies to.
    public let when: RoutePredicate<R>
    /// What the rule decides for a matching route.
    public let action: ScopeAction

    /// Creates a rule that applies `action` to routes matching `when`.
    public init(when: RoutePredicate<R>, _ action: ScopeAction) {
        self.when = when
        self.action = action
    }
}

/// A scene's claim on routes that bubble up to the registry.
public struct SceneClaim<R: Route>: Sendable {
    /// Which routes the scene claims.
    public let when: RoutePredicate<R>
    /// How the claimed route is presented in the claiming instance.
    public let present: RouteStepKind

    /// Creates a claim on routes matching `when`, presented as `present`.
    public init(when: RoutePredicate<R>, present: RouteStepKind) {
        self.when = when
        self.present = present
    }
}

/// Where a deep link lands: a scene, the value of its instance, and the path to show.
public struct SceneLinkTarget<R: Route>: Sendable {
    /// The declaration the link opens.
    public let scene: String
    /// The value of the target instance (per-value scenes), if any.
    public let value: JSONValue?
    /// The path to reset the target to; `nil` leaves its path alone.
    public let plan: FlowPlan<R>?

    /// Steps to run in place of landing in one instance (a link that opens two viewers
    /// side by side); nil for a link that lands.
    public let program: [ProgramStep<R>]?

    /// Creates a target from its members.
    public init(scene: String, value: JSONValue?, plan: FlowPlan<R>?) {
        self.scene = scene
        self.value = value
        self.plan = plan
        self.program = nil
    }

    /// A target that runs `program` (see ``SceneRegistry/run(program:)``) instead of
    /// landing in one instance.
    public init(scene: String, program: [ProgramStep<R>]) {
        self.scene = scene
        self.value = nil
        self.plan = nil
        self.program = program
    }
}

/// A deep-link mapping of one scene: a pattern and how to turn parameters into a value
/// and a plan.
public struct SceneLinkMapping<R: Route>: Sendable {
    /// The link pattern (`/viewer/:doc`); all scenes' patterns form one matcher.
    public let pattern: String
    /// Whether a matching link, opened while not authenticated, waits for `auth.set`.
    public let requiresAuth: Bool
    let produce: @Sendable (LinkParameters) throws -> LinkProduct<R>

    /// A mapping whose closure sees every parameter, query items included.
    public init(
        _ pattern: String, requiresAuth: Bool = false,
        produce: @escaping @Sendable (LinkParameters) throws -> (value: JSONValue?, plan: FlowPlan<R>?)
    ) {
        self.pattern = pattern
        self.requiresAuth = requiresAuth
        self.produce = { parameters in
            let (value, plan) = try produce(parameters)
            return .landing(value: value, plan: plan)
        }
    }

    /// A mapping that runs a program: a matching link answers what its steps did. A step
    /// may not open a link itself. The closure's error refuses the link (`link_refused`).
    public init(
        _ pattern: String, requiresAuth: Bool = false,
        program: @escaping @Sendable (LinkParameters) throws -> [ProgramStep<R>]
    ) {
        self.pattern = pattern
        self.requiresAuth = requiresAuth
        self.produce = { parameters in
            let steps = try program(parameters)
            if let index = steps.firstIndex(where: { if case .link = $0 { true } else { false } }) {
                throw LinkRejection.refused("step \(index) of the link's program opens a link, which a link program may not")
            }
            guard steps.contains(where: \.answersInstance) else {
                throw LinkRejection.refused("the link's program names no instance to handle the link in")
            }
            return .program(steps)
        }
    }
}

/// What a link mapping makes of a link's parameters: an instance to land in, or steps.
enum LinkProduct<R: Route>: Sendable {
    case landing(value: JSONValue?, plan: FlowPlan<R>?)
    case program([ProgramStep<R>])
}

/// One scene of an app: what it is, how many instances it may have, and its rules.
public struct SceneDeclaration<R: Route>: Sendable {
    /// The scene's identifier, unique within the app.
    public internal(set) var id: String
    /// Window, volume or immersive space.
    public internal(set) var kind: SceneKind
    /// How many instances it may have.
    public internal(set) var instances: InstancePolicy
    /// Deep links that land in this scene.
    public internal(set) var links: [SceneLinkMapping<R>]
    /// How an instance handles routes it is asked to show, in order.
    public internal(set) var scope: [ScopeRule<R>]
    /// Which routes that bubble up to the registry this scene takes.
    public internal(set) var claims: [SceneClaim<R>]
    /// Whether a registry restore brings its instances back.
    public internal(set) var restore: Bool
    /// Where the code of its instances runs: nowhere (virtual), in this process, or in a
    /// process a coordinator starts.
    public internal(set) var hosting: SceneHosting
    /// When the code behind an instance is restarted after it ends.
    public internal(set) var restart: RestartPolicy
    /// Whether the code behind an instance decides route requests at run time, before the
    /// scope rules: an in-process behaviour's ``SceneBehavior/decide(_:path:)``, a process
    /// scene's answer to `scene.decide`. No answer within ``decideTimeout``, or a
    /// malformed one, leaves the decision to ``scope``.
    public internal(set) var decides: Bool
    /// How long a deciding scene has to answer (default 1 s).
    public internal(set) var decideTimeout: Duration
    /// Whether a call or notification to the scene, when none of its instances is open,
    /// opens one (its usual rules) and is delivered once it is active, as a D-Bus service
    /// is started by its first call.
    public internal(set) var activatable: Bool
    /// The methods and signals the scene declares; calls and signals outside it are
    /// refused before its code runs (see ``SceneInterface``). Nil: anything goes.
    public internal(set) var interface: SceneInterface?
    /// A window's default size, how windows and volumes resize and where they appear, the
    /// styles an immersive space may take.
    public internal(set) var geometry: SceneGeometry
    /// The scenes that must be open before this one: opening it opens them first, and
    /// dismissing the last instance of one of them dismisses this scene's instances first.
    ///
    /// Each must be another declared scene, not one of one instance per value (nothing
    /// would say which value to open it with), with no cycle, and never two immersive
    /// spaces at once (only one is open at a time): a registry or a manifest that breaks
    /// this is refused.
    public internal(set) var requires: [String]
    /// The supervision group the scene belongs to, if any.
    public internal(set) var group: SupervisionGroup?

    /// The styles an open immersive space of this scene may take: its declared `styles`,
    /// else its style alone; none for a window or volume.
    public var allowedStyles: [ImmersionStyle] {
        guard case .immersive(let style) = kind else { return [] }
        return geometry.styles ?? [style]
    }

    /// How long a deciding scene has to answer unless its declaration says.
    public static var standardDecideTimeout: Duration { .seconds(1) }

    /// How a coordinator starts the process behind each instance; nil unless the scene's
    /// hosting is `process`.
    public var launch: LaunchSpec? {
        if case .process(let spec) = hosting { return spec }
        return nil
    }

    /// Whether `id` can name a scene: non-empty ASCII letters, digits, `_`, `.` and `-`.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
    }

    /// A declaration. `instances` defaults to `single` for immersive spaces and to
    /// `multiple` otherwise.
    public init(
        id: String, kind: SceneKind, instances: InstancePolicy? = nil, links: [SceneLinkMapping<R>] = [],
        scope: [ScopeRule<R>] = [], claims: [SceneClaim<R>] = [], restore: Bool = true,
        hosting: SceneHosting = .virtual, restart: RestartPolicy = .standard, decides: Bool = false,
        decideTimeout: Duration = standardDecideTimeout, activatable: Bool = false, interface: SceneInterface? = nil,
        geometry: SceneGeometry = SceneGeometry(), requires: [String] = [], group: SupervisionGroup? = nil
    ) {
        self.id = id
        self.kind = kind
        self.instances = instances ?? (kind.isImmersive ? .single : .multiple(max: nil))
        self.links = links
        self.scope = scope
        self.claims = claims
        self.restore = restore
        self.hosting = hosting
        self.restart = restart
        self.decides = decides
        self.decideTimeout = decideTimeout
        self.activatable = activatable
        self.interface = interface
        self.geometry = geometry
        self.requires = requires
        self.group = group
    }
}

extension SceneDeclaration {
    /// What the requirement rules need of this declaration (``RequirementGraph``).
    var requirementFacts: RequirementGraph.Scene {
        RequirementGraph.Scene(id: id, requires: requires, isImmersive: kind.isImmersive, isPerValue: instances == .perValue)
    }
}

extension SceneDeclaration {
    /// The style a restored or reloaded immersive space of this scene keeps, of the one it
    /// was saved with: that style when it is a change the scene still allows; nil when it
    /// follows its declaration (the declared style, a style no longer allowed, no style, or
    /// a scene that is no immersive space).
    package func styleToKeep(_ saved: ImmersionStyle?) -> ImmersionStyle? {
        guard let saved, case .immersive(let declared) = kind, saved != declared, allowedStyles.contains(saved) else { return nil }
        return saved
    }
}
