/// A value that may be touched only on its loop's thread, carried across threads so that
/// work submitted with ``EventLoop/execute(_:)`` can reach it.
///
/// - It is made on the loop's thread and read there; either elsewhere traps. A value made
///   on another thread could already be shared with it, so the loop would not be its only
///   user.
public struct LoopBound<Value>: @unchecked Sendable {
    // Safe: `value` traps unless read on the loop thread, and the value was made there,
    // so every use of it happens on that one thread.
    private let wrapped: Value
    /// The loop the value belongs to.
    public let loop: EventLoop

    /// Binds `value` to `loop`; on the loop thread only.
    public init(_ value: Value, loop: EventLoop) {
        precondition(loop.inEventLoop, "a LoopBound value is made on its loop")
        self.wrapped = value
        self.loop = loop
    }

    /// The value; on the loop thread only.
    public var value: Value {
        precondition(loop.inEventLoop, "a LoopBound value is used on its loop")
        return wrapped
    }
}
