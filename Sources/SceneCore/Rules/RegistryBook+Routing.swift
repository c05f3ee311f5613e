package import SceneFlow
package import SceneJSON

/// The rules that pick an instance for a request that names a scene rather than an
/// instance — a deep link, a dismiss by scene, a route that bubbles up — and the rule that
/// keeps a modal from being presented twice. Each is a pure function of the bookkeeping
/// (and, for presenting, of the target's flow): it changes nothing.
extension RegistryBook {
    // MARK: Deep links

    /// Which instance a link to `scene` with `value` lands in, and whether it waits for it:
    /// an instance still opening is joined (the link's plan is shown once it is active), an
    /// open one shows the plan, a new one opens already showing it.
    ///
    /// - `multiple`: the most recently focused instance, else its newest; a new one when
    ///   none is open.
    /// - `single` and `perValue`: the instance opening would focus (for a per-value scene,
    ///   the one with the link's value); a new one otherwise.
    /// - Refused as opening would refuse it: `unknown_scene`, `value_required`,
    ///   `immersive_space_busy`, `instance_limit_reached`.
    package func resolveLanding(_ scene: String, value: JSONValue?) -> Result<InstanceChoice, RegistryRejection> {
        guard let facts = scenes[scene] else { return .failure(.unknownScene(scene)) }
        let id: InstanceID
        if case .multiple = facts.policy, let recent = mostRecent(of: scene) {
            id = recent
        } else {
            switch resolveOpen(scene, value: value) {
            case .failure(let rejection): return .failure(rejection)
            case .success(.new): return .success(.new)
            case .success(.existing(let existing)): id = existing
            }
        }
        return .success(records[id]?.phase == .opening ? .join(id) : .existing(id))
    }

    // MARK: Dismissing by scene

    /// The open instances a dismiss of `scene` (only those with `value`, when given)
    /// targets, by number.
    ///
    /// - Refused `unknown_scene`, or `not_open` when none is open (with that value).
    package func dismissTargets(_ scene: String, value: JSONValue?) -> Result<[InstanceID], RegistryRejection> {
        guard scenes[scene] != nil else { return .failure(.unknownScene(scene)) }
        var targets = instances(of: scene)
        if let value { targets = targets.filter { records[$0]?.value == value } }
        guard !targets.isEmpty else { return .failure(.notOpen(value.map { "\(scene) with value \($0)" } ?? scene)) }
        return .success(targets)
    }

    /// Why dismissing `id` removes it: `cancelled` while it is still opening, `open` once it
    /// is open (`requested` for a request); nil when it is not open.
    package func dismissReason(_ id: InstanceID, whenOpen open: DismissReason = .requested) -> DismissReason? {
        guard let record = records[id] else { return nil }
        return record.phase == .opening ? .cancelled : open
    }

    // MARK: Routes that bubble up

    /// `id`, then each window it was pushed from, innermost first: the scopes a route asked
    /// from `id` bubbles through.
    package func scopeChain(from id: InstanceID) -> [InstanceID] {
        var chain = [id]
        while let origin = records[chain[chain.count - 1]]?.pushedFrom, !chain.contains(origin) {
            chain.append(origin)
        }
        return chain
    }

    /// Whether a scope's own code is asked to decide a route before its scope rules: its
    /// scene ``SceneDeclaration/decides``, and something backs the instance to ask (an
    /// in-process behaviour or a process; a virtual instance has no code).
    package static func asksScene(decides: Bool, backed: Bool) -> Bool {
        decides && backed
    }

    /// What a scope whose code was asked does with `route`: the code's decision; with none
    /// (it left it to the rules, answered nothing in time, or nothing that is a decision),
    /// what its scope rules say.
    package static func scopeAction<R: Route>(for route: R, decided: ScopeAction?, in scope: [ScopeRule<R>]) -> ScopeAction {
        decided ?? scopeAction(for: route, in: scope)
    }

    /// What the asking instance's scope does with `route`: the first rule whose `when`
    /// matches decides; with no match the route passes to the registry.
    package static func scopeAction<R: Route>(for route: R, in scope: [ScopeRule<R>]) -> ScopeAction {
        scope.first { $0.when.matches(route) }?.action ?? .pass
    }

    /// The scene that claims a route that passed: the first declaration, in declaration
    /// order, with a claim whose `when` matches, and that claim.
    package static func claim<R: Route>(for route: R, in declarations: [SceneDeclaration<R>])
        -> (scene: SceneDeclaration<R>, claim: SceneClaim<R>)?
    {
        for declaration in declarations {
            if let claim = declaration.claims.first(where: { $0.when.matches(route) }) { return (declaration, claim) }
        }
        return nil
    }

    /// The scenes whose claims a route that bubbled up to the registry was offered, in
    /// declaration order, up to and including `claimer`: those with claims.
    package static func claimsConsulted<R: Route>(until claimer: String, in declarations: [SceneDeclaration<R>]) -> [String] {
        var consulted: [String] = []
        for declaration in declarations where !declaration.claims.isEmpty {
            consulted.append(declaration.id)
            if declaration.id == claimer { break }
        }
        return consulted
    }

    /// The value a claimed route opens its scene with: the route itself for a per-value
    /// scene (refused `route_rejected` when it cannot be a JSON value), none otherwise.
    package static func claimValue<R: Route>(for route: R, policy: InstancePolicy) -> Result<JSONValue?, RegistryRejection> {
        guard policy == .perValue else { return .success(nil) }
        do {
            return .success(try JSONValue(encoding: route))
        } catch {
            return .failure(.routeRejected(detail: "the route cannot serve as a value: \(error)"))
        }
    }

    /// The open (not opening) instance that opening `scene` with `value` would focus: a
    /// claimed route is checked against it before anything changes. Nil when opening
    /// would make a new instance, or join one still opening.
    package func openTarget(_ scene: String, value: JSONValue?) -> Result<InstanceID?, RegistryRejection> {
        switch resolveOpen(scene, value: value) {
        case .failure(let rejection): return .failure(rejection)
        case .success(.existing(let id)) where records[id]?.phase != .opening: return .success(id)
        case .success: return .success(nil)
        }
    }

    // MARK: Presenting

    /// The intent that shows `route` as `kind`.
    package static func intent<R: Route>(_ route: R, as kind: RouteStepKind) -> FlowIntent<R> {
        switch kind {
        case .push: return .push(route)
        case .sheet: return .sheet(route)
        case .cover: return .cover(route)
        }
    }

    /// Why presenting `route` as `kind` in instance `id`, whose flow is `flow`, is refused;
    /// nil when it would be applied.
    ///
    /// - A sheet or cover whose route is already shown or queued as a modal there is
    ///   refused `presentation_busy`: a route asked for twice shows once.
    /// - Otherwise the flow's own rules decide, tried on a copy (a push over a modal is
    ///   `push_blocked_by_modal_tail`).
    package static func presentationProblem<R: Route>(
        _ route: R, as kind: RouteStepKind, in flow: FlowStore<R>, of id: InstanceID
    ) -> RegistryRejection? {
        if kind != .push {
            let shown = flow.modal.map { [$0] } ?? []
            if (shown + flow.queuedModals).contains(where: { $0.route == route }) { return .presentationBusy(id) }
        }
        var trial = flow
        return trial.send(intent(route, as: kind)).rejection.map { .flow($0) }
    }
}
