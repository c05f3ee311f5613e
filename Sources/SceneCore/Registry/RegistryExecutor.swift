public import SceneSync

/// The one serial executor a registry and all of its scene instances run on.
///
/// Sharing it makes every instance an actor of its own — callers `await` it like any
/// actor — while the registry can act on several instances in one step, synchronously
/// (`assumeIsolated`), so a request that opens a scene and applies its path is never
/// interleaved with another request.
///
/// - Given an executor (a coordinator's event loop), the registry and its instances run
///   there.
/// - Otherwise they share the default executor of an actor of their own. Default actors
///   run on the cooperative pool, and a task that calls one switches to it on its own
///   thread when it is free: an in-process call costs no thread wake-up, where a custom
///   executor (a dispatch queue) would cost two.
@usableFromInline
final class RegistryExecutor: Sendable {
    /// An empty actor whose default executor the registry borrows.
    private actor Home {}

    /// The executor the registry was given, if any.
    let given: (any SerialExecutor)?
    /// Keeps the home actor alive while its executor is in use.
    private let home: Home?
    /// The executor itself, read on every enqueue.
    let unowned: UnownedSerialExecutor
    /// The given executor, when it runs on one thread and can say cheaply whether that is
    /// the calling one (an event loop).
    @usableFromInline let thread: (any ThreadBoundExecutor)?

    /// Whether the calling thread is known, cheaply, to run as this executor: false says
    /// only that it is not known so (ask the runtime).
    @inlinable var isCurrentThread: Bool { thread?.isCurrentThread ?? false }

    init(_ given: (any SerialExecutor)?) {
        self.given = given
        thread = given as? any ThreadBoundExecutor
        if let given {
            home = nil
            unowned = given.asUnownedSerialExecutor()
        } else {
            let home = Home()
            self.home = home
            unowned = home.unownedExecutor
        }
    }
}
