public import SceneSync
public import SceneFlow
public import SceneLinks
import SceneJSON

/// A program's say over interactive closes: answers whether `instance` may close.
public typealias ClosePolicy = @Sendable (_ instance: InstanceID) async -> Bool

/// The registry: every open, dismiss, focus change, route request and deep link of an app
/// goes through it, one request at a time, with the platform's rules.
///
/// - Requests are applied in arrival order. A request changes the registry in one step;
///   the only wait inside a request is for an instance that is still `opening`, and other
///   requests go on during it (a second open of the same single scene, or of the same
///   value, joins the first; a dismiss cancels it).
/// - Every request answers what happened, or throws a ``RegistryRejection`` saying why
///   not; every rejection is also a `request.rejected` event.
/// - Events form one stream with registry-wide sequence numbers (``events(buffering:where:)``).
public actor SceneRegistry<R: Route> {
    /// The app's name.
    public nonisolated let app: String
    /// The declarations, in declaration order.
    public nonisolated let declarations: [SceneDeclaration<R>]
    let declarationsByID: [String: SceneDeclaration<R>]
    /// The interfaces of the scenes that declare one: what every call and signal checks,
    /// without copying a whole declaration out of ``declarationsByID``.
    nonisolated let interfaces: [String: SceneInterface]
    /// Where each scene's code runs, without its launch spec: what every call to an
    /// instance asks, answered without copying a declaration.
    nonisolated let placements: [String: Placement]
    /// The scenes declared `activatable`.
    nonisolated let activatable: Set<String>

    /// A scene's ``SceneHosting`` without its payload.
    enum Placement {
        case virtual, inProcess, process

        init(_ hosting: SceneHosting) {
            switch hosting {
            case .virtual: self = .virtual
            case .inProcess: self = .inProcess
            case .process: self = .process
            }
        }
    }
    /// What `state` tells of the declarations, made once.
    nonisolated let declaredState: DeclaredState<R>
    var book: RegistryBook
    /// An emptied array of the book's events, its capacity kept: handed to the book for
    /// the next events when `flush()` takes those it recorded, so that recording them
    /// allocates nothing.
    var spareEvents: [BookEvent] = []
    var instances: [InstanceID: SceneInstance<R>] = [:]
    var links: LinkRouter<SceneLinkTarget<R>>
    let log = RegistryEventLog<R>()
    /// What backs the instances of `process` scenes; without it they are virtual.
    let processes: (any SceneBacking)?
    /// The behaviours of `inProcess` scenes.
    let host: BehaviorHost<R>?
    /// How long calls and close requests to in-process scenes wait.
    public nonisolated let timeouts: SceneTimeouts
    /// The program's say over interactive closes, asked before what backs the instance.
    let closePolicy: ClosePolicy?
    /// Requests waiting for an opening instance to become ready.
    var openingWaiters: [InstanceID: [OpeningWait]] = [:]
    /// Presented instances, and who awaits their results.
    var presentations = PresentationBook<PresentationWait<R>>()
    /// Instances dismissed lately, with their values and paths: what `scene.reopen` brings
    /// back (at most ``reopenLimit``).
    var reopenList: ReopenList<R>
    /// Immersive spaces whose style was changed from their declared one.
    var styles: [InstanceID: ImmersionStyle] = [:]
    /// Supervision groups and their recent restarts, for their intensity.
    var supervision: GroupSupervision
    /// Where restart windows are read (the system's clock since `made` when nil).
    nonisolated let time: (any TimeSource)?
    nonisolated let made = ContinuousClock.now
    /// How many dismissed instances are kept for `scene.reopen` (20 unless the registry
    /// was made with another number).
    public nonisolated let reopenLimit: Int

    @usableFromInline nonisolated let home: RegistryExecutor

    /// The distributed actors of this registry's scenes, and typed calls to any scene:
    /// see ``SceneActorSystem``.
    public nonisolated let actorSystem: SceneActorSystem
    private nonisolated let callTransport: RegistryTransport<R>

    public nonisolated var unownedExecutor: UnownedSerialExecutor { home.unowned }

    /// The executor this registry was made with, if one was given: a coordinator serves a
    /// registry whose executor is its event loop.
    public nonisolated var executor: (any SerialExecutor)? { home.given }

    /// Whether the calling thread is known, cheaply, to run as this registry's executor: on
    /// an executor bound to one thread (an event loop, as a coordinator gives) by the
    /// thread's identity; on any other, never (ask the runtime). For
    /// `assumingIsolation(established:_:)`, which then skips the runtime's check:
    ///
    ///     registry.assumingIsolation(established: registry.isOnExecutorThread) { registry in … }
    @inlinable
    package nonisolated var isOnExecutorThread: Bool { home.isCurrentThread }

    /// Whether `instance` runs on this registry's executor, as every instance the registry
    /// made does: then what is isolated to the registry is isolated to the instance too.
    /// Isolated, so that asking it proves the first half; for
    /// `assumingIsolation(established:_:)`:
    ///
    ///     entering(instance) { instance in … }
    package func hosts(_ instance: SceneInstance<R>) -> Bool {
        instance.executor === home
    }

    /// Runs `operation` isolated to `instance`, one of this registry's, which shares its
    /// executor (``hosts(_:)``): no check by the runtime.
    func entering<T: Sendable, E: Error>(
        _ instance: SceneInstance<R>, _ operation: (isolated SceneInstance<R>) throws(E) -> T
    ) throws(E) -> T {
        try instance.assumingIsolation(established: hosts(instance), operation)
    }

    /// A registry of `declarations`.
    ///
    /// - `executor`: where the registry and its instances run. A coordinator gives its
    ///   event loop, so that a request is read, applied and answered on one thread.
    ///   Without one, the registry runs on the cooperative pool with an executor of its
    ///   own, which its instances share.
    /// - `behaviors`: the behaviour of each `inProcess` scene, by scene id; the registry
    ///   makes one per instance and hosts it (see ``SceneBehavior``).
    /// - `processes`: what backs the instances of `process` scenes (a coordinator's
    ///   supervisor); without it, they are virtual.
    /// - `closePolicy`: asked first whenever an instance is to close interactively, virtual
    ///   ones included; `false` refuses the close (`close_vetoed`) before the instance is
    ///   asked. A forced close asks nobody.
    /// - `time`: where in-process scenes' timeouts (`timeouts`), close grace and restart
    ///   windows are read and waited for; the system's monotonic clock when nil. A test
    ///   gives a manual clock and advances it.
    /// - `reopenLimit`: how many dismissed instances are kept for `scene.reopen`.
    /// - Throws: ``RegistryConfigurationError`` for duplicate scene ids, any link pattern
    ///   diagnostic (the link build is strict), an `inProcess` scene without a behaviour,
    ///   a behaviour for a scene that is not `inProcess`, or requirements that cannot hold
    ///   (``SceneDeclaration/requires``).
    public init(
        app: String, declarations: [SceneDeclaration<R>], linkPolicy: LinkOriginPolicy = .closed,
        linkLimits: LinkLimits = .standard, immersive: ImmersivePolicy = .reject,
        behaviors: [String: SceneBehaviorFactory<R>] = [:], processes: (any SceneBacking)? = nil,
        closePolicy: ClosePolicy? = nil, timeouts: SceneTimeouts = .standard, time: (any TimeSource)? = nil,
        reopenLimit: Int = 20, executor: (any SerialExecutor)? = nil
    ) throws(RegistryConfigurationError) {
        var problems = DeclarationRules.problems(declarations, behaviors: Set(behaviors.keys))
        var byID: [String: SceneDeclaration<R>] = [:]
        for declaration in declarations { byID[declaration.id] = declaration }
        var mappings: [LinkMapping<SceneLinkTarget<R>>] = []
        for declaration in declarations {
            for mapping in declaration.links {
                let scene = declaration.id
                let produce = mapping.produce
                mappings.append(LinkMapping(mapping.pattern, requiresAuth: mapping.requiresAuth) { parameters in
                    switch try produce(parameters) {
                    case .landing(let value, let plan): return SceneLinkTarget(scene: scene, value: value, plan: plan)
                    case .program(let steps): return SceneLinkTarget(scene: scene, program: steps)
                    }
                })
            }
        }
        do {
            links = try LinkRouter(mappings: mappings, policy: linkPolicy, limits: linkLimits)
        } catch {
            problems += error.diagnostics.map(\.description)
            links = try! LinkRouter(mappings: [], policy: linkPolicy, limits: linkLimits)
        }
        if !problems.isEmpty { throw RegistryConfigurationError(problems: problems) }
        self.app = app
        self.declarations = declarations
        self.declarationsByID = byID
        self.interfaces = byID.compactMapValues(\.interface)
        self.placements = byID.mapValues { Placement($0.hosting) }
        self.activatable = Set(declarations.filter(\.activatable).map(\.id))
        self.declaredState = DeclaredState(declarations)
        self.supervision = GroupSupervision(groups: byID.compactMapValues(\.group))
        self.processes = processes
        self.closePolicy = closePolicy
        self.timeouts = timeouts
        self.time = time
        self.reopenLimit = max(0, reopenLimit)
        self.reopenList = ReopenList(limit: reopenLimit)
        self.host = behaviors.isEmpty ? nil : BehaviorHost(factories: behaviors, timeouts: timeouts, interfaces: interfaces, time: time)
        self.home = RegistryExecutor(executor)
        self.callTransport = RegistryTransport<R>()
        self.actorSystem = SceneActorSystem(transport: callTransport, executor: home.unowned)
        self.book = RegistryBook(
            scenes: byID.mapValues { SceneFacts(kind: $0.kind, policy: $0.instances) }, immersivePolicy: immersive,
            requirements: RequirementGraph(declarations.map(\.requirementFacts)))
        callTransport.attach(self)
        if let host {
            host.attach(self)
            log.observe { host.observe($0) }
        }
    }

    deinit {
        host?.clear()
        log.finish()
    }

    // MARK: Reading

    /// Every event from now on, with its sequence number; only those `include` picks, when
    /// given (it runs as each event is emitted, on the registry's executor: keep it quick).
    public nonisolated func events(
        buffering: EventBuffering = .default, where include: (@Sendable (SequencedEvent<R>) -> Bool)? = nil
    ) -> EventStream<SequencedEvent<R>> {
        log.subscribe(buffering: buffering, where: include)
    }

    /// The current sequence number and a stream of every event after it, in one step;
    /// only those `include` picks, when given.
    public nonisolated func subscribe(
        buffering: EventBuffering = .default, where include: (@Sendable (SequencedEvent<R>) -> Bool)? = nil
    ) -> (seq: UInt64, events: EventStream<SequencedEvent<R>>) {
        let (seq, stream) = log.subscribeWithSeq(buffering: buffering, where: include)
        return (seq, stream)
    }

    /// The number of the last event emitted.
    public nonisolated var sequence: UInt64 { log.seq }

    /// Numbers events from `seq + 1` on, so that a registry that takes over from an earlier
    /// run (a durable coordinator's restart) never numbers two events alike.
    package nonisolated func continueNumbering(after seq: UInt64) {
        log.continueNumbering(after: seq)
    }

    /// The instance actor behind `id`, while it is open.
    public func instance(_ id: InstanceID) -> SceneInstance<R>? { instances[id] }

    /// Runs `body` on the open instance `id` within this one request, so that a caller
    /// outside the registry pays one hop for the lookup and the work together.
    ///
    /// - An instance that is not open is refused `not_open`, as a `request.rejected` event.
    public func withInstance<T: Sendable>(
        _ id: InstanceID, for request: String,
        _ body: @Sendable (isolated SceneInstance<R>) throws(RegistryRejection) -> T
    ) throws(RegistryRejection) -> T {
        let instance = try openInstance(id, for: request)
        return try entering(instance, body)
    }

    /// The instance actor behind `id` for `request`; an instance that is not open is
    /// refused `not_open`, and the refusal is a `request.rejected` event.
    @_specialize(where R == JSONValue)
    public func openInstance(_ id: InstanceID, for request: String) throws(RegistryRejection) -> SceneInstance<R> {
        try rejectingSync(request) { (self) throws(RegistryRejection) in
            guard let instance = self.instances[id] else { throw .instanceNotOpen(id) }
            return instance
        }
    }

    /// What `id` is now.
    public func info(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        guard let info = infoIfOpen(id) else { throw .instanceNotOpen(id) }
        return info
    }

    /// The open (or opening) instances of `scene`, by number.
    public func instances(of scene: String) -> [InstanceID] { book.instances(of: scene) }

    /// The focused window or volume.
    public var focused: InstanceID? { inspect { $0.focused } }

    /// The open immersive space.
    public var immersive: InstanceID? { book.immersive }

    /// The app's phase: active when any instance is active.
    public var phase: ScenePhase { book.aggregatePhase }

    func infoIfOpen(_ id: InstanceID) -> InstanceInfo<R>? {
        guard let record = book.records[id], let instance = instances[id] else { return nil }
        let (path, queue) = entering(instance) { ($0.flow.path, $0.flow.queuedModals) }
        var style: ImmersionStyle?
        if case .immersive(let declared) = record.kind { style = styles[id] ?? declared }
        return InstanceInfo(
            id: id, scene: id.scene, kind: record.kind, value: record.value, phase: record.phase,
            focused: inspect({ $0.focused }) == id, path: path, pushedFrom: record.pushedFrom, queue: queue,
            geometry: instance.declaration.geometry, style: style)
    }
}

extension SceneRegistry {
    /// Answers `question` about the book where it is stored.
    ///
    /// A non-mutating method called on `book` itself runs on a copy of the whole book
    /// (the registry is a class: the compiler cannot borrow its stored property across a
    /// call it does not see into), which retains every table and releases them again:
    /// about a tenth of a microsecond each time (4% of registry-bench's samples before).
    /// Through an `inout` access the book is read where it is. Used on the paths of the
    /// requests every client makes; elsewhere a copy costs too little to matter.
    @inline(__always)
    func inspect<T>(_ question: (inout RegistryBook) -> T) -> T {
        question(&book)
    }
}
