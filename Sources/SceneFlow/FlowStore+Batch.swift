/// What a batch of intents did.
public struct FlowBatchResult<R: Route>: Hashable, Sendable {
    /// One outcome per applied intent, in order. Shorter than the batch when it stopped.
    public let outcomes: [FlowOutcome<R>]
    /// The path before the batch.
    public let old: [RouteStep<R>]
    /// The path after the batch.
    public let new: [RouteStep<R>]
    /// The index of the rejected intent that stopped the batch, when `stopOnFailure` did.
    public let stoppedAt: Int?

    /// Whether the visible path changed.
    public var changed: Bool { old != new }
}

/// What an all-or-nothing transaction did.
public enum FlowTransactionOutcome<R: Route>: Hashable, Sendable {
    /// Every intent succeeded and the result was committed at once.
    case committed(outcomes: [FlowOutcome<R>], old: [RouteStep<R>], new: [RouteStep<R>])
    /// The intent at `index` (as middleware left it) was rejected for `reason`; the store
    /// is untouched.
    case failed(index: Int, intent: FlowIntent<R>, reason: FlowRejection)
}

extension FlowStore {
    /// Applies `intents` one by one and reports them as one change.
    ///
    /// - Each intent goes through the middleware chain and the rules as with ``send(_:)``.
    /// - Events: each rejection as it happens, then one aggregated
    ///   ``FlowEvent/pathChanged(old:new:)`` and one ``FlowEvent/modalQueueChanged(_:)``
    ///   when the path or the queue differ from before the batch.
    /// - With `stopOnFailure`, the first rejected intent ends the batch; what the intents
    ///   before it did stays applied (use ``transaction(_:)`` for all-or-nothing).
    @discardableResult
    public mutating func batch(_ intents: [FlowIntent<R>], stopOnFailure: Bool = false)
        -> FlowBatchResult<R>
    {
        let old = _path
        let oldQueue = _queuedModals
        let mark = _pendingEvents.count
        var outcomes: [FlowOutcome<R>] = []
        outcomes.reserveCapacity(intents.count)
        var followUps: [FlowIntent<R>] = []
        var stoppedAt: Int?
        for (index, intent) in intents.enumerated() {
            let outcome = applyThroughChain(intent, followUps: &followUps)
            outcomes.append(outcome)
            if stopOnFailure, outcome.isRejected {
                stoppedAt = index
                break
            }
        }
        if recordsEvents {
            aggregateEvents(since: mark, old: old, oldQueue: oldQueue)
        }
        drain(&followUps)
        return FlowBatchResult(outcomes: outcomes, old: old, new: _path, stoppedAt: stoppedAt)
    }

    /// Applies `intents` all together or not at all.
    ///
    /// - The intents are previewed on a copy; the first rejection (by the rules or by
    ///   middleware) fails the transaction and leaves the store exactly as it was, apart
    ///   from an ``FlowEvent/intentRejected(_:_:)`` event for the failing intent.
    /// - On success the result is committed once: one aggregated path event, then
    ///   `didApply` for each intent in order (seeing the committed state), then the
    ///   follow-ups they queued.
    @discardableResult
    public mutating func transaction(_ intents: [FlowIntent<R>]) -> FlowTransactionOutcome<R> {
        var preview = self
        preview.recordsEvents = false
        var followUps: [FlowIntent<R>] = []
        var applied: [(intent: FlowIntent<R>, outcome: FlowOutcome<R>)] = []
        applied.reserveCapacity(intents.count)
        for (index, intent) in intents.enumerated() {
            let outcome: FlowOutcome<R>
            let admitted: FlowIntent<R>
            switch preview.admit(intent, followUps: &followUps) {
            case .proceed(let intent):
                admitted = intent
                outcome = preview.applyRules(intent)
            case .cancelled(let intent, let rejection):
                admitted = intent
                outcome = .rejected(rejection)
            }
            if case .rejected(let reason) = outcome {
                if recordsEvents { record(.intentRejected(admitted, reason)) }
                return .failed(index: index, intent: admitted, reason: reason)
            }
            applied.append((admitted, outcome))
        }
        let old = _path
        let mark = _pendingEvents.count
        let oldQueue = _queuedModals
        _path = preview.path
        _queuedModals = preview.queuedModals
        if recordsEvents {
            aggregateEvents(since: mark, old: old, oldQueue: oldQueue)
        }
        for step in applied {
            notify(step.intent, outcome: step.outcome, followUps: &followUps)
        }
        drain(&followUps)
        return .committed(outcomes: applied.map(\.outcome), old: old, new: _path)
    }

    /// Replaces the path and queue events recorded since `mark` by one of each.
    private mutating func aggregateEvents(
        since mark: Int, old: [RouteStep<R>], oldQueue: [RouteStep<R>]
    ) {
        let recent = _pendingEvents[mark...].filter { event in
            switch event {
            case .pathChanged, .modalQueueChanged: return false
            case .intentRejected, .middlewareChanged: return true
            }
        }
        _pendingEvents.removeSubrange(mark...)
        _pendingEvents.append(contentsOf: recent)
        if _path != old { record(.pathChanged(old: old, new: _path)) }
        if _queuedModals != oldQueue { record(.modalQueueChanged(_queuedModals)) }
    }
}
