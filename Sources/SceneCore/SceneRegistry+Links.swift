public import SceneFlow
import SceneLinks

/// What a deep link did.
public enum LinkOutcome<R: Route>: Hashable, Sendable {
    /// The link landed in `instance` (opened for it when `opened`), with its path.
    case handled(InstanceInfo<R>, opened: Bool)
    /// The link waits for authentication; `superseded` is the pending URL it replaced.
    case pending(url: String, superseded: String?)
    /// The link was refused.
    case rejected(RegistryRejection)
    /// No pattern matches the URL's normalised path.
    case unhandled(path: String)

    /// `handled`, `pending`, `rejected` or `unhandled`.
    public var name: String {
        switch self {
        case .handled: return "handled"
        case .pending: return "pending"
        case .rejected: return "rejected"
        case .unhandled: return "unhandled"
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
    public func openLink(_ url: String) async -> LinkOutcome<R> {
        let decision = links.open(url)
        return await apply(decision, url: url)
    }

    /// Turns authentication on or off. Turning it on replays the pending link, re-checked,
    /// and answers what the replay did; `nil` when nothing was replayed — nothing was
    /// pending, or a link newer than the pending one was handled meanwhile (the pending
    /// one is then dropped and reported as `link.superseded`).
    public func setAuthenticated(_ authenticated: Bool) async -> LinkOutcome<R>? {
        let before = links.isAuthenticated
        let resume = links.setAuthenticated(authenticated)
        if links.isAuthenticated != before { log.emit(.authChanged(authenticated: authenticated)) }
        guard let token = resume else { return nil }
        switch links.resume(token) {
        case .replayed(let decision):
            return await apply(decision, url: token.pending.url)
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

    private func apply(_ decision: LinkDecision<SceneLinkTarget<R>>, url: String) async -> LinkOutcome<R> {
        switch decision {
        case .pending(let link, let superseded):
            if let superseded { log.emit(.linkSuperseded(url: superseded.url)) }
            log.emit(.linkPending(url: link.url))
            return .pending(url: link.url, superseded: superseded?.url)
        case .rejected(let reason):
            return rejected(url, .link(reason))
        case .unhandled(let parsed):
            log.emit(.linkRejected(url: url, reason: .linkUnhandled(path: parsed.path)))
            return .unhandled(path: parsed.path)
        case .handled(let match):
            do {
                let (info, opened) = try await land(match.output)
                log.emit(.linkHandled(url: url, instance: info.id, opened: opened))
                return .handled(info, opened: opened)
            } catch {
                return rejected(url, error)
            }
        }
    }

    private func rejected(_ url: String, _ reason: RegistryRejection) -> LinkOutcome<R> {
        log.emit(.linkRejected(url: url, reason: reason))
        return .rejected(reason)
    }

    /// Finds or opens the target instance, applies the plan, and focuses it — in that
    /// order: a new instance is announced already showing the plan's path.
    private func land(_ target: SceneLinkTarget<R>) async throws(RegistryRejection) -> (InstanceInfo<R>, Bool) {
        guard let declaration = declarationsByID[target.scene] else { throw .unknownScene(target.scene) }
        var id: InstanceID
        var existing: InstanceID?
        if case .multiple = declaration.instances {
            existing = book.mostRecent(of: target.scene)
        } else if case .existing(let found) = try book.resolveOpen(target.scene, value: target.value).get() {
            existing = found
        }
        if let found = existing {
            id = found
            if book.records[id]?.phase == .opening { try await waitUntilOpen(id) }
            if let plan = target.plan, case .rejected(let reason)? = perform(.reset(plan.steps), in: id, request: "link.open") {
                throw .flow(reason)
            }
            book.focusVisible(id)
            flush()
            return (try info(id), false)
        }
        let outcome = try await openResolved(target.scene, value: target.value, plan: target.plan)
        id = outcome.instance.id
        return (try info(id), outcome.name == "opened")
    }
}
