public import SceneFlow
import SceneJSON
import SceneSync

/// Something a route request consulted on its way: an instance's scope, or a scene's
/// claims.
public enum RouteStop: Hashable, Sendable, CustomStringConvertible {
    /// The scope of this instance: its code's decision, when its scene decides, then its
    /// scope rules.
    case scope(InstanceID)
    /// The claims of this scene.
    case claims(String)

    /// The instance id for a scope, the scene id for claims (as the wire's `via` lists them).
    public var description: String {
        switch self {
        case .scope(let id): return id.description
        case .claims(let scene): return scene
        }
    }
}

/// Where a route request landed, and what it consulted on the way.
public struct RouteOutcome<R: Route>: Hashable, Sendable {
    /// How the route landed.
    public enum Kind: Hashable, Sendable {
        /// A scope — the asking instance's, or an origin's up its `pushedFrom` chain —
        /// presented it in that instance.
        case presented
        /// A claiming scene opened a new instance and presented it there.
        case opened
        /// A claiming scene's open instance presented it and was focused.
        case focused
    }

    /// How the route landed.
    public let kind: Kind
    /// The instance where the route landed, with its path.
    public let instance: InstanceInfo<R>
    /// What was consulted, in order: scopes (instances), then claims (scenes), up to the
    /// one that took the route.
    public let via: [RouteStop]

    /// An outcome from its members.
    public init(_ kind: Kind, instance: InstanceInfo<R>, via: [RouteStop]) {
        self.kind = kind
        self.instance = instance
        self.via = via
    }

    /// `presented`, `opened` or `focused`.
    public var name: OutcomeName {
        switch kind {
        case .presented: return .presented
        case .opened: return .opened
        case .focused: return .focused
        }
    }
}

extension SceneRegistry {
    /// Asks for `route` to be shown, from instance `from`, like a responder chain, from the
    /// innermost context out.
    ///
    /// 1. The scope of `from`, then — for a pushed window — the scope of each origin up its
    ///    `pushedFrom` chain. A scope whose scene `decides` asks its code first (an
    ///    in-process behaviour's ``SceneBehavior/decide(_:path:)``, a process's
    ///    `scene.decide`), which sees the route and that instance's path; no answer in its
    ///    `decideTimeout`, a malformed one, or none at all leaves it to the scope rules, in
    ///    order: the first whose `when` matches decides. Present it in that instance (push,
    ///    sheet or cover), reject it (`route_rejected`, with the reason as `detail`), or
    ///    pass to the next scope. No matching rule passes too.
    /// 2. The registry: the first declaration whose claims match opens (per-value scenes
    ///    use the route as the value) and presents it with the claim's step.
    /// 3. Nothing claims it: `no_handler`.
    ///
    /// A sheet or cover whose route is already shown or queued as a modal in the target
    /// instance is refused `presentation_busy`. The outcome's `via` lists what was
    /// consulted.
    public func route(_ route: R, from: InstanceID) async throws(RegistryRejection) -> RouteOutcome<R> {
        try await finish(beginRoute(route, from: from)).get()
    }

    /// ``route(_:from:)`` as far as it goes now: done, unless a deciding scene is asked,
    /// or the claiming scene's instance is still opening or must start.
    @_specialize(where R == JSONValue)
    package func beginRoute(_ route: R, from: InstanceID) -> RegistryStep<R, RouteOutcome<R>> {
        step("scene.route") { () throws(RegistryRejection) in
            guard instances[from] != nil, let record = book.records[from], record.phase != .opening
            else { throw .instanceNotOpen(from) }
            return try bubble(route, through: book.scopeChain(from: from)[...], via: [])
        }
    }

    /// Offers `route` to the first scope of `chain` that is still open, then to the rest,
    /// then to the claims.
    private func bubble(_ route: R, through chain: ArraySlice<InstanceID>, via: [RouteStop]) throws(RegistryRejection)
        -> RegistryStep<R, RouteOutcome<R>>
    {
        guard let id = chain.first else { return try routeToClaim(route, via: via) }
        // An origin dismissed while a decision was awaited is passed over.
        guard let instance = instances[id] else { return try bubble(route, through: chain.dropFirst(), via: via) }
        let declaration = instance.declaration
        let consulted = via + [.scope(id)]
        guard RegistryBook.asksScene(decides: declaration.decides, backed: backing(of: id) != nil) else {
            return try act(RegistryBook.scopeAction(for: route, in: declaration.scope), route, at: chain, via: consulted)
        }
        let path = entering(instance) { $0.flow.path }
        return .waiting(RegistryWait { registry in
            let decided = await registry.decision(for: route, path: path, by: id, within: declaration.decideTimeout)
            let action = RegistryBook.scopeAction(for: route, decided: decided, in: declaration.scope)
            do throws(RegistryRejection) {
                // Dismissed while it decided: the route goes on to the next scope.
                guard registry.instances[id] != nil else {
                    return await registry.finish(try registry.bubble(route, through: chain.dropFirst(), via: consulted))
                }
                return await registry.finish(try registry.act(action, route, at: chain, via: consulted))
            } catch {
                return .failure(error)
            }
        })
    }

