public import SceneSync
public import SceneFlow
public import SceneJSON
public import SceneLinks

/// One scene of a ``SceneSet``: its declaration, and the behaviour of its instances when
/// they run in process.
public struct SceneEntry<R: Route>: SceneContent, Sendable {
    /// The entry itself.
    public var entry: SceneEntry<R> {
        get { self }
        set { self = newValue }
    }
    /// What the scene is and its rules.
    public internal(set) var declaration: SceneDeclaration<R>
    /// What makes the behaviour of each instance, for a scene that runs in process.
    public internal(set) var behavior: SceneBehaviorFactory<R>?
}

/// A scene declared in Swift: a ``Window``, a ``Volume`` or an ``ImmersiveSpace``, with its
/// modifiers (a ``SceneEntry`` too, so that a set made from another can change its scenes).
public protocol SceneContent<R> {
    /// What the scene's navigation steps show.
    associatedtype R: Route
    /// The scene, declared.
    var entry: SceneEntry<R> { get set }
}

/// A window scene, as SwiftUI's `WindowGroup(id:for:)` declares one: its id and value type
/// (a ``SceneID``), how many instances it may have, and — for a scene whose code runs in
/// process — the behaviour of each instance beside it.
public struct Window<R: Route>: SceneContent {
    public var entry: SceneEntry<R>

    /// A window scene with no code of its own (its instances live only in the registry);
    /// `instances` defaults to `multiple`.
    public init<Value>(_ scene: SceneID<Value>, instances: InstancePolicy? = nil) {
        entry = SceneEntry(declaration: SceneDeclaration(id: scene.id, kind: .window, instances: instances), behavior: nil)
    }

    /// A window scene whose instances run `behavior` in process.
    public init<Value>(_ scene: SceneID<Value>, instances: InstancePolicy? = nil, behavior: @escaping SceneBehaviorFactory<R>) {
        entry = SceneEntry(
            declaration: SceneDeclaration(id: scene.id, kind: .window, instances: instances, hosting: .inProcess), behavior: behavior)
    }
}

/// A volume scene: a bounded 3D space of `size` metres.
public struct Volume<R: Route>: SceneContent {
    public var entry: SceneEntry<R>

    /// A volume scene with no code of its own; `instances` defaults to `multiple`.
    public init<Value>(_ scene: SceneID<Value>, size: VolumeSize, instances: InstancePolicy? = nil) {
        entry = SceneEntry(declaration: SceneDeclaration(id: scene.id, kind: .volume(size: size), instances: instances), behavior: nil)
    }

    /// A volume scene whose instances run `behavior` in process.
    public init<Value>(
        _ scene: SceneID<Value>, size: VolumeSize, instances: InstancePolicy? = nil, behavior: @escaping SceneBehaviorFactory<R>
    ) {
        entry = SceneEntry(
            declaration: SceneDeclaration(id: scene.id, kind: .volume(size: size), instances: instances, hosting: .inProcess),
            behavior: behavior)
    }
}

/// An immersive space: at most one is open in the whole app.
public struct ImmersiveSpace<R: Route>: SceneContent {
    public var entry: SceneEntry<R>

    /// An immersive space of `style` with no code of its own; one instance.
    public init<Value>(_ scene: SceneID<Value>, style: ImmersionStyle = .mixed) {
        entry = SceneEntry(declaration: SceneDeclaration(id: scene.id, kind: .immersive(style: style)), behavior: nil)
    }

    /// An immersive space whose instance runs `behavior` in process.
    public init<Value>(_ scene: SceneID<Value>, style: ImmersionStyle = .mixed, behavior: @escaping SceneBehaviorFactory<R>) {
        entry = SceneEntry(
            declaration: SceneDeclaration(id: scene.id, kind: .immersive(style: style), hosting: .inProcess), behavior: behavior)
    }
}

extension SceneContent {
    /// This scene with `change` made to its declaration.
    private func with(_ change: (inout SceneDeclaration<R>) -> Void) -> Self {
        var copy = self
        change(&copy.entry.declaration)
        return copy
    }

    /// Its instances run in a process a coordinator starts with `launch`, one per instance.
    public func process(_ launch: LaunchSpec) -> Self { with { $0.hosting = .process(launch) } }

    /// Deep links that land in it (all scenes' patterns form one matcher).
    public func links(_ mappings: [SceneLinkMapping<R>]) -> Self { with { $0.links += mappings } }

    /// How an instance handles routes it is asked to show, in order.
    public func scope(_ rules: [ScopeRule<R>]) -> Self { with { $0.scope += rules } }

    /// Which routes that bubble up to the registry it takes.
    public func claims(_ claims: [SceneClaim<R>]) -> Self { with { $0.claims += claims } }

    /// A scene that must be open before this one (``SceneDeclaration/requires``).
    public func requires<Value>(_ scene: SceneID<Value>) -> Self { with { $0.requires.append(scene.id) } }

    /// Whether a registry restore brings its instances back (it does unless told).
    public func restore(_ restores: Bool) -> Self { with { $0.restore = restores } }

    /// When the code behind an instance is restarted after it ends.
    public func restart(_ policy: RestartPolicy) -> Self { with { $0.restart = policy } }

    /// Its code decides route requests at run time, within `timeout`, before its scope
    /// rules.
    public func decides(within timeout: Duration = SceneDeclaration<R>.standardDecideTimeout) -> Self {
        with {
            $0.decides = true
            $0.decideTimeout = timeout
        }
    }

