@usableFromInline
struct MiddlewareEntry<R: Route>: Sendable {
    @usableFromInline let handle: MiddlewareHandle
    @usableFromInline var middleware: any FlowMiddleware<R>

    @usableFromInline
    init(handle: MiddlewareHandle, middleware: any FlowMiddleware<R>) {
        self.handle = handle
        self.middleware = middleware
    }
}

/// The result of running an intent through `willApply`.
@usableFromInline
enum Admission<R: Route> {
    case proceed(FlowIntent<R>)
    case cancelled(FlowIntent<R>, FlowRejection)
}

extension FlowStore {
    /// The names of the middleware chain, in the order they run.
    public var middlewareNames: [String] { chain.map(\.middleware.name) }

    /// The handles of the middleware chain, in the order they run.
    public var middlewareHandles: [MiddlewareHandle] { chain.map(\.handle) }

    /// Whether any middleware is in the chain. Without one, an intent's outcome says all
    /// it did: `changed` moved the path (or dropped queued modals), `queued` added one
    /// modal to the queue, and `unchanged` and `rejected` changed nothing.
    @inlinable public var hasMiddleware: Bool { !chain.isEmpty }

    /// Appends `middleware` to the end of the chain.
    ///
    /// - Records ``MiddlewareChange/added(_:name:index:)``.
    @discardableResult
    public mutating func addMiddleware(_ middleware: some FlowMiddleware<R>) -> MiddlewareHandle {
        insert(middleware, at: chain.count)
    }

    /// Inserts `middleware` at position `index` of the chain (`0...count`).
    ///
    /// - Records ``MiddlewareChange/added(_:name:index:)``.
    @discardableResult
    public mutating func insertMiddleware(_ middleware: some FlowMiddleware<R>, at index: Int)
        throws(MiddlewareChainError) -> MiddlewareHandle
    {
        guard (0...chain.count).contains(index) else {
            throw .indexOutOfRange(index: index, count: chain.count)
        }
        return insert(middleware, at: index)
    }

    /// Removes the middleware `handle` names.
    ///
    /// - Records ``MiddlewareChange/removed(_:name:index:)``.
    public mutating func removeMiddleware(_ handle: MiddlewareHandle) throws(MiddlewareChainError) {
        let index = try position(of: handle)
        let entry = chain.remove(at: index)
        recordChange(.removed(handle, name: entry.middleware.name, index: index))
    }

    /// Replaces the middleware behind `handle`, keeping its handle and position.
    ///
    /// - Records ``MiddlewareChange/replaced(_:previous:name:)``.
    public mutating func replaceMiddleware(
        _ handle: MiddlewareHandle, with middleware: some FlowMiddleware<R>
    ) throws(MiddlewareChainError) {
        let index = try position(of: handle)
        let previous = chain[index].middleware.name
        chain[index].middleware = middleware
        recordChange(.replaced(handle, previous: previous, name: middleware.name))
    }

    /// Moves the middleware behind `handle` to position `index` (`0..<count`).
    ///
    /// - Records ``MiddlewareChange/moved(_:from:to:)``.
    public mutating func moveMiddleware(_ handle: MiddlewareHandle, to index: Int)
        throws(MiddlewareChainError)
    {
        let from = try position(of: handle)
        guard chain.indices.contains(index) else {
            throw .indexOutOfRange(index: index, count: chain.count)
        }
        let entry = chain.remove(at: from)
        chain.insert(entry, at: index)
        recordChange(.moved(handle, from: from, to: index))
    }

    private mutating func insert(_ middleware: some FlowMiddleware<R>, at index: Int)
        -> MiddlewareHandle
    {
        let handle = MiddlewareHandle(rawValue: nextHandle)
        nextHandle += 1
        chain.insert(MiddlewareEntry(handle: handle, middleware: middleware), at: index)
        recordChange(.added(handle, name: middleware.name, index: index))
        return handle
    }

    private func position(of handle: MiddlewareHandle) throws(MiddlewareChainError) -> Int {
        guard let index = chain.firstIndex(where: { $0.handle == handle }) else {
            throw .unknownHandle(handle)
        }
        return index
    }

    private mutating func recordChange(_ change: MiddlewareChange) {
        if recordsEvents { record(.middlewareChanged(change)) }
    }

    /// Runs `willApply` along the chain: each sees the previous one's rewrite; the first
    /// cancel stops the chain.
    @inlinable
    mutating func admit(_ intent: FlowIntent<R>, followUps: inout [FlowIntent<R>]) -> Admission<R> {
        guard !chain.isEmpty else { return .proceed(intent) }
        var context = FlowContext(path: _path, queuedModals: _queuedModals)
        var current = intent
        for entry in chain {
            switch entry.middleware.willApply(current, context: &context) {
            case .proceed(let next):
                current = next
            case .cancel(let reason):
                // A cancelled intent leaves no trace: what the chain queued for it is dropped.
                let rejection = FlowRejection.middlewareCancelled(
                    name: entry.middleware.name, reason: reason)
                if recordsEvents { record(.intentRejected(current, rejection)) }
                return .cancelled(current, rejection)
            }
        }
        followUps.append(contentsOf: context.followUps)
        return .proceed(current)
    }

    /// Runs `didApply` along the chain with what `intent` did.
    @inlinable
    mutating func notify(
        _ intent: FlowIntent<R>, outcome: FlowOutcome<R>, followUps: inout [FlowIntent<R>]
    ) {
        guard !chain.isEmpty else { return }
        var context = FlowContext(path: _path, queuedModals: _queuedModals)
        for entry in chain {
            entry.middleware.didApply(intent, outcome: outcome, context: &context)
        }
        followUps.append(contentsOf: context.followUps)
    }
}
