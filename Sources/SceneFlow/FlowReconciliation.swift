/// Turning a path a UI toolkit reports into intents: what a flow adopts when the toolkit
/// changed its stack itself (a swipe back, a sheet pulled down).
public enum FlowReconciliation {
    /// The fewest intents that take the visible path `current` to `observed`.
    ///
    /// - The stacks (the pushes) are compared up to their longest common prefix: what is
    ///   above it in `current` is popped (one `pop` or one `popCount`), what is above it in
    ///   `observed` is pushed (one `push` or one `pushMany`).
    /// - A modal that `observed` no longer shows, shows differently, or that stands over a
    ///   stack that changes is dismissed first (`dismiss`, which shows the next queued modal,
    ///   if any); the modal `observed` shows is then presented (`sheet` or `cover`).
    /// - Equal paths take no intents.
    ///
    /// Both paths should be valid (``FlowPlan/problem(in:)``); steps past a misplaced modal
    /// are read as pushes.
    public static func intents<R: Route>(from current: [RouteStep<R>], to observed: [RouteStep<R>]) -> [FlowIntent<R>] {
        guard current != observed else { return [] }
        let (stack, modal) = split(current)
        let (target, targetModal) = split(observed)
        let common = zip(stack, target).prefix { $0 == $1 }.count
        let stackChanges = common < stack.count || common < target.count
        var intents: [FlowIntent<R>] = []
        let dismissing = modal != nil && (modal != targetModal || stackChanges)
        if dismissing { intents.append(.dismiss) }
        switch stack.count - common {
        case 0: break
        case 1: intents.append(.pop)
        case let count: intents.append(.popCount(count))
        }
        let pushed = Array(target[common...])
        switch pushed.count {
        case 0: break
        case 1: intents.append(.push(pushed[0]))
        default: intents.append(.pushMany(pushed))
        }
        if let targetModal, dismissing || modal == nil {
            switch targetModal {
            case .sheet(let route): intents.append(.sheet(route))
            case .cover(let route): intents.append(.cover(route))
            case .push: break
            }
        }
        return intents
    }

    /// The routes of a path's pushes, and the modal at its tail.
    private static func split<R: Route>(_ path: [RouteStep<R>]) -> (stack: [R], modal: RouteStep<R>?) {
        guard let last = path.last, last.isModal else { return (path.map(\.route), nil) }
        return (path.dropLast().map(\.route), last)
    }
}
