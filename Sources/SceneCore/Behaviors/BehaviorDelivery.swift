package import SceneFlow
package import SceneSync

/// What a hosted behaviour is handed through its ``Mailbox``, one at a time, in the order
/// posted, once its start returned: its changes, notifications, close requests and its stop.
package enum BehaviorDelivery<R: Route>: Sendable {
    case flow([RouteStep<R>])
    case phase(ScenePhase)
    case notification(SceneCall)
    /// The instance that presented this one was dismissed; this one is dismissed next.
    case parentDismissed
    /// Asks whether it may close (`force`: it closes anyway); `reply` takes the answer.
    case close(force: Bool, reply: (@Sendable (Bool) -> Void)?)
    case stop
    /// Runs once everything before it was delivered (or dropped).
    case done(@Sendable () -> Void)
}

extension Mailbox {
    /// The mailbox of `behavior`, closed until its start returned.
    package convenience init<R: Route>(_ behavior: any SceneBehavior<R>) where Message == BehaviorDelivery<R> {
        self.init { delivery in
            switch delivery {
            case .flow(let path): await behavior.flowChanged(to: path)
            case .phase(let phase): await behavior.phaseChanged(to: phase)
            case .notification(let call): await behavior.receive(call)
            case .parentDismissed: await behavior.parentDismissed()
            case .close(let force, let reply):
                let accepted = await behavior.close(force: force)
                reply?(accepted || force)
            case .stop: await behavior.stop()
            case .done(let body): body()
            }
        }
    }

    /// Queues `delivery`; one that comes after the behaviour was abandoned is dropped, and
    /// a dropped `done` runs at once.
    package func deliver<R: Route>(_ delivery: BehaviorDelivery<R>) where Message == BehaviorDelivery<R> {
        if !post(delivery), case .done(let body) = delivery { body() }
    }

    /// Its behaviour never started: what is queued is dropped (its `done`s run), and so is
    /// anything posted later.
    package func abandonBehavior<R: Route>() where Message == BehaviorDelivery<R> {
        for case .done(let body) in abandon() { body() }
    }
}
