public import SceneJSON
public import SceneWire

/// A request or notification the coordinator sends this side: a scene process receives
/// `scene.ping`, `scene.close`, `flow.changed`, `scene.phase_changed`, and the methods
/// other connections relay to it with `scene.call` / `scene.notify`.
public struct IncomingMessage: Hashable, Sendable {
    /// The method's name: one of the coordinator's own (`scene.ping`, …), or the method a
    /// relay carries as its caller named it.
    public let method: String
    /// The message's params as sent; nil when it had none.
    public let params: JSONValue?
    /// False for a notification: whatever the handler answers is dropped.
    public let expectsAnswer: Bool
}

/// Answers what the coordinator sends: a result, or an error the caller receives as is.
/// Each request runs in a task of its own; notifications run one at a time, in order.
public typealias IncomingHandler = @Sendable (IncomingMessage) async -> Result<JSONValue, WireError>

/// Answers what the coordinator sends at once, on the client's loop thread: the answer is
/// written in the turn that read the request, with no task and no thread hand-off.
/// Messages reach it one at a time, in the order they came. It must not wait for
/// anything (the loop, and every connection of the process, waits for it); a scene that
/// must await something uses an ``IncomingHandler``.
public typealias ImmediateHandler = @Sendable (IncomingMessage) -> Result<JSONValue, WireError>

/// How a connection answers what the coordinator sends.
enum IncomingHandling: Sendable {
    /// Requests are answered -32601; notifications are dropped.
    case none
    /// On the loop thread, at once.
    case immediate(ImmediateHandler)
    /// In tasks.
    case async(IncomingHandler)
    /// On the loop thread, at once, with a function that answers later (a request's).
    case dispatch(DispatchingHandler)
}

/// Takes what the coordinator sends on the client's loop thread, in order, and answers a
/// request later, from anywhere, by calling its reply (nil for a notification).
package typealias DispatchingHandler = @Sendable (IncomingMessage, Reply?) -> Void

/// Answers one request of the coordinator's; call it once.
package typealias Reply = @Sendable (Result<JSONValue, WireError>) -> Void
