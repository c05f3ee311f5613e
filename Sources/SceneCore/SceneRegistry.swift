public import SceneFlow
public import SceneJSON
public import SceneLinks

/// A program's say over interactive closes: answers whether `instance` may close.
public typealias ClosePolicy = @Sendable (_ instance: InstanceID) async -> Bool

/// What opening a scene did.
public enum OpenOutcome<R: Route>: Hashable, Sendable {
    /// A new instance.
    case opened(InstanceInfo<R>)
    /// An instance that was already open (or opening), now focused.
    case focused(InstanceInfo<R>)

    /// The instance either way.
    public var instance: InstanceInfo<R> {
        switch self {
        case .opened(let info), .focused(let info): return info
        }
    }

    /// `opened` or `focused`.
    public var name: OutcomeName {
        switch self {
        case .opened: return .opened
        case .focused: return .focused
        }
    }
}

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
    var book: RegistryBook
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

    nonisolated let home: RegistryExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { home.unowned }

    /// The executor this registry was made with, if one was given: a coordinator serves a
    /// registry whose executor is its event loop.
    public nonisolated var executor: (any SerialExecutor)? { home.given }

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
    /// - Throws: ``RegistryConfigurationError`` for duplicate scene ids, any link pattern
    ///   diagnostic (the link build is strict), an `inProcess` scene without a behaviour,
    ///   or a behaviour for a scene that is not `inProcess`.
    public init(
        app: String, declarations: [SceneDeclaration<R>], linkPolicy: LinkOriginPolicy = .closed,
        linkLimits: LinkLimits = .standard, immersive: ImmersivePolicy = .reject,
        behaviors: [String: SceneBehaviorFactory<R>] = [:], processes: (any SceneBacking)? = nil,
        closePolicy: ClosePolicy? = nil, timeouts: SceneTimeouts = .standard, executor: (any SerialExecutor)? = nil
    ) throws(RegistryConfigurationError) {
        var byID: [String: SceneDeclaration<R>] = [:]
        var problems: [String] = []
        for declaration in declarations where declaration.hosting == .inProcess && behaviors[declaration.id] == nil {
            problems.append("scene \"\(declaration.id)\" runs in process: register a behaviour for it")
        }
        for declaration in declarations {
            if byID[declaration.id] != nil { problems.append("duplicate scene id \"\(declaration.id)\"") }
            if !SceneDeclaration<R>.isValidID(declaration.id) {
                problems.append("scene id \"\(declaration.id)\" must be ASCII letters, digits, \"_\", \".\" and \"-\", not empty")
            }
            byID[declaration.id] = declaration
        }
        var mappings: [LinkMapping<SceneLinkTarget<R>>] = []
        for declaration in declarations {
            for mapping in declaration.links {
                let scene = declaration.id
                let produce = mapping.produce
                mappings.append(LinkMapping(mapping.pattern, requiresAuth: mapping.requiresAuth) { parameters in
                    let (value, plan) = try produce(parameters)
                    return SceneLinkTarget(scene: scene, value: value, plan: plan)
                })
            }
        }
        do {
            links = try LinkRouter(mappings: mappings, policy: linkPolicy, limits: linkLimits)
        } catch {
            problems += error.diagnostics.map(\.description)
            links = try! LinkRouter(mappings: [], policy: linkPolicy, limits: linkLimits)
        }
        for scene in behaviors.keys.sorted() where byID[scene]?.hosting != .inProcess {
            problems.append(
                byID[scene] == nil
                    ? "a behaviour is registered for scene \"\(scene)\", which is not declared"
                    : "a behaviour is registered for scene \"\(scene)\", which is not declared to run in process")
        }
        if !problems.isEmpty { throw RegistryConfigurationError(problems: problems) }
        self.app = app
        self.declarations = declarations
        self.declarationsByID = byID
        self.processes = processes
        self.closePolicy = closePolicy
        self.timeouts = timeouts
        self.host = behaviors.isEmpty ? nil : BehaviorHost(factories: behaviors, timeouts: timeouts)
        self.home = RegistryExecutor(executor)
        self.book = RegistryBook(
            scenes: byID.mapValues { SceneFacts(kind: $0.kind, policy: $0.instances) }, immersivePolicy: immersive)
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
        // Every instance runs on this registry's executor, so it is isolated here too.
        let result: Result<T, RegistryRejection> = instance.assumeIsolated { instance in
            do throws(RegistryRejection) {
                return .success(try body(instance))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The instance actor behind `id` for `request`; an instance that is not open is
    /// refused `not_open`, and the refusal is a `request.rejected` event.
    public func openInstance(_ id: InstanceID, for request: String) throws(RegistryRejection) -> SceneInstance<R> {
        try rejectingSync(request) { (self) throws(RegistryRejection) in
            guard let instance = self.instances[id] else { throw .notOpen(id.description) }
            return instance
        }
    }

    /// What `id` is now.
    public func info(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        guard let info = infoIfOpen(id) else { throw .notOpen(id.description) }
        return info
    }

    /// The focused window or volume.
    public var focused: InstanceID? { book.focused }

    /// The open immersive space.
    public var immersive: InstanceID? { book.immersive }

    /// The app's phase: active when any instance is active.
    public var phase: ScenePhase { book.aggregatePhase }

    func infoIfOpen(_ id: InstanceID) -> InstanceInfo<R>? {
        guard let record = book.records[id], let instance = instances[id] else { return nil }
        return InstanceInfo(
            id: id, scene: id.scene, kind: record.kind, value: record.value, phase: record.phase,
            focused: book.focused == id, path: instance.assumeIsolated { $0.flow.path },
            pushedFrom: record.pushedFrom)
    }

    // MARK: Requests

    /// Opens `scene` with `value`, by its instance policy.
    ///
    /// - `single`: the one instance (its own value kept); `perValue`: one per value;
    ///   `multiple`: a new one each time, up to its maximum.
    /// - Immersive spaces: at most one open; another one is refused
    ///   `immersive_space_busy` (policy `reject`) or replaces it (policy `replace`).
    @discardableResult
    public func open(_ scene: String, value: JSONValue? = nil) async throws(RegistryRejection) -> OpenOutcome<R> {
        try await finish(beginOpen(scene, value: value)).get()
    }

    /// ``open(_:value:)`` as far as it goes now: done, unless the instance is still
    /// opening or what backs a new one must start.
    public func beginOpen(_ scene: String, value: JSONValue? = nil) -> RegistryStep<R, OpenOutcome<R>> {
        step("scene.open") { () throws(RegistryRejection) in try openStep(scene, value: value) }
    }

    /// Opens `scene` in place of window `from`, as visionOS's `pushWindow` does.
    ///
    /// - `from` goes to the background until the pushed window is dismissed.
    /// - Refused `not_a_window`, `push_from_pushed_window`, `covered_by_pushed_window`,
    ///   or `already_open` when the target resolves to an open instance.
    @discardableResult
    public func push(_ scene: String, value: JSONValue? = nil, from: InstanceID) async throws(RegistryRejection)
        -> InstanceInfo<R>
    {
        try await finish(beginPush(scene, value: value, from: from)).get()
    }

    /// ``push(_:value:from:)`` as far as it goes now: done, unless what backs the pushed
    /// window must start.
    public func beginPush(_ scene: String, value: JSONValue? = nil, from: InstanceID) -> RegistryStep<R, InstanceInfo<R>> {
        step("scene.push") { () throws(RegistryRejection) in
            let id = try book.resolvePush(scene, value: value, from: from).get()
            reserve(id, value: value, pushedFrom: from)
            if startLaunch(id) { return .done(.success(try info(id))) }
            return afterOpening(id) { registry throws(RegistryRejection) in try registry.info(id) }
        }
    }

    /// Dismisses one instance and the windows pushed from it.
    @discardableResult
    public func dismiss(_ id: InstanceID) throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("scene.dismiss") { (self) throws(RegistryRejection) in try self.dismissNow(id) }
    }

    /// Dismisses every instance of `scene`, or only the one(s) with `value`.
    @discardableResult
    public func dismiss(scene: String, value: JSONValue? = nil) throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("scene.dismiss") { (self) throws(RegistryRejection) in
            var dismissed: [InstanceID] = []
            for id in try self.book.dismissTargets(scene, value: value).get() {
                guard let reason = self.book.requestedDismissReason(id) else { continue }
                dismissed += self.remove(id, reason: reason)
            }
            return dismissed
        }
    }

    /// Dismisses the open immersive space, whichever it is.
    @discardableResult
    public func dismissImmersive() throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("immersive.dismiss") { (self) throws(RegistryRejection) in
            guard let id = self.book.immersive else { throw .nothingToDismiss }
            return self.remove(id, reason: .requested)
        }
    }

    /// Focuses a window or volume.
    @discardableResult
    public func focus(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        try rejectingSync("scene.focus") { (self) throws(RegistryRejection) in
            try self.book.focusRequest(id).get()
            self.flush()
            return try self.info(id)
        }
    }

    /// Records a phase an instance reports for itself: `active`, `inactive` or
    /// `background`.
    public func setPhase(_ id: InstanceID, _ phase: ScenePhase) throws(RegistryRejection) {
        try rejectingSync("scene.phase") { (self) throws(RegistryRejection) in
            try self.book.report(id, phase).get()
            self.flush()
        }
    }

    // MARK: Machinery

    /// Opens by policy, as far as it goes now; joins an instance that is still opening.
    ///
    /// - `plan`, when given, becomes the path of a new instance before it is announced
    ///   (a deep link's target opens already showing its path).
    func openStep(_ scene: String, value: JSONValue?, plan: FlowPlan<R>? = nil) throws(RegistryRejection)
        -> RegistryStep<R, OpenOutcome<R>>
    {
        switch try book.resolveOpen(scene, value: value).get() {
        case .existing(let id):
            if book.records[id]?.phase == .opening {
                return afterOpening(id) { registry throws(RegistryRejection) in .focused(try registry.info(id)) }
            }
            book.focusVisible(id)
            flush()
            return .done(.success(.focused(try info(id))))
        case .new(let id, let replacing):
            if let replacing { remove(replacing, reason: .replaced) }
            reserve(id, value: value, pushedFrom: nil)
            if let plan { preset(plan, for: id) }
            if startLaunch(id) { return .done(.success(.opened(try info(id)))) }
            return afterOpening(id) { registry throws(RegistryRejection) in .opened(try registry.info(id)) }
        }
    }

    /// Dismisses `id` now; an instance still opening is cancelled.
    func dismissNow(_ id: InstanceID) throws(RegistryRejection) -> [InstanceID] {
        guard let reason = book.requestedDismissReason(id) else { throw .notOpen(id.description) }
        return remove(id, reason: reason)
    }

    /// Creates the instance actor and records it as opening.
    func reserve(_ id: InstanceID, value: JSONValue?, pushedFrom: InstanceID?) {
        let declaration = declarationsByID[id.scene]!
        book.reserve(id, value: value, pushedFrom: pushedFrom)
        instances[id] = SceneInstance(
            id: id, declaration: declaration, value: book.records[id]?.value, executor: home, log: log)
        flush()
    }

    /// What backs `id`, by its scene's hosting; nil for a virtual instance.
    func backing(of id: InstanceID) -> (any SceneBacking)? {
        switch declarationsByID[id.scene]?.hosting {
        case .inProcess: return host
        case .process: return processes
        case .virtual, nil: return nil
        }
    }

    /// Whether something backs `id` (it is started, asked to close, and stopped).
    func isLaunched(_ id: InstanceID) -> Bool { backing(of: id) != nil }

    /// Starts what backs the opening instance `id`. Answers `true` when there is nothing to
    /// start: the instance is active already. Otherwise its backing runs in a task of its
    /// own and reports back, and the caller waits (``afterOpening(_:_:)``) like any joined
    /// open, so a dismiss answers it at once (`cancelled`) whatever the launcher does; a
    /// launch that completes for an instance dismissed meanwhile is stopped.
    func startLaunch(_ id: InstanceID) -> Bool {
        guard let launcher = backing(of: id) else {
            activate(id)
            return true
        }
        Task {
            let result: Result<Void, RegistryRejection>
            do throws(RegistryRejection) {
                try await launcher.launch(id)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self.launchFinished(id, result)
        }
        return false
    }

    /// What the launcher said about `id`.
    func launchFinished(_ id: InstanceID, _ result: Result<Void, RegistryRejection>) {
        guard let record = book.records[id] else {
            // Dismissed while starting: its waiters were answered; stop what did start.
            if case .success = result, let launcher = backing(of: id) { Task { await launcher.stop(id) } }
            return
        }
        guard record.phase == .opening else { return }
        switch result {
        case .success:
            activate(id)
        case .failure(let reason):
            remove(id, reason: .cancelled, answering: reason)
        }
    }

    /// Applies `intent` to instance `id`'s flow in this step; `nil` when it is not open.
    @discardableResult
    func perform(_ intent: FlowIntent<R>, in id: InstanceID, request: String) -> FlowOutcome<R>? {
        instances[id]?.assumeIsolated { $0.perform(intent, request: request) }
    }

    /// Gives an instance that is not announced yet its first path, without an event: its
    /// `scene.opened` event will carry the path.
    func preset(_ plan: FlowPlan<R>, for id: InstanceID) {
        _ = instances[id]?.assumeIsolated { $0.flow.send(.reset(plan.steps)) }
    }

    /// An opening instance is ready: active, focused, announced, and its waiters answered.
    func activate(_ id: InstanceID) {
        book.activate(id)
        flush()
        for waiter in openingWaiters.removeValue(forKey: id) ?? [] { waiter.resolve(.success(())) }
    }

    /// Dismisses `id` (and its pushed windows), closes their actors, answers anyone
    /// waiting for them to open, and stops what backs them.
    @discardableResult
    func remove(_ id: InstanceID, reason: DismissReason, answering failure: RegistryRejection? = nil) -> [InstanceID] {
        let dismissed = book.dismiss(id, reason: reason)
        for gone in dismissed {
            instances.removeValue(forKey: gone)?.assumeIsolated { $0.close() }
            for waiter in openingWaiters.removeValue(forKey: gone) ?? [] {
                waiter.resolve(.failure(failure ?? .cancelled(gone)))
            }
            if let launcher = backing(of: gone) { Task { await launcher.stop(gone) } }
        }
        flush()
        return dismissed
    }

    /// Publishes what the bookkeeping recorded, in order.
    func flush() {
        for event in book.takeEvents() {
            switch event {
            case .opened(let id):
                instances[id]?.assumeIsolated { $0.phase = .active }
                if let info = infoIfOpen(id) { log.emit(.opened(info)) }
            case .focused(let id):
                log.emit(.focused(id))
            case .dismissed(let id, let reason):
                log.emit(.dismissed(id, reason: reason))
            case .phaseChanged(let id, let phase):
                instances[id]?.assumeIsolated { $0.phase = phase }
                log.emit(.phaseChanged(id, phase: phase))
            case .pushed(let id, let from):
                log.emit(.pushed(id, from: from))
            }
        }
    }

    /// Runs a request that finishes in one step; a rejection is also published as
    /// `request.rejected`.
    func rejectingSync<T>(
        _ request: String, _ body: (isolated SceneRegistry) throws(RegistryRejection) -> T
    ) throws(RegistryRejection) -> T {
        do {
            return try body(self)
        } catch {
            reject(request, error)
            throw error
        }
    }
}

/// Why a registry could not be built: every problem found.
public struct RegistryConfigurationError: CodedReason {
    /// Every problem, one sentence each, in the order found.
    public let problems: [String]

    /// An error listing `problems`.
    public init(problems: [String]) {
        self.problems = problems
    }

    public var code: String { "invalid_configuration" }
    public var description: String { problems.joined(separator: "\n") }
}
