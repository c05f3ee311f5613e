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
    @inlinable
    package nonisolated func assumingIsolation<T: Sendable>(_ operation: (isolated Self) -> T) -> T {
        preconditionIsolated()
        let runner = IsolatedRunner<Self, T> { actor, operation in operation(actor) }
        return unsafeBitCast(runner, to: NonisolatedRunner<Self, T>.self).run(self, operation)
    }
}

/// A function that runs an operation isolated to `A`, as its isolated argument.
@usableFromInline
package struct IsolatedRunner<A: Actor, T> {
    @usableFromInline let run: (isolated A, (isolated A) -> T) -> T

    @inlinable init(_ run: @escaping (isolated A, (isolated A) -> T) -> T) { self.run = run }
}

/// ``IsolatedRunner`` as seen from outside `A`'s isolation: the same layout, the actor an
/// ordinary argument.
@usableFromInline
package struct NonisolatedRunner<A: Actor, T> {
    @usableFromInline let run: (A, (isolated A) -> T) -> T
}
