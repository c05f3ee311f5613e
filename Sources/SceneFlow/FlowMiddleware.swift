/// Code that sees every intent before and after a ``FlowStore`` applies it.
///
/// - `willApply` runs in chain order; it may pass the intent on, rewritten or not, or
///   cancel it. A rewrite is what the next middleware sees. The first cancel stops the
///   chain and the intent is rejected ``FlowRejection/middlewareCancelled(name:reason:)``.
/// - `didApply` runs in chain order with the outcome, for every intent sent or batched,
///   cancelled ones included; in a transaction it runs only once the transaction commits.
/// - Neither may change the store directly; both may queue follow-up intents through the
///   context, which the store applies after the current intent, in order. Follow-ups that
///   `willApply` queued for an intent that is then cancelled are dropped with it; those a
///   `didApply` queues in reaction to a rejection run.
public protocol FlowMiddleware<FlowRoute>: Sendable {
    /// The route type of the stores this middleware serves.
    associatedtype FlowRoute: Route

    /// A name that identifies the middleware in rejections and events.
    var name: String { get }

    /// Decides whether `intent` proceeds, and in what form.
    func willApply(_ intent: FlowIntent<FlowRoute>, context: inout FlowContext<FlowRoute>)
        -> MiddlewareDecision<FlowRoute>

    /// Observes what `intent` did.
    func didApply(
        _ intent: FlowIntent<FlowRoute>, outcome: FlowOutcome<FlowRoute>,
        context: inout FlowContext<FlowRoute>)
}

extension FlowMiddleware {
    /// Passes every intent on unchanged, so an observer need only implement `didApply`.
    public func willApply(_ intent: FlowIntent<FlowRoute>, context: inout FlowContext<FlowRoute>)
        -> MiddlewareDecision<FlowRoute>
    {
        .proceed(intent)
    }

    /// Observes nothing, so a gate or rewriter need only implement `willApply`.
    public func didApply(
        _ intent: FlowIntent<FlowRoute>, outcome: FlowOutcome<FlowRoute>,
        context: inout FlowContext<FlowRoute>
    ) {}
}

/// What a middleware decided about an intent.
public enum MiddlewareDecision<R: Route>: Hashable, Sendable {
    /// Continue with this intent (the original, or a rewrite of it).
    case proceed(FlowIntent<R>)
    /// Stop here; the intent is rejected with this reason and nothing changes.
    case cancel(reason: String)
}

/// What middleware and event handlers can see and do while an intent is being applied.
///
/// - `path` and `queuedModals` are the store's state before the intent (in `willApply`)
///   or after it (in `didApply`).
/// - ``send(_:)`` never applies an intent re-entrantly: it queues a follow-up that runs
///   after the current intent has finished, in the order queued.
public struct FlowContext<R: Route>: Sendable {
    /// The visible path.
    public let path: [RouteStep<R>]
    /// The modals waiting behind the visible one.
    public let queuedModals: [RouteStep<R>]
    /// The sheet or cover at the tail of ``path``, if one shows.
    public var modal: RouteStep<R>? {
        guard let last = path.last, last.isModal else { return nil }
        return last
    }

    /// Follow-up intents queued so far.
    public private(set) var followUps: [FlowIntent<R>] = []

    /// A context over the given state.
    public init(path: [RouteStep<R>], queuedModals: [RouteStep<R>]) {
        self.path = path
        self.queuedModals = queuedModals
    }

    /// Queues `intent` to be applied after the current one.
    public mutating func send(_ intent: FlowIntent<R>) {
        followUps.append(intent)
    }
}

/// A middleware built from closures.
public struct ClosureMiddleware<FlowRoute: Route>: FlowMiddleware {
    public let name: String
    private let will:
        @Sendable (FlowIntent<FlowRoute>, inout FlowContext<FlowRoute>) -> MiddlewareDecision<
            FlowRoute
        >
    private let did:
        @Sendable (FlowIntent<FlowRoute>, FlowOutcome<FlowRoute>, inout FlowContext<FlowRoute>) ->
            Void

    /// A middleware named `name`; each closure defaults to doing nothing.
    public init(
        name: String,
        willApply: @escaping @Sendable (FlowIntent<FlowRoute>, inout FlowContext<FlowRoute>) ->
            MiddlewareDecision<FlowRoute> = { intent, _ in .proceed(intent) },
        didApply: @escaping @Sendable (
            FlowIntent<FlowRoute>, FlowOutcome<FlowRoute>, inout FlowContext<FlowRoute>
        ) -> Void = { _, _, _ in }
    ) {
        self.name = name
        self.will = willApply
        self.did = didApply
    }

    public func willApply(_ intent: FlowIntent<FlowRoute>, context: inout FlowContext<FlowRoute>)
        -> MiddlewareDecision<FlowRoute>
    {
        will(intent, &context)
    }

    public func didApply(
        _ intent: FlowIntent<FlowRoute>, outcome: FlowOutcome<FlowRoute>,
        context: inout FlowContext<FlowRoute>
    ) {
        did(intent, outcome, &context)
    }
}

/// Identifies one entry of a store's middleware chain, stable across edits of the chain.
public struct MiddlewareHandle: Hashable, Sendable, CustomStringConvertible {
    /// The handle's number, unique within its store.
    public let rawValue: UInt64

    init(rawValue: UInt64) { self.rawValue = rawValue }

    public var description: String { "middleware#\(rawValue)" }
}

/// Why an edit of the middleware chain was refused.
public enum MiddlewareChainError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No middleware with this handle is in the chain.
    case unknownHandle(MiddlewareHandle)
    /// The position is outside `0...count` (insert) or `0..<count` (move).
    case indexOutOfRange(index: Int, count: Int)

    /// The stable snake_case code, the same string on the wire.
    public var code: String {
        switch self {
        case .unknownHandle: return "unknown_middleware"
        case .indexOutOfRange: return "index_out_of_range"
        }
    }

    public var description: String {
        switch self {
        case .unknownHandle(let handle): return "no middleware \(handle) in the chain"
        case .indexOutOfRange(let index, let count):
            return "position \(index) is outside a chain of \(count)"
        }
    }
}
