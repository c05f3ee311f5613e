import Dispatch

/// The one serial executor a registry and all of its scene instances run on.
///
/// Sharing it makes every instance an actor of its own — callers `await` it like any
/// actor — while the registry can act on several instances in one step, synchronously
/// (`assumeIsolated`), so a request that opens a scene and applies its path is never
/// interleaved with another request.
final class RegistryExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
