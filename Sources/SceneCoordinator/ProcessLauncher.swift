public import SceneCore
import SceneJSON
import SceneSocket
import SceneSync
import SceneWire

/// What backs process scenes, for the registry: opens wait for hello, dismisses stop
/// processes, interactive closes are asked, and calls from in-process scenes go through the
/// process's connection.
/// Made before the registry, attached to its coordinator's supervisor once that exists.
public final class ProcessLauncher: SceneBacking {
    private let attached = Locked<LoopBound<Supervisor>?>(nil)

    /// A launcher with no supervisor yet: opens of process scenes fail until its
    /// coordinator attaches one.
    public init() {}

    func attach(_ supervisor: LoopBound<Supervisor>) {
        attached.withLock { $0 = supervisor }
    }

    public func launch(_ instance: InstanceID) async throws(RegistryRejection) {
        guard let supervisor = attached.withLock({ $0 }) else {
            throw .launchFailed(instance, detail: "no coordinator serves this registry yet")
        }
        let result = await withCheckedContinuation { continuation in
            let running = supervisor.loop.execute { supervisor.value.launch(instance, waiter: continuation) }
            if !running {
                continuation.resume(returning: .failure(.launchFailed(instance, detail: "the coordinator has stopped")))
            }
        }
        try result.get()
    }

    public func stop(_ instance: InstanceID) async {
        guard let supervisor = attached.withLock({ $0 }) else { return }
        supervisor.loop.execute { supervisor.value.stop(instance) }
    }

    public func call(_ call: SceneCall, on instance: InstanceID, timeout: Duration) async throws(SceneError) -> ScenePayload {
        let params = try call.params.json()
        guard let supervisor = attached.withLock({ $0 }) else { throw .notConnected(instance) }
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RawJSON, WireError>, Never>) in
            let running = supervisor.loop.execute {
                guard let session = supervisor.value.session(of: instance) else {
                    continuation.resume(returning: .failure(SceneError.notConnected(instance)))
                    return
                }
                session.request(call.method, params: RawJSON(params), timeout: timeout) { continuation.resume(returning: $0) }
            }
            if !running { continuation.resume(returning: .failure(SceneError.notConnected(instance))) }
        }
        switch answer {
        case .success(let result): return ScenePayload(json: result.value)
        case .failure(let error): throw error
        }
    }

    public func notify(_ call: SceneCall, on instance: InstanceID) async throws(SceneError) {
        let params = try call.params.json()
        guard let supervisor = attached.withLock({ $0 }) else { throw .notConnected(instance) }
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let running = supervisor.loop.execute {
                guard let session = supervisor.value.session(of: instance) else { return continuation.resume(returning: false) }
                session.notify(call.method, params: RawJSON(params))
                continuation.resume(returning: true)
            }
            if !running { continuation.resume(returning: false) }
        }
        guard delivered else { throw .notConnected(instance) }
    }

    public func close(_ instance: InstanceID, force: Bool) async -> Bool {
        guard let supervisor = attached.withLock({ $0 }) else { return true }
        return await withCheckedContinuation { continuation in
            let running = supervisor.loop.execute {
                supervisor.value.askClose(instance, force: force) { continuation.resume(returning: $0) }
            }
            if !running { continuation.resume(returning: true) }
        }
    }

    /// Stops the process of `instance` in stages and starts a new one (as `scene.restart`).
    public func restart(_ instance: InstanceID) async -> Bool {
        guard let supervisor = attached.withLock({ $0 }) else { return false }
        return await withCheckedContinuation { continuation in
            let running = supervisor.loop.execute { continuation.resume(returning: supervisor.value.restart(instance)) }
            if !running { continuation.resume(returning: false) }
        }
    }
}
