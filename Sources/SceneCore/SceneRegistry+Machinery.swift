import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// Opens by policy, as far as it goes now; joins an instance that is still opening.
    ///
    /// - `plan`, when given, becomes the path of a new instance before it is announced
    ///   (a deep link's target opens already showing its path).
    /// - A new instance of a scene that requires others opens after them (see
    ///   ``SceneDeclaration/requires``); `requirementsOpened` says that was done already.
    /// - `reopened`: the new instance's `opened` event says it was reopened.
    func openStep(
        _ scene: String, value: JSONValue?, plan: FlowPlan<R>? = nil, reopened: Bool = false, requirementsOpened: Bool = false
    ) throws(RegistryRejection) -> RegistryStep<R, OpenOutcome<R>> {
        switch try book.resolveOpen(scene, value: value).get() {
        case .existing(let id):
            if book.records[id]?.phase == .opening {
                return afterOpening(id) { registry throws(RegistryRejection) in .focused(try registry.info(id)) }
            }
            book.focusVisible(id)
            flush()
            return .done(.success(.focused(try info(id))))
        case .new(let id, let replacing):
            // The scenes it requires open first (each by its own rules), then it.
            let missing = requirementsOpened ? [] : (declarationsByID[scene]?.requires ?? []).filter { book.instances(of: $0).isEmpty }
            if !missing.isEmpty {
                return .waiting(RegistryWait { registry in
                    // Each once, whatever happens to it meanwhile: no loop, one rejection event.
                    do throws(RegistryRejection) {
                        for required in missing where registry.book.instances(of: required).isEmpty {
                            if case .failure(let reason) = await registry.finish(try registry.openStep(required, value: nil)) {
                                return .failure(reason)
                            }
                        }
                        return await registry.finish(
                            try registry.openStep(scene, value: value, plan: plan, reopened: reopened, requirementsOpened: true))
                    } catch {
                        return .failure(error)
                    }
                })
            }
            if let replacing { remove(replacing, reason: .replaced) }
            if reopened { reopening.insert(id) }
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
    func perform(
        _ intent: FlowIntent<R>, in id: InstanceID, request: String, by source: FlowCause.Source, naming: Bool = true
    ) -> FlowOutcome<R>? {
        instances[id]?.assumeIsolated { $0.perform(intent, request: request, by: source, naming: naming) }
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
        // What closes, before the bookkeeping forgets it: the instance and the windows
        // pushed from it, with their values (an instance still opening never showed).
        var values: [InstanceID: JSONValue?] = [:]
        var next: InstanceID? = id
        while let current = next, let record = book.records[current] {
            if record.phase != .opening, reason != .cancelled { values[current] = record.value }
            next = record.pushedChild
        }
        let dismissed = book.dismiss(id, reason: reason)
        for gone in dismissed {
            styles[gone] = nil
            reopening.remove(gone)
            if let instance = instances.removeValue(forKey: gone) {
                if let value = values[gone] { remember(gone, value: value, flow: instance.assumeIsolated { $0.flow.snapshot }) }
                instance.assumeIsolated { $0.close() }
            }
            for waiter in openingWaiters.removeValue(forKey: gone) ?? [] {
                waiter.resolve(.failure(failure ?? .cancelled(gone)))
            }
            if let launcher = backing(of: gone) { Task { await launcher.stop(gone) } }
        }
        flush()
        endPresentations(after: dismissed)
        return dismissed
    }

    /// Publishes what the bookkeeping recorded, in order.
    func flush() {
        for event in book.takeEvents() {
            switch event {
            case .opened(let id):
                instances[id]?.assumeIsolated { $0.phase = .active }
                guard let info = infoIfOpen(id) else { continue }
                log.emit(reopening.remove(id) == nil ? .opened(info) : .reopened(info))
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
