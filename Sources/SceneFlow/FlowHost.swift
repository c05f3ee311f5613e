/// An actor that owns a ``FlowStore``, publishes its events, and runs event handlers.
///
/// - Every change is published, in order, to each subscriber of ``events(buffering:)``.
/// - Event handlers run on the actor after each intent; they may queue follow-up intents
///   through their context. A follow-up is never applied re-entrantly: it runs after the
///   intent that caused it has finished and its events have been published, in the order
///   queued, until none are left or the store's `followUpLimit` is reached.
public actor FlowHost<R: Route> {
    /// Reacts to an event; may queue follow-up intents with `context.send(_:)`.
    public typealias EventHandler = @Sendable (FlowEvent<R>, inout FlowContext<R>) -> Void

    /// The store this host owns.
    public private(set) var store: FlowStore<R>
    private let broadcaster = EventBroadcaster<FlowEvent<R>>()
    private var handlers: [(id: UInt64, handler: EventHandler)] = []
    /// The array the store's events are taken into and published from, kept between
    /// intents so that neither the store nor the host allocates one per intent.
    private var spareEvents: [FlowEvent<R>] = []
    private var nextHandlerID: UInt64 = 0

    /// A host that owns `store`.
    public init(store: FlowStore<R> = FlowStore()) {
        var store = store
        store.recordsEvents = true
        self.store = store
    }

    deinit { broadcaster.finish() }

    /// The visible path.
    public var path: [RouteStep<R>] { store.path }

    /// A stream of every event from now on, buffered as `buffering` says.
    public nonisolated func events(buffering: EventBuffering = .default) -> EventStream<FlowEvent<R>>
    {
        broadcaster.subscribe(buffering: buffering)
    }

    /// Registers `handler`; returns a token for ``removeEventHandler(_:)``.
    @discardableResult
    public func addEventHandler(_ handler: @escaping EventHandler) -> UInt64 {
        defer { nextHandlerID += 1 }
        handlers.append((nextHandlerID, handler))
        return nextHandlerID
    }

    /// Unregisters the handler `token` names; returns whether it was registered.
    @discardableResult
    public func removeEventHandler(_ token: UInt64) -> Bool {
        guard let index = handlers.firstIndex(where: { $0.id == token }) else { return false }
        handlers.remove(at: index)
        return true
    }

    /// Applies `intent` (see ``FlowStore/send(_:)``), publishes, then runs handlers.
    @discardableResult
    public func send(_ intent: FlowIntent<R>) -> FlowOutcome<R> {
        let outcome = store.send(intent)
        settle()
        return outcome
    }

    /// Applies a batch (see ``FlowStore/batch(_:stopOnFailure:)``).
    @discardableResult
    public func batch(_ intents: [FlowIntent<R>], stopOnFailure: Bool = false) -> FlowBatchResult<R>
    {
        let result = store.batch(intents, stopOnFailure: stopOnFailure)
        settle()
        return result
    }

    /// Applies a transaction (see ``FlowStore/transaction(_:)``).
    @discardableResult
    public func transaction(_ intents: [FlowIntent<R>]) -> FlowTransactionOutcome<R> {
        let outcome = store.transaction(intents)
        settle()
        return outcome
    }

    /// Restores a snapshot (see ``FlowStore/restore(_:)``).
    public func restore(_ snapshot: FlowSnapshot<R>) throws(FlowRestoreError) {
        try store.restore(snapshot)
        settle()
    }

    /// Appends a middleware to the store's chain.
    @discardableResult
    public func addMiddleware(_ middleware: some FlowMiddleware<R>) -> MiddlewareHandle {
        let handle = store.addMiddleware(middleware)
        settle()
        return handle
    }

    /// Inserts a middleware at a position of the store's chain.
    @discardableResult
    public func insertMiddleware(_ middleware: some FlowMiddleware<R>, at index: Int)
        throws(MiddlewareChainError) -> MiddlewareHandle
    {
        let handle = try store.insertMiddleware(middleware, at: index)
        settle()
        return handle
    }

    /// Removes a middleware from the store's chain.
    public func removeMiddleware(_ handle: MiddlewareHandle) throws(MiddlewareChainError) {
        try store.removeMiddleware(handle)
        settle()
    }

    /// Replaces a middleware of the store's chain, keeping its handle and position.
    public func replaceMiddleware(_ handle: MiddlewareHandle, with middleware: some FlowMiddleware<R>)
        throws(MiddlewareChainError)
    {
        try store.replaceMiddleware(handle, with: middleware)
        settle()
    }

    /// Moves a middleware of the store's chain to a position.
    public func moveMiddleware(_ handle: MiddlewareHandle, to index: Int) throws(MiddlewareChainError) {
        try store.moveMiddleware(handle, to: index)
        settle()
    }

    /// Publishes what the store recorded, runs the handlers, and applies their follow-ups.
    ///
    /// Once `followUpLimit` follow-ups have run, the rest are rejected in one go and their
    /// rejection events are published without running the handlers again, so a handler
    /// that reacts to every event cannot keep the host busy forever.
    private func settle() {
        var followUps: [FlowIntent<R>] = []
        var next = 0
        while true {
            var events = spareEvents
            spareEvents = []
            store.takeEvents(into: &events)
            broadcaster.publish(contentsOf: events)
            defer {
                events.removeAll(keepingCapacity: true)
                spareEvents = events
            }
            if !handlers.isEmpty {
                for event in events {
                    var context = FlowContext(path: store.path, queuedModals: store.queuedModals)
                    for entry in handlers { entry.handler(event, &context) }
                    followUps.append(contentsOf: context.followUps)
                }
            }
            guard next < followUps.count else { return }
            if next >= store.followUpLimit {
                let limit = store.followUpLimit
                broadcaster.publish(
                    contentsOf: followUps[next...].map { .intentRejected($0, .followUpLimitExceeded(limit: limit)) })
                return
            }
            store.send(followUps[next])
            next += 1
        }
    }
}
