import Dispatch

/// The one serial executor a registry and all of its scene instances run on.
///
/// Sharing it makes every instance an actor of its own — callers `await` it like any
/// actor — while the registry can act on several instances in one step, synchronously
/// (`assumeIsolated`), so a request that opens a scene and applies its path is never
/// interleaved with another request.
///
/// It is also a task executor: a task that prefers it (`Task(executorPreference:)`) runs on
/// the registry's queue between its calls into the registry, so a request's task does not
/// hop to a thread of the shared pool and back around each call.
final class RegistryExecutor: SerialExecutor, TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
    }
}
