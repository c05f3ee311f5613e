public import SceneFlow
import SceneJSON

/// Where a route request landed.
public enum RouteOutcome<R: Route>: Hashable, Sendable {
    /// The asking instance's scope presented it there.
    case presented(InstanceInfo<R>)
    /// A claiming scene opened a new instance and presented it there.
    case opened(InstanceInfo<R>)
    /// A claiming scene's open instance presented it and was focused.
    case focused(InstanceInfo<R>)

    /// The instance where the route landed, with its path.
    public var instance: InstanceInfo<R> {
        switch self {
        case .presented(let info), .opened(let info), .focused(let info): return info
        }
    }

    /// `presented`, `opened` or `focused`.
    public var name: OutcomeName {
        switch self {
        case .presented: return .presented
        case .opened: return .opened
        case .focused: return .focused
        }
    }
}

extension SceneRegistry {
    /// Asks for `route` to be shown, from instance `from`, like a responder chain.
    ///
    /// 1. `from`'s scope rules, in order: the first whose `when` matches decides — present
    ///    it there (push, sheet or cover), reject it (`route_rejected`, with the rule's
    ///    reason as `detail`), or pass. No matching rule passes too.
    /// 2. The registry: the first declaration whose claims match opens (per-value scenes
    ///    use the route as the value) and presents it with the claim's step.
    /// 3. Nothing claims it: `no_handler`.
    ///
    /// A sheet or cover whose route is already shown or queued as a modal in the target
    /// instance is refused `presentation_busy`.
    public func route(_ route: R, from: InstanceID) async throws(RegistryRejection) -> RouteOutcome<R> {
        try await finish(beginRoute(route, from: from)).get()
    }

    /// ``route(_:from:)`` as far as it goes now: done, unless the claiming scene's
    /// instance is still opening or must start.
    public func beginRoute(_ route: R, from: InstanceID) -> RegistryStep<R, RouteOutcome<R>> {
        step("scene.route") { () throws(RegistryRejection) in
            guard let instance = instances[from], let record = book.records[from], record.phase != .opening
            else { throw .notOpen(from.description) }
            switch RegistryBook.scopeAction(for: route, in: instance.declaration.scope) {
            case .present(let kind):
                return .done(.success(.presented(try present(route, as: kind, in: from))))
            case .reject(let reason):
                throw .routeRejected(detail: reason)
            case .pass:
                return try routeToClaim(route)
            }
        }
    }

    /// Opens the first scene that claims `route` and presents it there.
    ///
    /// An instance that is already open is checked first (on a copy of its flow), so a
    /// refusal changes nothing; an instance opened for the route goes again if presenting
    /// fails.
    private func routeToClaim(_ route: R) throws(RegistryRejection) -> RegistryStep<R, RouteOutcome<R>> {
        guard let (declaration, claim) = RegistryBook.claim(for: route, in: declarations) else { throw .noHandler }
        let value = try RegistryBook.claimValue(for: route, policy: declaration.instances).get()
        if let target = try book.openTarget(declaration.id, value: value).get() {
            try checkPresentation(route, as: claim.present, in: target)
        }
        let kind = claim.present
        return thenOnSuccess(try openStep(declaration.id, value: value)) { registry, opened throws(RegistryRejection) in
            try registry.land(route, as: kind, in: opened)
        }
    }

    /// Presents `route` in the instance a claim opened or found, and focuses it; a new
    /// instance goes again when presenting fails.
    private func land(_ route: R, as kind: RouteStepKind, in opened: OpenOutcome<R>) throws(RegistryRejection) -> RouteOutcome<R> {
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
        case .opened: return .opened(landed)
        case .focused: return .focused(landed)
        }
    }

    /// Refuses what presenting `route` in `id` would refuse, changing nothing.
    private func checkPresentation(_ route: R, as kind: RouteStepKind, in id: InstanceID) throws(RegistryRejection) {
        guard let instance = instances[id] else { throw .notOpen(id.description) }
        let problem = instance.assumeIsolated { instance in
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
