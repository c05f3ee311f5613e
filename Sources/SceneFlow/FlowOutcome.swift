/// What one intent did to a ``FlowStore``. Every intent answers one of these.
public enum FlowOutcome<R: Route>: Hashable, Sendable {
    /// The visible path changed from `old` to `new`.
    case changed(old: [RouteStep<R>], new: [RouteStep<R>])
    /// A sheet or cover waits behind the modal that is showing; the path is unchanged.
    case queued(RouteStep<R>)
    /// The intent was valid but had nothing to do (pop on an empty stack, …).
    case unchanged
    /// The intent was refused and nothing changed.
    case rejected(FlowRejection)

    /// The outcome's name as the wire spells it: `changed`, `queued`, `unchanged` or
    /// `rejected`.
    public var name: OutcomeName {
        switch self {
        case .changed: return .changed
        case .queued: return .queued
        case .unchanged: return .unchanged
        case .rejected: return .rejected
        }
    }

    /// The reason, when the intent was rejected.
    @inlinable
    public var rejection: FlowRejection? {
        if case .rejected(let reason) = self { return reason }
        return nil
    }

    /// Whether the intent was rejected.
    @inlinable
    public var isRejected: Bool { rejection != nil }
}

/// Something that happened to a ``FlowStore``, in the order it happened.
public enum FlowEvent<R: Route>: Hashable, Sendable {
    /// The visible path changed. A batch or transaction reports one aggregated change.
    case pathChanged(old: [RouteStep<R>], new: [RouteStep<R>])
    /// An intent was refused; nothing changed.
    case intentRejected(FlowIntent<R>, FlowRejection)
    /// The queue of modals waiting behind the visible one changed; carries the new queue.
    case modalQueueChanged([RouteStep<R>])
    /// The middleware chain was edited.
    case middlewareChanged(MiddlewareChange)
}

/// An edit of a store's middleware chain.
public enum MiddlewareChange: Hashable, Sendable {
    /// `name` was added as `handle` at position `index`.
    case added(MiddlewareHandle, name: String, index: Int)
    /// `handle` (named `name`) was removed from position `index`.
    case removed(MiddlewareHandle, name: String, index: Int)
    /// `handle` now runs `name` instead of `previous`.
    case replaced(MiddlewareHandle, previous: String, name: String)
    /// `handle` moved from position `from` to position `to`.
    case moved(MiddlewareHandle, from: Int, to: Int)
}
