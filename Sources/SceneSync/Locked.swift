import Glibc

/// A value that threads share, behind a pthread mutex.
///
/// It stands in for `Synchronization.Mutex`, which on Linux locks with raw futexes that
/// ThreadSanitizer cannot see (Swift 6.3.1: a program whose only shared state is a
/// `Mutex`-protected array is reported as racing). A pthread mutex is intercepted by the
/// sanitizer, so `swift test --sanitize=thread` checks the project's own code instead of
/// reporting every lock.
///
/// - It is `Sendable` only when `Value` is: the lock orders access to the value, but a
///   non-`Sendable` value could still leave `withLock` (in its result) and be used on two
///   threads at once.
public final class Locked<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    /// Shares `value` behind a new mutex.
    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Adaptive: a thread that finds the mutex held spins a little before it sleeps.
        // Every critical section here is a few instructions, so the holder is nearly
        // always gone before the spin ends, and neither side pays a futex call.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    ///
    /// Inlinable, so that a caller in another module gets it specialized for its value
    /// rather than looking up the value's generic metadata on every call.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    @usableFromInline func lock() {
        pthread_mutex_lock(mutex)
    }

    @usableFromInline func unlock() {
        pthread_mutex_unlock(mutex)
    }
}

// Safe: `value` is read and written only between `lock()` and `unlock()` of `mutex`,
// in `withLock`; what leaves it is `Sendable`.
extension Locked: @unchecked Sendable where Value: Sendable {}
