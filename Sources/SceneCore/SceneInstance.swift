public import SceneFlow

/// One open window, volume or immersive space: an actor that owns its navigation flow.
///
/// - Its id, declaration and value never change; its phase is set by its registry.
/// - Flow requests answer `FlowOutcome`s as ``FlowStore`` does; every change of path is
///   a `flow.changed` event on the registry's stream, and every rejection a
///   `request.rejected` event.
/// - Once dismissed, every request throws ``RegistryRejection/notOpen(_:)``.
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
    var flow = FlowStore<R>()

    private nonisolated let executor: RegistryExecutor
    private nonisolated let log: RegistryEventLog<R>

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

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
    public var path: [RouteStep<R>] { flow.path }

    /// The modals queued behind the visible one.
    public var queuedModals: [RouteStep<R>] { flow.queuedModals }

    /// Applies one intent (see ``FlowStore/send(_:)``).
    @discardableResult
    public func send(_ intent: FlowIntent<R>) throws(RegistryRejection) -> FlowOutcome<R> {
        try ensureOpen()
        return record(flow.send(intent), request: "flow.send")
    }

    /// Resets the path to `plan`, atomically.
    @discardableResult
    public func apply(_ plan: FlowPlan<R>) throws(RegistryRejection) -> FlowOutcome<R> {
        try ensureOpen()
        return record(flow.send(.reset(plan.steps)), request: "flow.apply")
    }

    /// Applies a batch (see ``FlowStore/batch(_:stopOnFailure:)``): one `flow.changed`.
    @discardableResult
    public func batch(_ intents: [FlowIntent<R>], stopOnFailure: Bool = false) throws(RegistryRejection)
        -> FlowBatchResult<R>
    {
        try ensureOpen()
        let result = flow.batch(intents, stopOnFailure: stopOnFailure)
        if result.changed { log.emit(.flowChanged(id, path: flow.path)) }
        return result
    }

    /// Applies a transaction (see ``FlowStore/transaction(_:)``): all or nothing.
    @discardableResult
    public func transaction(_ intents: [FlowIntent<R>]) throws(RegistryRejection) -> FlowTransactionOutcome<R> {
        try ensureOpen()
        let outcome = flow.transaction(intents)
        switch outcome {
        case .committed(_, let old, let new):
            if old != new { log.emit(.flowChanged(id, path: new)) }
        case .failed(_, _, let reason):
            log.emit(.requestRejected(request: "flow.transaction", reason: .flow(reason)))
        }
        return outcome
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

    private func ensureOpen() throws(RegistryRejection) {
        if phase == .closed { throw .notOpen(id.description) }
    }

    private func record(_ outcome: FlowOutcome<R>, request: String) -> FlowOutcome<R> {
        switch outcome {
        case .changed(_, let new):
            log.emit(.flowChanged(id, path: new))
        case .rejected(let reason):
            log.emit(.requestRejected(request: request, reason: .flow(reason)))
        case .queued, .unchanged:
            break
        }
        return outcome
    }
}
