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
    private var value: Value

    /// Shares `value` behind a new mutex.
    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

// Safe: `value` is read and written only between `pthread_mutex_lock` and
// `pthread_mutex_unlock` on `mutex`, in `withLock`; what leaves it is `Sendable`.
extension Locked: @unchecked Sendable where Value: Sendable {}
