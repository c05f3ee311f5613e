public import SceneFlow
public import Testing

/// Drives a `FlowStore` intent by intent in a test, with every outcome, path change and
/// event asserted.
///
/// - Each ``send(_:_:path:queued:sourceLocation:)`` states the outcome it expects and,
///   when the intent changes them, the path and the queue of modals after it. A wrong
///   outcome, path or queue is a test failure; so, when exhaustive, is a change the call
///   did not assert.
/// - A send takes its own events with it (its `pathChanged`, `modalQueueChanged` or
///   `intentRejected`): its path, queue and outcome assertions cover them. Every other
///   event (what a middleware's follow-ups did) must be taken with
///   ``receive(_:sourceLocation:)``, in order, before the next send.
/// - ``finish(sourceLocation:)``, or the end of the store's life, fails on any event left
///   unasserted. ``Exhaustivity/off(showSkipped:)`` lets what is not asserted go.
///
/// ```swift
/// let flow = FlowTestStore<String>()
/// flow.send(.push("inbox"), .changed, path: [.push("inbox")])
/// flow.send(.sheet("compose"), .changed, path: [.push("inbox"), .sheet("compose")])
/// flow.send(.push("settings"), rejected: .pushBlockedByModalTail)
/// flow.finish()
/// ```
public final class FlowTestStore<R: Route> {
    /// The store under test; its events are recorded for the test store.
    public private(set) var store: FlowStore<R>
    /// What the test store insists on; it may change between sends.
    public var exhaustivity: Exhaustivity
    private var unasserted: [FlowEvent<R>] = []
    private var finished = false
    private let createdAt: SourceLocation

    /// A test store over `store` (an empty one by default).
    public init(
        _ store: FlowStore<R> = FlowStore(), exhaustivity: Exhaustivity = .on,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var store = store
        store.recordsEvents = true
        _ = store.takeEvents()
        self.store = store
        self.exhaustivity = exhaustivity
        self.createdAt = sourceLocation
    }

    deinit {
        if !finished { finish(sourceLocation: createdAt) }
    }

    /// The visible path now.
    public var path: [RouteStep<R>] { store.path }

    /// The sheets and covers waiting behind the modal that shows.
    public var queuedModals: [RouteStep<R>] { store.queuedModals }

    /// Sends `intent` and asserts it did `outcome` (`changed`, `queued` or `unchanged`),
    /// leaving `path` and `queued` when given.
    ///
    /// - When exhaustive, a path or queue that changed without being given here fails the
    ///   test, as do events of an earlier send not received yet.
    @discardableResult
    public func send(
        _ intent: FlowIntent<R>, _ outcome: OutcomeName, path: [RouteStep<R>]? = nil, queued: [RouteStep<R>]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FlowOutcome<R> {
        let (result, before) = apply(intent, sourceLocation: sourceLocation)
        if result.name != outcome {
            Issue.record("\(intent): expected \(outcome), it was \(describe(result))", sourceLocation: sourceLocation)
        }
        check(path: path, queued: queued, before: before, sourceLocation: sourceLocation)
        return result
    }

    /// Sends `intent` and asserts it was refused for `reason`; what a middleware's
    /// follow-ups changed after the refusal is asserted with `path` and `queued`, as for
    /// any send.
    @discardableResult
    public func send(
        _ intent: FlowIntent<R>, rejected reason: FlowRejection, path: [RouteStep<R>]? = nil,
        queued: [RouteStep<R>]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> FlowOutcome<R> {
        let (result, before) = apply(intent, sourceLocation: sourceLocation)
        if result.rejection != reason {
            // What it changed instead is in this one failure, not reported again.
            Issue.record("\(intent): expected rejected \(reason.code), it was \(describe(result))", sourceLocation: sourceLocation)
            return result
        }
        check(path: path, queued: queued, before: before, sourceLocation: sourceLocation)
        return result
    }

    /// Takes the next event and asserts it is `expected`.
    public func receive(_ expected: FlowEvent<R>, sourceLocation: SourceLocation = #_sourceLocation) {
        guard !unasserted.isEmpty else {
            Issue.record("expected event \(expected), but there is none left", sourceLocation: sourceLocation)
            return
        }
        let event = unasserted.removeFirst()
        if event != expected {
            Issue.record(
                "expected event \(expected), received \(event)\n\(difference(expected: expected, actual: event))",
                sourceLocation: sourceLocation)
        }
    }

    /// Fails on every event not received yet (when exhaustive); the store is done.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        finished = true
        for event in unasserted { exhaustivity.report("event not asserted: \(event)", sourceLocation: sourceLocation) }
        unasserted.removeAll()
    }

    // MARK: Machinery

    private struct Before {
        let path: [RouteStep<R>]
        let queued: [RouteStep<R>]
    }

    private func apply(_ intent: FlowIntent<R>, sourceLocation: SourceLocation) -> (FlowOutcome<R>, Before) {
        finished = false
        for event in unasserted {
            exhaustivity.report("event not asserted before the next send: \(event)", sourceLocation: sourceLocation)
        }
        unasserted.removeAll()
        let before = Before(path: store.path, queued: store.queuedModals)
        let (result, own) = store.sendCountingOwnEvents(intent)
        // Its own events come first and are covered by its assertions; what its
        // follow-ups did comes after them, for the test to receive.
        unasserted = Array(store.takeEvents().dropFirst(own))
        return (result, before)
    }

    /// Checks the asserted path and queue, and reports changes that were not asserted.
    private func check(
        path: [RouteStep<R>]?, queued: [RouteStep<R>]?, before: Before, sourceLocation: SourceLocation
    ) {
        if let path {
            if store.path != path {
                Issue.record(
                    "path: expected \(path), it is \(store.path)\n\(difference(expected: path, actual: store.path))",
                    sourceLocation: sourceLocation)
            }
        } else if store.path != before.path {
            exhaustivity.report("the path changed to \(store.path); assert it with `path:`", sourceLocation: sourceLocation)
        }
        if let queued {
            if store.queuedModals != queued {
                Issue.record("queued: expected \(queued), it is \(store.queuedModals)", sourceLocation: sourceLocation)
            }
        } else if store.queuedModals != before.queued {
            exhaustivity.report(
                "the queue of modals changed to \(store.queuedModals); assert it with `queued:`", sourceLocation: sourceLocation)
        }
    }

    private func describe(_ outcome: FlowOutcome<R>) -> String {
        if let reason = outcome.rejection { return "rejected \(reason.code)" }
        return outcome.name.rawValue
    }
}
