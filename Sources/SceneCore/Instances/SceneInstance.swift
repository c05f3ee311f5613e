public import SceneFlow
public import SceneJSON

/// One open window, volume or immersive space: an actor that owns its navigation flow.
///
/// - Its id, declaration and value never change; its phase is set by its registry.
/// - Flow requests answer `FlowOutcome`s as `FlowStore` does; every change of path is
///   a `flow.changed` event on the registry's stream, and every rejection a
///   `request.rejected` event.
/// - Once dismissed, every request throws ``RegistryRejection/instanceNotOpen(_:)``.
/// - It runs on its registry's executor, so the registry can act on it and on other
///   instances in one step.
public actor SceneInstance<R: Route> {
    /// `<scene>-<n>`.
    public nonisolated let id: InstanceID
    /// The scene it is an instance of.
    public nonisolated let declaration: SceneDeclaration<R>
    /// The value it was opened with (per-value scenes), if any.
    public nonisolated let value: JSONValue?
    /// Where it is in its life.
    public internal(set) var phase: ScenePhase = .opening
    /// Its navigation flow.
    @usableFromInline var flow = FlowStore<R>()
    /// What the server of this instance keeps beside it from one request to the next (a
    /// coordinator: the text of the path it last answered with), released with it.
    package var servedMemo: AnyObject?

    @usableFromInline nonisolated let executor: RegistryExecutor
    private nonisolated let log: RegistryEventLog<R>

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unowned }

    init(
        id: InstanceID, declaration: SceneDeclaration<R>, value: JSONValue?, executor: RegistryExecutor,
        log: RegistryEventLog<R>
    ) {
        self.id = id
        self.declaration = declaration
        self.value = value
        self.executor = executor
        self.log = log
    }

    /// The visible path.
    @inlinable public var path: [RouteStep<R>] { flow.path }

    /// The modals queued behind the visible one.
    @inlinable public var queuedModals: [RouteStep<R>] { flow.queuedModals }

    /// Applies one intent (see `FlowStore.send(_:)`); `by` says who asked, for the
    /// `flow.changed` event's cause.
    @_specialize(where R == JSONValue)
    @discardableResult
    public func send(_ intent: FlowIntent<R>, by source: FlowCause.Source = .control) throws(RegistryRejection)
        -> FlowOutcome<R>
    {
        try ensureOpen(for: "flow.send")
        return perform(intent, request: "flow.send", by: source)
    }

    /// Resets the path to `plan`, atomically.
    @discardableResult
    public func apply(_ plan: FlowPlan<R>, by source: FlowCause.Source = .control) throws(RegistryRejection)
        -> FlowOutcome<R>
    {
        try apply(steps: plan.steps, by: source)
    }

    /// Resets the path to `steps`, atomically; steps that break the modal rule are
    /// rejected `invalid_plan` (`FlowRejection.invalidPlan`), as a `reset` intent is.
    @_specialize(where R == JSONValue)
    @discardableResult
    public func apply(steps: [RouteStep<R>], by source: FlowCause.Source = .control) throws(RegistryRejection)
        -> FlowOutcome<R>
    {
        try ensureOpen(for: "flow.apply")
        return perform(.reset(steps), request: "flow.apply", by: source, naming: false)
    }

    /// Applies a batch (see `FlowStore.batch(_:stopOnFailure:)`): one `flow.changed`.
    @_specialize(where R == JSONValue)
    @discardableResult
    public func batch(
        _ intents: [FlowIntent<R>], stopOnFailure: Bool = false, by source: FlowCause.Source = .control
    ) throws(RegistryRejection) -> FlowBatchResult<R> {
        try ensureOpen(for: "flow.batch")
        let before = (flow.path, flow.queuedModals)
        let result = flow.batch(intents, stopOnFailure: stopOnFailure)
        for case .rejected(let reason) in result.outcomes {
            log.emit(.requestRejected(request: "flow.batch", reason: .flow(reason)))
        }
        publishChange(since: before, cause: FlowCause(by: source))
        return result
    }

    /// Applies a transaction (see `FlowStore.transaction(_:)`): all or nothing.
    @_specialize(where R == JSONValue)
    @discardableResult
    public func transaction(_ intents: [FlowIntent<R>], by source: FlowCause.Source = .control) throws(RegistryRejection)
        -> FlowTransactionOutcome<R>
    {
        try ensureOpen(for: "flow.transaction")
        let before = (flow.path, flow.queuedModals)
        let outcome = flow.transaction(intents)
        if case .failed(_, _, let reason) = outcome {
            log.emit(.requestRejected(request: "flow.transaction", reason: .flow(reason)))
        }
        // Follow-ups that middleware queued may have moved the path past the commit.
        publishChange(since: before, cause: FlowCause(by: source))
        return outcome
    }

    /// Reconciles the path with `observed`, the path a UI toolkit shows after changing its
    /// stack itself.
    ///
    /// - Equal paths answer `unchanged` under either policy.
    /// - `adopt`: the difference becomes the fewest intents
    ///   (`FlowReconciliation.intents(from:to:)`), applied all together as one change with
    ///   cause `reconcile`; a rule that refuses one of them refuses them all (nothing
    ///   changes; the flow's reason). A modal shown in place of one dismissed is the next
    ///   queued one, if any: the result's path says what shows.
    /// - `reject`: a different path is ``RegistryRejection/pathMismatch(expected:observed:)``.
    /// - An `observed` path that breaks the modal rule is `invalid_plan`.
    public func reconcile(to observed: [RouteStep<R>], policy: ReconcilePolicy) throws(RegistryRejection)
        -> ReconcileResult<R>
    {
        try ensureOpen(for: "flow.reconcile")
        if let problem = FlowPlan.problem(in: observed) { throw rejected(.flow(.invalidPlan(problem))) }
        guard observed != flow.path else { return ReconcileResult(outcome: .unchanged, path: flow.path, intents: []) }
        switch policy {
        case .reject:
            throw rejected(.pathMismatch(expected: Self.json(flow.path), observed: Self.json(observed)))
        case .adopt:
            let intents = FlowReconciliation.intents(from: flow.path, to: observed)
            let before = (flow.path, flow.queuedModals)
            let outcome = flow.transaction(intents)
            // All or nothing: a refused transaction changed nothing.
            if case .failed(_, _, let reason) = outcome { throw rejected(.flow(reason)) }
            publishChange(since: before, cause: FlowCause(by: .reconcile))
            return ReconcileResult(outcome: .changed, path: flow.path, intents: intents)
        }
    }

    /// A path as the wire carries it (null if a route cannot be encoded).
    private static func json(_ path: [RouteStep<R>]) -> JSONValue {
        (try? JSONValue(encoding: path)) ?? .null
    }

    /// Publishes a refusal of flow.reconcile and answers it, to be thrown.
    private func rejected(_ reason: RegistryRejection) -> RegistryRejection {
        log.emit(.requestRejected(request: "flow.reconcile", reason: reason))
        return reason
    }

    /// Appends a middleware to the flow's chain.
    @discardableResult
    public func addMiddleware(_ middleware: some FlowMiddleware<R>) -> MiddlewareHandle {
        flow.addMiddleware(middleware)
    }

    /// Restores the flow from a snapshot (used by registry restore).
    func restoreFlow(_ snapshot: FlowSnapshot<R>) throws(FlowRestoreError) {
        try flow.restore(snapshot)
    }

    /// Marks the instance closed; later requests fail.
    func close() {
        phase = .closed
    }

    /// Applies `intent` and publishes what it did: a rejection as `request.rejected`,
    /// and the path — after any follow-ups middleware queued — as one `flow.changed` when
    /// it changed, or `flow.queued` for a modal queued. `naming`: whether the cause names
    /// the intent (a plan reset through `flow.apply` is no intent of the caller's).
    func perform(_ intent: FlowIntent<R>, request: String, by source: FlowCause.Source, naming: Bool = true) -> FlowOutcome<R> {
        guard flow.hasMiddleware else {
            // No follow-ups: the outcome says what moved, without comparing the paths (a
            // cost that grows with the path's depth).
            let outcome = flow.send(intent)
            switch outcome {
            case .changed:
                let cause = FlowCause(by: source, intent: naming ? intent.name : nil)
                log.emit(.flowChanged(id, path: flow.path, queue: flow.queuedModals, cause: cause))
            case .queued(let step):
                log.emit(.flowQueued(id, step: step, queue: flow.queuedModals))
            case .rejected(let reason):
                log.emit(.requestRejected(request: request, reason: .flow(reason)))
            case .unchanged:
                break
            }
            return outcome
        }
        let before = (flow.path, flow.queuedModals)
        let outcome = flow.send(intent)
        if case .rejected(let reason) = outcome {
            log.emit(.requestRejected(request: request, reason: .flow(reason)))
        }
        publishChange(since: before, cause: FlowCause(by: source, intent: naming ? intent.name : nil))
        return outcome
    }

    /// Publishes how the flow moved on from `before` (path, queue): `flow.changed` when
    /// the path changed, or the queue changed other than by modals added at its end; then
    /// one `flow.queued` per modal added at its end, with the queue as it stood after it.
    func publishChange(since before: ([RouteStep<R>], [RouteStep<R>]), cause: FlowCause) {
        let (path, queue) = (flow.path, flow.queuedModals)
        let appended = queue.count >= before.1.count && queue.starts(with: before.1)
        if path != before.0 || !appended {
            log.emit(.flowChanged(id, path: path, queue: queue, cause: cause))
        }
        guard appended else { return }
        // Each with the queue as it stood once that modal was queued.
        for index in before.1.count..<queue.count {
            log.emit(.flowQueued(id, step: queue[index], queue: Array(queue[...index])))
        }
    }

    private func ensureOpen(for request: String) throws(RegistryRejection) {
        guard phase == .closed else { return }
        let reason = RegistryRejection.instanceNotOpen(id)
        log.emit(.requestRejected(request: request, reason: reason))
        throw reason
    }
}
