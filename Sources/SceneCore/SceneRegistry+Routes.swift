public import SceneFlow

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
    public var name: String {
        switch self {
        case .presented: return "presented"
        case .opened: return "opened"
        case .focused: return "focused"
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
        try await rejecting("scene.route") { (self) async throws(RegistryRejection) in
            guard let instance = self.instances[from], let record = self.book.records[from], record.phase != .opening
            else { throw .notOpen(from.description) }
            for rule in instance.declaration.scope where rule.when.matches(route) {
                switch rule.action {
                case .present(let kind):
                    return .presented(try self.present(route, as: kind, in: from))
                case .reject(let reason):
                    throw .routeRejected(detail: reason)
                case .pass:
                    break
                }
                break
            }
            return try await self.routeToClaim(route)
        }
    }

    /// Opens the first scene that claims `route` and presents it there.
    private func routeToClaim(_ route: R) async throws(RegistryRejection) -> RouteOutcome<R> {
        for declaration in declarations {
            guard let claim = declaration.claims.first(where: { $0.when.matches(route) }) else { continue }
            var value: JSONValue?
            if declaration.instances == .perValue {
                do {
                    value = try JSONValue(encoding: route)
                } catch {
                    throw .routeRejected(detail: "the route cannot serve as a value: \(error)")
                }
            }
            let opened = try await openResolved(declaration.id, value: value)
            let info = try present(route, as: claim.present, in: opened.instance.id)
            book.focusVisible(info.id)
            flush()
            let landed = try self.info(info.id)
            switch opened {
            case .opened: return .opened(landed)
            case .focused: return .focused(landed)
            }
        }
        throw .noHandler
    }

    /// Presents `route` in instance `id` as a push, sheet or cover.
    func present(_ route: R, as kind: RouteStepKind, in id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        guard let instance = instances[id] else { throw .notOpen(id.description) }
        let step = RouteStep(kind, route)
        let outcome = instance.assumeIsolated { instance -> Result<FlowOutcome<R>, RegistryRejection> in
            if step.isModal {
                let chain = (instance.flow.modal.map { [$0] } ?? []) + instance.flow.queuedModals
                if chain.contains(where: { $0.route == route }) { return .failure(.presentationBusy(id)) }
            }
            let intent: FlowIntent<R>
            switch kind {
            case .push: intent = .push(route)
            case .sheet: intent = .sheet(route)
            case .cover: intent = .cover(route)
            }
            let outcome = instance.flow.send(intent)
            if case .changed(_, let new) = outcome { self.log.emit(.flowChanged(id, path: new)) }
            return .success(outcome)
        }
        if case .rejected(let reason) = try outcome.get() { throw .flow(reason) }
        return try info(id)
    }
}
