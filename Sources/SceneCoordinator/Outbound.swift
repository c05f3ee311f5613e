import SceneJSON
import SceneSocket
import SceneWire

/// A request this side sent a scene, waiting for its answer.
struct Outbound {
    /// Who hears the answer.
    enum Waiter {
        /// A relayed call: the caller's request `id` on its session is answered.
        case caller(Session, id: JSONValue)
        /// The coordinator's own request (a heartbeat, a close).
        case handler((Result<RawJSON, WireError>) -> Void)
    }

    /// When the scene's answer is overdue, and what its `call_timeout` then says.
    struct Deadline {
        let at: ContinuousClock.Instant
        let method: String
        let timeout: Duration
    }

    let waiter: Waiter
    /// Nil: it waits as long as the connection lasts.
    let deadline: Deadline?

    func resolve(_ answer: Result<RawJSON, WireError>) {
        switch waiter {
        case .caller(let session, let id): session.complete(id, relayed: answer)
        case .handler(let handler): handler(answer)
        }
    }
}
