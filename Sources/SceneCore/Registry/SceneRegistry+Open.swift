import SceneFlow
package import SceneJSON
import SceneSync

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
        switch try inspect({ $0.openAction(scene, value: value) }).get() {
        case .join(let id):
            target?(self, id)
            return afterOpening(id) { registry throws(RegistryRejection) in
                // Gone since it became active: the reopen fails, its entry kept.
                let info = try registry.info(id)
                if let entry { registry.focusReopened(id, entry: entry) }
                return .focused(info)
            }
        case .focus(let id):
            target?(self, id)
            if let entry {
                focusReopened(id, entry: entry)
            } else {
                book.focusVisible(id)
                flush()
            }
            return .done(.success(.focused(try info(id))))
        case .open(let id, let replacing):
            if !requirementsOpened, book.requirements.requires[scene] != nil, let first = openingRequirements(of: scene, then: { registry throws(RegistryRejection) in
                try registry.openStep(scene, value: value, plan: plan, reopening: entry, requirementsOpened: true, target: target)
            }) {
                return first
            }
            if let replacing { remove(replacing.id, reason: replacing.reason, withDependents: replacing.takesDependents) }
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
        let missing = book.missingRequirements(of: scene)
        guard !missing.isEmpty else { return nil }
        return .waiting(RegistryWait { registry in
            // Each once, whatever happens to it meanwhile: no loop, one rejection event.
            do throws(RegistryRejection) {
                for required in missing {
                    let ready: Result<Void, RegistryRejection>
                    switch registry.book.requirementAction(required) {
                    case .up: continue
                    case .join(let opening): ready = await registry.finish(registry.afterOpening(opening) { _ in })
                    case .open: ready = await registry.finish(try registry.openStep(required, value: nil)).map { _ in }
                    }
                    if case .failure(let reason) = ready { return .failure(reason) }
                }
                if let gone = registry.book.goneRequirement(of: scene) { return .failure(.notOpen(gone)) }
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

    /// Gives an instance that is not announced yet its first path, without an event: its
    /// `scene.opened` event will carry the path.
    func preset(_ plan: FlowPlan<R>, for id: InstanceID) {
        if let instance = instances[id] { entering(instance) { _ = $0.flow.send(.reset(plan.steps)) } }
    }

    /// An opening instance is ready: active, focused, announced, and its waiters answered.
    func activate(_ id: InstanceID) {
        book.activate(id)
        flush()
        for waiter in openingWaiters.removeValue(forKey: id) ?? [] { waiter.resolve(.success(())) }
    }

    /// Opens `scene` with `value`, by its instance policy.
    ///
    /// - `single`: the one instance (its own value kept); `perValue`: one per value;
    ///   `multiple`: a new one each time, up to its maximum.
    /// - Immersive spaces: at most one open; another one is refused
    ///   `immersive_space_busy` (policy `reject`) or replaces it (policy `replace`).
    @_specialize(where R == JSONValue)
    @discardableResult
    package func open(_ scene: String, value: JSONValue? = nil) async throws(RegistryRejection) -> OpenOutcome<R> {
        try await finish(beginOpen(scene, value: value)).get()
    }

    /// ``open(_:value:)`` as far as it goes now: done, unless the instance is still
    /// opening or what backs a new one must start.
    @_specialize(where R == JSONValue)
    package func beginOpen(_ scene: String, value: JSONValue? = nil) -> RegistryStep<R, OpenOutcome<R>> {
        step("scene.open") { () throws(RegistryRejection) in try openStep(scene, value: value) }
    }

    /// Opens `scene` in place of window `from`, as visionOS's `pushWindow` does.
    ///
    /// - `from` goes to the background until the pushed window is dismissed.
    /// - The scenes `scene` requires open first, as for ``open(_:value:)``.
    /// - Refused `not_a_window`, `push_from_pushed_window`, `covered_by_pushed_window`,
    ///   or `already_open` when the target resolves to an open instance.
    @discardableResult
    package func push(_ scene: String, value: JSONValue? = nil, from: InstanceID) async throws(RegistryRejection)
        -> InstanceInfo<R>
    {
        try await finish(beginPush(scene, value: value, from: from)).get()
    }

    /// ``push(_:value:from:)`` as far as it goes now: done, unless what backs the pushed
    /// window must start.
    @_specialize(where R == JSONValue)
    package func beginPush(_ scene: String, value: JSONValue? = nil, from: InstanceID) -> RegistryStep<R, InstanceInfo<R>> {
        step("scene.push") { () throws(RegistryRejection) in try pushStep(scene, value: value, from: from) }
    }

    /// Pushes as far as it goes now; `requirementsOpened` says the scenes `scene` requires
    /// were opened already.
    private func pushStep(_ scene: String, value: JSONValue?, from: InstanceID, requirementsOpened: Bool = false)
        throws(RegistryRejection) -> RegistryStep<R, InstanceInfo<R>>
    {
        // Checked before any requirement opens, and again after.
        let id = try book.resolvePush(scene, value: value, from: from).get()
        if !requirementsOpened, book.requirements.requires[scene] != nil, let first = openingRequirements(of: scene, then: { registry throws(RegistryRejection) in
            try registry.pushStep(scene, value: value, from: from, requirementsOpened: true)
        }) {
            return first
        }
        reserve(id, value: value, pushedFrom: from)
        if startLaunch(id) { return .done(.success(try info(id))) }
        return afterOpening(id) { registry throws(RegistryRejection) in try registry.info(id) }
    }
}
