/// Hands messages to one asynchronous consumer one at a time, in the order they were
/// posted: the one serial queue of the package (a hosted behaviour's deliveries, a client's
/// notifications to an async handler).
///
/// - Nothing is delivered before ``open()``; what is posted meanwhile waits, in order.
/// - A message is delivered only after the one before it returned. Deliveries run in a
///   task started when there is work, which ends when the queue is empty.
/// - Once abandoned, nothing more is delivered: ``abandon()`` answers what was queued, and
///   ``post(_:)`` refuses what comes later, so the caller can settle it.
package final class Mailbox<Message: Sendable>: Sendable {
    private struct State {
        var queue = FIFOQueue<Message>()
        var open: Bool
        var draining = false
        var abandoned = false
    }

    private let state: Locked<State>
    private let consume: @Sendable (Message) async -> Void

    /// A mailbox whose messages go to `consume`; closed until ``open()`` unless `opened`.
    package init(opened: Bool = false, consume: @escaping @Sendable (Message) async -> Void) {
        self.state = Locked(State(open: opened))
        self.consume = consume
    }

    /// Queues `message` after what is queued; `false` (nothing queued) once abandoned.
    @discardableResult
    package func post(_ message: Message) -> Bool {
        let start = state.withLock { state -> Bool? in
            guard !state.abandoned else { return nil }
            state.queue.append(message)
            guard state.open, !state.draining else { return false }
            state.draining = true
            return true
        }
        guard let start else { return false }
        if start { drain() }
        return true
    }

    /// Messages may go out from now on.
    package func open() {
        let start = state.withLock { state -> Bool in
            state.open = true
            guard !state.draining, !state.abandoned, !state.queue.isEmpty else { return false }
            state.draining = true
            return true
        }
        if start { drain() }
    }

    /// Delivers nothing more; answers what was queued and not delivered, oldest first.
    package func abandon() -> [Message] {
        state.withLock { state in
            state.abandoned = true
            return state.queue.removeAll()
        }
    }

    private func drain() {
        Task {
            while let next = state.withLock({ state -> Message? in
                guard !state.abandoned, let next = state.queue.popFirst() else {
                    state.draining = false
                    return nil
                }
                return next
            }) {
                await consume(next)
            }
        }
    }
}
