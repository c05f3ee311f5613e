package import SceneFlow
import SceneSync

/// Hands a behaviour its deliveries one at a time, in the order they were posted, once
/// its start returned: its changes, notifications, close requests and its stop.
package final class Mailbox<R: Route>: Sendable {
    package enum Delivery: Sendable {
        case flow([RouteStep<R>])
        case phase(ScenePhase)
        case notification(SceneCall)
        /// Asks whether it may close (`force`: it closes anyway); `reply` takes the answer.
        case close(force: Bool, reply: (@Sendable (Bool) -> Void)?)
        case stop
        /// Runs once everything before it was delivered (or dropped).
        case done(@Sendable () -> Void)
    }

    private struct State {
        var queue = FIFOQueue<Delivery>()
        var open = false
        var draining = false
        /// Its behaviour never started: deliveries are dropped, `done`s run.
        var abandoned = false
    }

    private let state = Locked(State())
    private let deliver: @Sendable (Delivery) async -> Void

    package init(_ behavior: any SceneBehavior<R>) {
        deliver = { delivery in
            switch delivery {
            case .flow(let path): await behavior.flowChanged(to: path)
            case .phase(let phase): await behavior.phaseChanged(to: phase)
            case .notification(let call): await behavior.receive(call)
            case .close(let force, let reply):
                let accepted = await behavior.close(force: force)
                reply?(accepted || force)
            case .stop: await behavior.stop()
            case .done(let body): body()
            }
        }
    }

    package func post(_ delivery: Delivery) {
        let start = state.withLock { state -> Bool? in
            guard !state.abandoned else { return nil }
            state.queue.append(delivery)
            guard state.open, !state.draining else { return false }
            state.draining = true
            return true
        }
        switch start {
        case true?: drain()
        case false?: break
        case nil: if case .done(let body) = delivery { body() }
        }
    }

    /// Deliveries may go out from now on.
    package func open() {
        let start = state.withLock { state -> Bool in
            state.open = true
            guard !state.draining, !state.abandoned, !state.queue.isEmpty else { return false }
            state.draining = true
            return true
        }
        if start { drain() }
    }

    /// Its behaviour never started: what is queued is dropped (its `done`s run), and so is
    /// anything posted later.
    package func abandon() {
        let dropped = state.withLock { state -> [Delivery] in
            state.abandoned = true
            return state.queue.removeAll()
        }
        for case .done(let body) in dropped { body() }
    }

    private func drain() {
        Task {
            while let next = state.withLock({ state -> Delivery? in
                guard let next = state.queue.popFirst() else {
                    state.draining = false
                    return nil
                }
                return next
            }) {
                await deliver(next)
            }
        }
    }
}