    /// A call to it when none of its instances is open opens one, as a D-Bus service is
    /// started by its first call.
    public func activatable() -> Self { with { $0.activatable = true } }

    /// The methods and signals it declares; calls and signals outside them are refused.
    public func interface(_ interface: SceneInterface) -> Self { with { $0.interface = interface } }

    /// A window's default size, how it resizes and where it appears, an immersive space's
    /// styles.
    public func geometry(_ geometry: SceneGeometry) -> Self { with { $0.geometry = geometry } }

    /// The supervision group it belongs to.
    public func group(_ group: SupervisionGroup) -> Self { with { $0.group = group } }
}

/// Collects the scenes of a ``SceneSet``.
@resultBuilder
public enum SceneSetBuilder<R: Route> {
    /// A scene, as one entry.
    public static func buildExpression<Content: SceneContent>(_ content: Content) -> [SceneEntry<R>] where Content.R == R {
        [content.entry]
    }

    /// The scenes of a block, in order.
    public static func buildBlock(_ parts: [SceneEntry<R>]...) -> [SceneEntry<R>] { parts.flatMap { $0 } }

    /// The scenes under an `if` that holds; none when it does not.
    public static func buildOptional(_ part: [SceneEntry<R>]?) -> [SceneEntry<R>] { part ?? [] }

    /// The scenes of an `if`'s first branch.
    public static func buildEither(first part: [SceneEntry<R>]) -> [SceneEntry<R>] { part }

    /// The scenes of an `if`'s second branch.
    public static func buildEither(second part: [SceneEntry<R>]) -> [SceneEntry<R>] { part }

    /// The scenes of each turn of a `for` loop, in order.
    public static func buildArray(_ parts: [[SceneEntry<R>]]) -> [SceneEntry<R>] { parts.flatMap { $0 } }
}

/// An app's scenes, declared in Swift beside their behaviours, as SwiftUI's `App.body`
/// declares its scenes:
///
/// ```swift
/// let scenes = SceneSet(app: "tally") {
///     Window(.counter, instances: .single) { _ in Counter() }
///     Window(.notes)
/// }
/// let registry = try SceneRegistry(scenes)
/// ```
///
/// The same set serves a ``SceneRegistry``, a coordinator and a test coordinator. A JSON
/// manifest (``Manifest``) declares the same things for processes and other languages.
public struct SceneSet<R: Route>: Sendable {
    /// The app's name.
    public let app: String
    /// Which origins deep links may come from.
    public let linkPolicy: LinkOriginPolicy
    /// What opening a second immersive space does.
    public let immersive: ImmersivePolicy
    /// The scenes, in order.
    public let entries: [SceneEntry<R>]

    /// The scenes of an app of routes `R`.
    public init(
        app: String, routes: R.Type, links linkPolicy: LinkOriginPolicy = .closed, immersive: ImmersivePolicy = .reject,
        @SceneSetBuilder<R> scenes: () -> [SceneEntry<R>]
    ) {
        self.app = app
        self.linkPolicy = linkPolicy
        self.immersive = immersive
        self.entries = scenes()
    }

    /// The declarations, in order.
    public var declarations: [SceneDeclaration<R>] { entries.map(\.declaration) }

    /// The behaviours of the scenes that run in process, by scene id.
    public var behaviors: [String: SceneBehaviorFactory<R>] {
        var behaviors: [String: SceneBehaviorFactory<R>] = [:]
        for entry in entries { if let behavior = entry.behavior { behaviors[entry.declaration.id] = behavior } }
        return behaviors
    }
}

extension SceneSet where R == JSONValue {
    /// The scenes of an app whose routes are JSON, as a manifest's are.
    public init(
        app: String, links linkPolicy: LinkOriginPolicy = .closed, immersive: ImmersivePolicy = .reject,
        @SceneSetBuilder<JSONValue> scenes: () -> [SceneEntry<JSONValue>]
    ) {
        self.init(app: app, routes: JSONValue.self, links: linkPolicy, immersive: immersive, scenes: scenes)
    }
}

extension SceneSet where R == JSONValue {
    /// The scenes `manifest` declares, those in process running `behaviors` (by scene id).
    public init(_ manifest: Manifest, behaviors: [String: SceneBehaviorFactory<JSONValue>] = [:]) {
        app = manifest.app
        linkPolicy = manifest.linkPolicy
        immersive = manifest.immersive
        entries = manifest.scenes.map { SceneEntry(declaration: $0, behavior: behaviors[$0.id]) }
    }
}

extension SceneRegistry {
    /// A registry of `scenes`, with the behaviours declared beside them (see
    /// ``init(app:declarations:linkPolicy:linkLimits:immersive:behaviors:processes:closePolicy:timeouts:time:reopenLimit:executor:)``
    /// for the rest).
    public init(
        _ scenes: SceneSet<R>, linkLimits: LinkLimits = .standard, processes: (any SceneBacking)? = nil,
        closePolicy: ClosePolicy? = nil, timeouts: SceneTimeouts = .standard, time: (any TimeSource)? = nil,
        reopenLimit: Int = 20, executor: (any SerialExecutor)? = nil
    ) throws(RegistryConfigurationError) {
        try self.init(
            app: scenes.app, declarations: scenes.declarations, linkPolicy: scenes.linkPolicy, linkLimits: linkLimits,
            immersive: scenes.immersive, behaviors: scenes.behaviors, processes: processes, closePolicy: closePolicy,
            timeouts: timeouts, time: time, reopenLimit: reopenLimit, executor: executor)
    }
}