    /// Carries out what the scope of `chain.first` decided.
    private func act(_ action: ScopeAction, _ route: R, at chain: ArraySlice<InstanceID>, via: [RouteStop]) throws(RegistryRejection)
        -> RegistryStep<R, RouteOutcome<R>>
    {
        switch action {
        case .present(let kind):
            return .done(.success(RouteOutcome(.presented, instance: try present(route, as: kind, in: chain.first!), via: via)))
        case .reject(let reason):
            throw .routeRejected(detail: reason)
        case .pass:
            return try bubble(route, through: chain.dropFirst(), via: via)
        }
    }

    /// What the code behind `id` decides for `route`: nil when it leaves it to the scope
    /// rules, answers nothing in time, or answers something that is not a decision.
    private func decision(for route: R, path: [RouteStep<R>], by id: InstanceID, within timeout: Duration) async -> ScopeAction? {
        if let host, runsInProcess(id) {
            return await host.decide(route, path: path, on: id, timeout: timeout)
        }
        guard let backing = backing(of: id), let routeJSON = try? JSONValue(encoding: route),
            let pathJSON = try? JSONValue(encoding: path)
        else { return nil }
        let asked = SceneCall(method: "scene.decide", params: ScenePayload(json: ["route": routeJSON, "path": pathJSON]))
        let answer = try? await backing.call(asked, on: id, timeout: timeout)
        return answer.flatMap { try? $0.json() }.flatMap(ScopeAction.init(decision:))
    }

    /// Opens the first scene that claims `route` and presents it there.
    ///
    /// An instance that is already open is checked first (on a copy of its flow), so a
    /// refusal changes nothing; an instance opened for the route goes again if presenting
    /// fails.
    private func routeToClaim(_ route: R, via: [RouteStop]) throws(RegistryRejection) -> RegistryStep<R, RouteOutcome<R>> {
        guard let (declaration, claim) = RegistryBook.claim(for: route, in: declarations) else { throw .noHandler }
        let value = try RegistryBook.claimValue(for: route, policy: declaration.instances).get()
        if let target = try book.openTarget(declaration.id, value: value).get() {
            try checkPresentation(route, as: claim.present, in: target)
        }
        let kind = claim.present
        let consulted = via + RegistryBook.claimsConsulted(until: declaration.id, in: declarations).map(RouteStop.claims)
        return thenOnSuccess(try openStep(declaration.id, value: value)) { registry, opened throws(RegistryRejection) in
            try registry.land(route, as: kind, in: opened, via: consulted)
        }
    }

    /// Presents `route` in the instance a claim opened or found, and focuses it; a new
    /// instance goes again when presenting fails.
    private func land(_ route: R, as kind: RouteStepKind, in opened: OpenOutcome<R>, via: [RouteStop]) throws(RegistryRejection)
        -> RouteOutcome<R>
    {
        let target = opened.instance.id
        do {
            try present(route, as: kind, in: target)
        } catch {
            if case .opened = opened { remove(target, reason: .cancelled) }
            throw error
        }
        book.focusVisible(target)
        flush()
        let landed = try info(target)
        switch opened {
        case .opened: return RouteOutcome(.opened, instance: landed, via: via)
        case .focused: return RouteOutcome(.focused, instance: landed, via: via)
        }
    }

    /// Refuses what presenting `route` in `id` would refuse, changing nothing.
    private func checkPresentation(_ route: R, as kind: RouteStepKind, in id: InstanceID) throws(RegistryRejection) {
        guard let instance = instances[id] else { throw .instanceNotOpen(id) }
        let problem = entering(instance) { instance in
            RegistryBook.presentationProblem(route, as: kind, in: instance.flow, of: id)
        }
        if let problem { throw problem }
    }

    /// Presents `route` in instance `id` as a push, sheet or cover.
    @discardableResult
    func present(_ route: R, as kind: RouteStepKind, in id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        try checkPresentation(route, as: kind, in: id)
        if case .rejected(let reason)? = perform(RegistryBook.intent(route, as: kind), in: id, request: "scene.route", by: .route) {
            throw .flow(reason)
        }
        return try info(id)
    }
}
