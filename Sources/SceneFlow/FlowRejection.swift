/// Why a ``FlowStore`` refused an intent. Nothing changed when an intent is rejected.
///
/// Each case has a stable snake_case ``code`` that the wire carries unchanged.
public enum FlowRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// A push (or an intent that would push) while a sheet or cover is at the tail.
    case pushBlockedByModalTail
    /// A pop or stack replacement while a sheet or cover shows: dismiss first, or reset.
    case popBlockedByModalTail
    /// `popCount(requested)` on a stack only `available` deep.
    case insufficientDepth(requested: Int, available: Int)
    /// `popCount` with a negative count.
    case invalidCount(Int)
    /// `popTo` a route that is not in the stack.
    case routeNotFound
    /// `reset` to steps that are not a valid path.
    case invalidPlan(FlowPlanError)
    /// A middleware named `name` cancelled the intent, for `reason`.
    case middlewareCancelled(name: String, reason: String)
    /// Middleware kept queueing follow-up intents past the store's limit.
    case followUpLimitExceeded(limit: Int)

    /// The stable snake_case code, the same string on the wire.
    public var code: String {
        switch self {
        case .pushBlockedByModalTail: return "push_blocked_by_modal_tail"
        case .popBlockedByModalTail: return "pop_blocked_by_modal_tail"
        case .insufficientDepth: return "insufficient_depth"
        case .invalidCount: return "invalid_count"
        case .routeNotFound: return "route_not_found"
        case .invalidPlan: return "invalid_plan"
        case .middlewareCancelled: return "middleware_cancelled"
        case .followUpLimitExceeded: return "follow_up_limit_exceeded"
        }
    }


    public var description: String {
        switch self {
        case .pushBlockedByModalTail:
            return "cannot push while a sheet or cover is showing; dismiss it first"
        case .popBlockedByModalTail:
            return "cannot change the stack while a sheet or cover is showing; dismiss it first or reset"
        case .insufficientDepth(let requested, let available):
            return "cannot pop \(requested) screens from a stack \(available) deep"
        case .invalidCount(let count):
            return "a pop count must not be negative (got \(count))"
        case .routeNotFound:
            return "the route is not in the stack"
        case .invalidPlan(let problem):
            return "invalid plan: \(problem)"
        case .middlewareCancelled(let name, let reason):
            return "middleware \"\(name)\" cancelled the intent: \(reason)"
        case .followUpLimitExceeded(let limit):
            return "more than \(limit) follow-up intents were queued by one intent"
        }
    }
}
