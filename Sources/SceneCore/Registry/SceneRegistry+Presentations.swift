public import SceneFlow
public import SceneJSON

/// What a presented instance answered: the instance as it was when it finished, and its
/// result.
public struct PresentOutcome<R: Route>: Hashable, Sendable {
    /// The presented instance, as it was when it finished (it is dismissed right after).
    public let instance: InstanceInfo<R>
    /// What it finished with.
    public let result: JSONValue

    /// An outcome from its members.
    public init(instance: InstanceInfo<R>, result: JSONValue) {
        self.instance = instance
        self.result = result
    }
}

/// One request's wait for a presented instance's result, or why it went without one.
typealias PresentationWait<R: Route> = RegistryPromise<Result<PresentOutcome<R>, RegistryRejection>>

extension SceneRegistry {
    /// Opens `scene` (or focuses the instance its policy picks) from instance `from`, and
    /// waits for that instance to finish (``finish(_:result:)``): answers it, as it was,
    /// with its result; it is dismissed then.
    ///
    /// - Throws: what opening throws; `not_open` when `from` is not open;
    ///   `dismissed_without_result` when the presented instance is dismissed before it
    ///   finishes; `parent_dismissed` when `from` is dismissed first (the presented
    ///   instance is told — ``SceneBehavior/parentDismissed()`` in process,
    ///   `scene.parent_dismissed` to a process — and dismissed).
    package func present(_ scene: String, value: JSONValue? = nil, from: InstanceID) async throws(RegistryRejection)
        -> PresentOutcome<R>
    {
        try await finish(beginPresent(scene, value: value, from: from)).get()
    }

    /// ``present(_:value:from:)`` as far as it goes now: it waits, at least for the result.
    @_specialize(where R == JSONValue)
    package func beginPresent(_ scene: String, value: JSONValue? = nil, from: InstanceID) -> RegistryStep<R, PresentOutcome<R>> {
        step("scene.present") { () throws(RegistryRejection) in
            guard instances[from] != nil, let record = book.records[from], record.phase != .opening else {
                throw .instanceNotOpen(from)
            }
            // The wait is registered on the instance the open lands on, as soon as that is
            // known and before it can be active: a finish that comes as soon as it is active
            // (before this request's rest runs) finds it.
            let wait = PresentationWait<R>()
            let opening: RegistryStep<R, OpenOutcome<R>>
            do throws(RegistryRejection) {
                opening = try openStep(scene, value: value) { registry, target in
                    registry.presentations.await(wait, on: target, from: from)
                }
            } catch {
                presentations.forget(wait)
                throw error
            }
            switch opening {
            case .done(let result):
                return presentRest(after: result, wait: wait, from: from)
            case .waiting(let opened):
                return .waiting(RegistryWait { registry in
                    await registry.finish(registry.presentRest(after: await opened.rest(registry), wait: wait, from: from))
                })
            }
        }
    }

    /// What a presentation does once its open is over: the wait's answer when it has one
    /// already (it finished, or its presenter went, as soon as it was active, or while it
    /// was opening); else the open's refusal; else the wait.
    private func presentRest(
        after opened: Result<OpenOutcome<R>, RegistryRejection>, wait: PresentationWait<R>, from: InstanceID
    ) -> RegistryStep<R, PresentOutcome<R>> {
        if let answer = wait.answer {
            presentations.forget(wait)
            return .done(answer)
        }
        if case .failure(let reason) = opened {
            presentations.forget(wait)
            return .done(.failure(reason))
        }
        // The presenter went while the instance was opening: it goes too.
        if instances[from] == nil { endPresentations(after: [from]) }
        return .waiting(RegistryWait { _ in await wait.wait() })
    }

    /// Ends the presentation of `id` with `result`: every request awaiting it is answered,
    /// `scene.finished` is published, and `id` is dismissed.
    ///
    /// - Throws: `not_presented` when nobody awaits `id`'s result.
    package func finish(_ id: InstanceID, result: JSONValue) throws(RegistryRejection) {
        try rejectingSync("scene.finish") { (self) throws(RegistryRejection) in
            let (presentation, info) = try self.presentations.finish(id, as: self.infoIfOpen(id)).get()
            self.log.emit(.finished(id, result: result))
            self.remove(id, reason: .requested)
            for waiter in presentation.waiters { waiter.resolve(.success(PresentOutcome(instance: info, result: result))) }
        }
    }

    /// After `gone` were dismissed: a presentation of one of them ends
    /// `dismissed_without_result`; an instance presented from one of them is told, its
    /// presentation ends `parent_dismissed`, and it is dismissed.
    func endPresentations(after gone: [InstanceID]) {
        guard !presentations.isEmpty else { return }
        let (withoutResult, orphans) = presentations.end(after: gone)
        for (waiter, reason) in withoutResult { waiter.resolve(.failure(reason)) }
        for presented in orphans {
            guard let presentation = presentations.take(presented) else { continue }
            tellParentDismissed(presented, then: presentation)
        }
    }

    /// Tells `id` its presenter was dismissed, dismisses it, then ends the presentation's
    /// waits `parent_dismissed`: an in-process behaviour hears it before its stop; a
    /// process gets `scene.parent_dismissed` before its close.
    private func tellParentDismissed(_ id: InstanceID, then presentation: PresentationBook<PresentationWait<R>>.Presentation) {
        func finish(_ registry: isolated SceneRegistry) {
            // Dismissed by then for another reason, or presented anew: nothing more to do here.
            if registry.presentations.dismissesOrphan(id, isOpen: registry.instances[id] != nil) {
                registry.remove(id, reason: .parentDismissed)
            }
            let answer = PresentationBook<PresentationWait<R>>.orphaned(presentation)
            for waiter in presentation.waiters { waiter.resolve(.failure(answer)) }
        }
        switch placements[id.scene] {
        case .inProcess:
            host?.tellParentDismissed(id)
        case .process:
            if let processes {
                Task {
                    try? await processes.notify(SceneCall(method: "scene.parent_dismissed"), on: id)
                    finish(self)
                }
                return
            }
        case .virtual, nil:
            break
        }
        finish(self)
    }
}
