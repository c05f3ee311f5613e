extension Actor {
    /// Runs `operation` isolated to this actor, which the calling thread must already be
    /// running as (its executor is the current one; otherwise this traps): what the
    /// standard library's `assumeIsolated` does, without its two heap allocations.
    ///
    /// `assumeIsolated` makes its operation escaping (`withoutActuallyEscaping`) to cast it
    /// to a nonisolated function, and passing that function through the cast puts the
    /// closure and a reabstraction thunk on the heap: two allocations a call, measured in
    /// Swift 6.3 even with the operation and result specialized, and a coordinator made two
    /// such calls for every `flow.send`. Here the operation stays non-escaping: it is an
    /// argument of a capture-free runner, and it is the runner that is cast, inside a
    /// struct whose layout does not depend on the isolation, so that nothing is
    /// reabstracted on the way. Specialized, this allocates nothing; in generic code that
    /// is not specialized, the runner carries its generic context: one allocation.
    ///
    /// What `operation` throws is rethrown as it is.
    @inlinable
    package nonisolated func assumingIsolation<T: Sendable, E: Error>(_ operation: (isolated Self) throws(E) -> T) throws(E) -> T {
        preconditionIsolated()
        return try runIsolated(operation)
    }

    /// ``assumingIsolation(_:)``, for a caller that has already established, cheaply, that
    /// this actor's executor is the current one: `established` true skips the runtime's
    /// check; false falls back to it (which traps when the caller is wrong).
    ///
    /// The runtime's check is not free where it is asked most. Outside an executor's job (on
    /// an event loop's thread, in a socket's handler) it finds no current executor, asks
    /// whether it is on the main thread, then asks the actor's executor itself: about a
    /// tenth of a microsecond, three times for each `flow.send` a coordinator serves. What
    /// establishes it instead: the identity of an executor bound to one thread
    /// (``ThreadBoundExecutor``), or isolation to another actor known to share the
    /// executor.
    ///
    /// The operation should form no closure of its own: the compiler checks, with the
    /// runtime, the executor at the start of a closure formed inside an isolated one.
    @inlinable
    package nonisolated func assumingIsolation<T: Sendable, E: Error>(
        established: Bool, _ operation: (isolated Self) throws(E) -> T
    ) throws(E) -> T {
        if !established { preconditionIsolated() }
        return try runIsolated(operation)
    }

    /// Runs `operation` as this actor, unchecked: see ``assumingIsolation(_:)``.
    @inlinable
    nonisolated func runIsolated<T: Sendable, E: Error>(_ operation: (isolated Self) throws(E) -> T) throws(E) -> T {
        let runner = IsolatedRunner<Self, T, E> { actor, operation throws(E) in try operation(actor) }
        return try unsafeBitCast(runner, to: NonisolatedRunner<Self, T, E>.self).run(self, operation)
    }
}

/// A serial executor that runs its jobs on one thread, and can say cheaply whether the
/// calling thread is that one: anything running there is isolated to an actor whose
/// executor it is, inside one of its jobs or not (as the executor's `checkIsolated()`
/// holds too).
@usableFromInline
package protocol ThreadBoundExecutor: SerialExecutor {
    /// Whether the calling thread is the executor's.
    var isCurrentThread: Bool { get }
}

/// A function that runs an operation isolated to `A`, as its isolated argument.
@usableFromInline
package struct IsolatedRunner<A: Actor, T, E: Error> {
    @usableFromInline let run: (isolated A, (isolated A) throws(E) -> T) throws(E) -> T

    @inlinable init(_ run: @escaping (isolated A, (isolated A) throws(E) -> T) throws(E) -> T) { self.run = run }
}

/// ``IsolatedRunner`` as seen from outside `A`'s isolation: the same layout, the actor an
/// ordinary argument.
@usableFromInline
package struct NonisolatedRunner<A: Actor, T, E: Error> {
    @usableFromInline let run: (A, (isolated A) throws(E) -> T) throws(E) -> T
}
