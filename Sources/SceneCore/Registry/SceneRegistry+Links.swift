public import SceneFlow
import SceneJSON
import SceneLinks

/// What a deep link did.
public enum LinkOutcome<R: Route>: Hashable, Sendable {
    /// The link landed in `instance` (opened for it when `opened`), with its path.
    case handled(InstanceInfo<R>, opened: Bool)
    /// The link's mapping ran a program: what its steps did (a failing step included: the
    /// steps before it stay applied).
    case program(ProgramOutcome<R>)
    /// The link waits for authentication; `superseded` is the pending URL it replaced.
    case pending(url: String, superseded: String?)
    /// The link was refused.
    case rejected(RegistryRejection)
    /// No pattern matches the URL's normalised path.
    case unhandled(path: String)

    /// `handled`, `pending`, `rejected` or `unhandled`.
    public var name: OutcomeName {
        switch self {
        case .handled, .program: return .handled
        case .pending: return .pending
        case .rejected: return .rejected
        case .unhandled: return .unhandled
        }
    }
}

extension SceneRegistry {
    /// Opens a deep link across scenes, as visionOS's `handlesExternalEvents` does.
    ///
    /// Origin policy and limits → one matcher over every declaration's mappings → the
    /// target: an open instance of that declaration (single: it; per-value: the one with
    /// the link's value; multiple: the most recently focused) or else a new instance, by
    /// every open rule → the plan applied atomically → that instance focused.
    @_specialize(where R == JSONValue)
    public func openLink(_ url: String) async -> LinkOutcome<R> {
        await linkOutcome(beginLink(url))
    }

    /// ``openLink(_:)`` as far as it goes now: done, unless the target instance is still
    /// opening or must start.
    @_specialize(where R == JSONValue)
    package func beginLink(_ url: String) -> RegistryStep<R, LinkOutcome<R>> {
        apply(links.open(url), url: url)
    }

    /// Turns authentication on or off. Turning it on replays the pending link, re-checked,
    /// and answers what the replay did; `nil` when nothing was replayed — nothing was
    /// pending, or a link newer than the pending one was handled meanwhile (the pending
    /// one is then dropped and reported as `link.superseded`).
    public func setAuthenticated(_ authenticated: Bool) async -> LinkOutcome<R>? {
        guard let replay = beginSetAuthenticated(authenticated) else { return nil }
        return await linkOutcome(replay)
    }

    /// ``setAuthenticated(_:)`` as far as it goes now: nil when nothing is replayed,
    /// else the replay's step.
    package func beginSetAuthenticated(_ authenticated: Bool) -> RegistryStep<R, LinkOutcome<R>>? {
        let before = links.isAuthenticated
        let resume = links.setAuthenticated(authenticated)
        if links.isAuthenticated != before { log.emit(.authChanged(authenticated: authenticated)) }
        guard let token = resume else { return nil }
        switch links.resume(token) {
        case .replayed(let decision):
            return apply(decision, url: token.pending.url)
        case .stale(let superseded):
            if let superseded { log.emit(.linkSuperseded(url: superseded.url)) }
            return nil
        case .nothingPending:
            return nil
        }
    }

    /// Whether links that require authentication are handled now.
    public var isAuthenticated: Bool { links.isAuthenticated }

    /// The URL waiting for authentication, if any.
    public var pendingLink: String? { links.pending?.url }

    /// The outcome of a link step (a link's refusal is an outcome, never a failure).
    private func linkOutcome(_ step: RegistryStep<R, LinkOutcome<R>>) async -> LinkOutcome<R> {
        switch await finish(step) {
        case .success(let outcome): return outcome
        case .failure(let reason): return .rejected(reason)
        }
    }

    private func apply(_ decision: LinkDecision<SceneLinkTarget<R>>, url: String) -> RegistryStep<R, LinkOutcome<R>> {
        switch decision {
        case .pending(let link, let superseded):
            if let superseded { log.emit(.linkSuperseded(url: superseded.url)) }
            log.emit(.linkPending(url: link.url))
            return .done(.success(.pending(url: link.url, superseded: superseded?.url)))
        case .rejected(let reason):
            return .done(.success(rejected(url, .link(reason))))
        case .unhandled(let parsed):
            log.emit(.linkRejected(url: url, reason: .linkUnhandled(path: parsed.path)))
            return .done(.success(.unhandled(path: parsed.path)))
        case .handled(let match) where match.output.program != nil:
            return runLinkProgram(match.output.program!, url: url)
        case .handled(let match):
            let landing: RegistryStep<R, (InstanceInfo<R>, Bool)>
            do {
                landing = try land(match.output)
            } catch {
                return .done(.success(rejected(url, error)))
            }
            return then(landing) { registry, result in
                switch result {
                case .success(let (info, opened)):
                    registry.log.emit(.linkHandled(url: url, instance: info.id, opened: opened))
                    return .success(.handled(info, opened: opened))
                case .failure(let reason):
                    return .success(registry.rejected(url, reason))
                }
            }
        }
    }

    /// Runs a link's program. It is handled in the instance its last step that names one
    /// names (`link.handled`, `opened` when a step opened a new instance); a failing step
    /// is the link's refusal (`link.rejected`), the steps before it staying applied.
    private func runLinkProgram(_ steps: [ProgramStep<R>], url: String) -> RegistryStep<R, LinkOutcome<R>> {
        then(beginProgram(steps)) { registry, result in
            switch result {
            case .success(let outcome):
                if let failure = outcome.failure {
                    registry.log.emit(.linkRejected(url: url, reason: failure.reason))
                } else if let landing = outcome.linkLanding {
                    registry.log.emit(.linkHandled(url: url, instance: landing.instance, opened: landing.opened))
                }
                return .success(.program(outcome))
            case .failure(let reason):
                return .success(registry.rejected(url, reason))
            }
        }
    }

    private func rejected(_ url: String, _ reason: RegistryRejection) -> LinkOutcome<R> {
        log.emit(.linkRejected(url: url, reason: reason))
        return .rejected(reason)
    }

    /// Finds or opens the target instance, applies the plan, and focuses it — in that
    /// order: a new instance is announced already showing the plan's path.
    private func land(_ target: SceneLinkTarget<R>) throws(RegistryRejection) -> RegistryStep<R, (InstanceInfo<R>, Bool)> {
        let plan = target.plan
        switch try inspect({ $0.resolveLanding(target.scene, value: target.value) }).get() {
        case .join(let id): return afterOpening(id) { registry throws(RegistryRejection) in try registry.show(plan, in: id) }
        case .existing(let id): return .done(.success(try show(plan, in: id)))
        case .new: break
        }
        return thenOnSuccess(try openStep(target.scene, value: target.value, plan: target.plan)) { registry, outcome throws(RegistryRejection) in
            (try registry.info(outcome.instance.id), outcome.name == .opened)
        }
    }

    /// Shows a link's `plan` in the open instance `id` and focuses it.
    private func show(_ plan: FlowPlan<R>?, in id: InstanceID) throws(RegistryRejection) -> (InstanceInfo<R>, Bool) {
        if let plan, case .rejected(let reason)? = perform(.reset(plan.steps), in: id, request: "link.open", by: .link, naming: false) {
            throw .flow(reason)
        }
        book.focusVisible(id)
        flush()
        return (try info(id), false)
    }
}
