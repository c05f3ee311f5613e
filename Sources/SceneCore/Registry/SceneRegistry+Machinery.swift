import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// Opens by policy, as far as it goes now; joins an instance that is still opening.
    ///
    /// - `plan`, when given, becomes the path of a new instance before it is announced
    ///   (a deep link's target opens already showing its path).
    /// - A new instance of a scene that requires others opens after them (see
    ///   ``SceneDeclaration/requires``); `requirementsOpened` says that was done already.
    /// - `reopening`: the dismissed instance whose kept entry this open reopens; the new
    ///   instance's `opened` event says it was reopened, or the instance found open is
    ///   focused and then named by ``RegistryEvent/refocused(_:entry:)``.
    /// - `target`, when given, learns the instance the open lands on as soon as it is known
    ///   (reserved, or found open), before it can become active.
    func openStep(
        _ scene: String, value: JSONValue?, plan: FlowPlan<R>? = nil, reopening entry: InstanceID? = nil, requirementsOpened: Bool = false,
        target: (@Sendable (isolated SceneRegistry, InstanceID) -> Void)? = nil
    ) throws(RegistryRejection) -> RegistryStep<R, OpenOutcome<R>> {
        switch try book.resolveOpen(scene, value: value).get() {
        case .existing(let id):
            target?(self, id)
            if book.records[id]?.phase == .opening {
                return afterOpening(id) { registry throws(RegistryRejection) in
                    // Gone since it became active: the reopen fails, its entry kept.
                    let info = try registry.info(id)
                    if let entry { registry.focusReopened(id, entry: entry) }
                    return .focused(info)
                }
            }
            if let entry {
                focusReopened(id, entry: entry)
            } else {
                book.focusVisible(id)
                flush()
            }
            return .done(.success(.focused(try info(id))))
        case .new(let id, let replacing):
            if !requirementsOpened, book.requirements.requires[scene] != nil, let first = openingRequirements(of: scene, then: { registry throws(RegistryRejection) in
                try registry.openStep(scene, value: value, plan: plan, reopening: entry, requirementsOpened: true, target: target)
            }) {
                return first
            }
            // Replaced by another instance of its own scene, it leaves the scene open.
            if let replacing { remove(replacing, reason: .replaced, withDependents: replacing.scene != scene) }
            if let entry { reopenList.reopening(id, from: entry) }
            target?(self, id)
            reserve(id, value: value, pushedFrom: nil)
            if let plan { preset(plan, for: id) }
            if startLaunch(id) { return .done(.success(.opened(try info(id)))) }
            return afterOpening(id) { registry throws(RegistryRejection) in .opened(try registry.info(id)) }
        }
    }

    /// The scenes `scene` requires that have no instance past its opening, opened first
    /// (each by its own rules; one already opening is waited for, not doubled), then the
    /// step `next` makes, in the same turn as the check that every one is still up (else
    /// `not_open` with the scene that went); nil when none is missing.
    func openingRequirements<T>(
        of scene: String, then next: @escaping @Sendable (isolated SceneRegistry) throws(RegistryRejection) -> RegistryStep<R, T>
    ) -> RegistryStep<R, T>? {
        let requires = book.requirements.requires[scene] ?? []
        let missing = book.missingRequirements(of: scene)
        guard !missing.isEmpty else { return nil }
        return .waiting(RegistryWait { registry in
            // Each once, whatever happens to it meanwhile: no loop, one rejection event.
            do throws(RegistryRejection) {
                for required in missing where !registry.book.isUp(required) {
                    let ready: Result<Void, RegistryRejection>
                    if let opening = registry.book.instances(of: required).first {
                        ready = await registry.finish(registry.afterOpening(opening) { _ in })
                    } else {
                        ready = await registry.finish(try registry.openStep(required, value: nil)).map { _ in }
                    }
                    if case .failure(let reason) = ready { return .failure(reason) }
                }
                // One may have gone while another opened: the scene does not open without it.
                if let gone = requires.first(where: { !registry.book.isUp($0) }) { return .failure(.notOpen(gone)) }
                return await registry.finish(try next(registry))
            } catch {
                return .failure(error)
            }
        })
    }

    /// A reopen found `id` open: it is focused by the usual rules (with a `focused` event
    /// when focus moves), then ``RegistryEvent/refocused(_:entry:)`` says the reopen took
    /// `entry`, so that a journal replay takes the entry out too.
    func focusReopened(_ id: InstanceID, entry: InstanceID) {
        guard book.records[id] != nil else { return }
        book.focusVisible(id)
        flush()
        log.emit(.refocused(id, entry: entry))
        reopenList.announced(entry)
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
    ///
    /// - Unless `withDependents` is false, the instances that go with it go first
    ///   (`RegistryBook.dependentRemovals(leaving:)`: reason `requirement_dismissed`, or
    ///   `cancelled` for one still opening), so a scene that requires others is open only
    ///   while they are.
    @discardableResult
    func remove(
        _ id: InstanceID, reason: DismissReason, answering failure: RegistryRejection? = nil, withDependents: Bool = true
    ) -> [InstanceID] {
        // (A manifest without requirements pays one emptiness check.)
        let earlier = withDependents && !book.requirements.isEmpty ? carryOut(book.dependentRemovals(leaving: [id])) : []
        // What closes, before the bookkeeping forgets it: the instance and the windows
        // pushed from it, with their values (an instance still opening never showed).
        var values: [InstanceID: JSONValue?] = [:]
        var next: InstanceID? = id
        while let current = next, let record = book.records[current] {
            if ReopenList<R>.keeps(phase: record.phase, reason: reason) { values[current] = record.value }
            next = record.pushedChild
        }
        let dismissed = book.dismiss(id, reason: reason)
        for gone in dismissed {
            styles[gone] = nil
            reopenList.forget(gone)
            if let instance = instances.removeValue(forKey: gone) {
                if let value = values[gone] {
                    reopenList.keep(InstanceSnapshot(
                        id: gone, value: value, phase: .closed, flow: instance.assumeIsolated { $0.flow.snapshot }, pushedFrom: nil))
                }
                instance.assumeIsolated { $0.close() }
            }
            for waiter in openingWaiters.removeValue(forKey: gone) ?? [] {
                waiter.resolve(.failure(failure ?? .cancelled(gone)))
            }
            if let launcher = backing(of: gone) { Task { await launcher.stop(gone) } }
        }
        flush()
        endPresentations(after: dismissed)
        return earlier.isEmpty ? dismissed : earlier + dismissed
    }

    /// Carries out a removal plan the rules made, in its order: each instance still open
    /// when its turn comes (a window pushed from one removed before has gone with it) is
    /// removed for its reason, without dependents of its own (the plan lists them).
    /// Answers every instance dismissed, pushed windows included.
    @discardableResult
    func carryOut(_ plan: [Removal]) -> [InstanceID] {
        var dismissed: [InstanceID] = []
        for removal in plan where book.records[removal.id] != nil {
            dismissed += remove(removal.id, reason: removal.reason, withDependents: false)
        }
        return dismissed
    }

    /// Publishes what the bookkeeping recorded, in order.
    func flush() {
        for event in book.takeEvents() {
            switch event {
            case .opened(let id):
                instances[id]?.assumeIsolated { $0.phase = .active }
                guard let info = infoIfOpen(id) else { continue }
                if let entry = reopenList.announceOpened(id) {
                    log.emit(.reopened(info, entry: entry))
                } else {
                    log.emit(.opened(info))
                }
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
