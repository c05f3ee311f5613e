import SceneFlow
import SceneSync

/// Backs the instances of `inProcess` scenes with the behaviours the program registered:
/// makes one per instance, starts it, hands it its instance's changes in order, carries
/// calls to it with a deadline, asks it to close, stops it, and restarts it by its scene's
/// policy when it ends.
final class BehaviorHost<R: Route>: SceneBacking {
    /// One instance's behaviour, for one start: a restart makes a new one.
    final class Hosted: Sendable {
        let behavior: any SceneBehavior<R>
        let generation: Int
        let mailbox: Mailbox<R>

        init(behavior: any SceneBehavior<R>, generation: Int, registryExecutor: (any SerialExecutor)?) {
            self.behavior = behavior
            self.generation = generation
            self.mailbox = Mailbox(behavior)
            // A behaviour that runs on the registry's executor has its workers prefer it,
            // when it can be preferred.
            let shared = registryExecutor.flatMap { executor in
                Self.same(behavior.unownedExecutor, executor.asUnownedSerialExecutor()) ? executor as? any TaskExecutor : nil
            }
            self.workers = CallWorkers(behavior, preferring: shared)
        }

        /// Whether two executor references name the same executor (the type has no `==`).
        private static func same(_ one: UnownedSerialExecutor, _ other: UnownedSerialExecutor) -> Bool {
            withUnsafeBytes(of: one) { one in withUnsafeBytes(of: other) { other in one.elementsEqual(other) } }
        }

        /// The tasks that answer its calls.
        let workers: CallWorkers
    }

    private struct State {
        var hosted: [InstanceID: Hosted] = [:]
        var histories: [InstanceID: RestartHistory] = [:]
        var generations: [InstanceID: Int] = [:]
        var registry = Weak()
    }

    struct Weak {
        weak var registry: SceneRegistry<R>?
    }

    let factories: [String: SceneBehaviorFactory<R>]
    let timeouts: SceneTimeouts
    private let state = Locked(State())
    /// The running behaviours (their start returned, they did not end), for calls.
    let callees = Callees()
    private let started = ContinuousClock.now

    init(factories: [String: SceneBehaviorFactory<R>], timeouts: SceneTimeouts) {
        self.factories = factories
        self.timeouts = timeouts
    }

    func attach(_ registry: SceneRegistry<R>) {
        state.withLock { $0.registry.registry = registry }
    }

    var registry: SceneRegistry<R>? { state.withLock { $0.registry.registry } }

    /// The running behaviour of `instance`, if there is one.
    func running(_ instance: InstanceID) -> Hosted? {
        guard callees.workers(instance) != nil else { return nil }
        return state.withLock { $0.hosted[instance] }
    }

    // MARK: Changes

    /// Hands a hosted instance its own flow and phase changes, in order, as the registry
    /// emits them (it runs on the registry's executor, for every event).
    func observe(_ event: SequencedEvent<R>) {
        let delivery: (InstanceID, Mailbox<R>.Delivery)
        switch event.event {
        case .flowChanged(let id, let path): delivery = (id, .flow(path))
        case .phaseChanged(let id, let phase): delivery = (id, .phase(phase))
        case .opened(let info): delivery = (info.id, .phase(info.phase))
        default: return
        }
        guard let hosted = state.withLock({ $0.hosted[delivery.0] }) else { return }
        hosted.mailbox.post(delivery.1)
    }

    // MARK: SceneBacking

    func launch(_ instance: InstanceID) async throws(RegistryRejection) {
        if case .failure(let error) = await begin(instance) {
            throw .launchFailed(instance, detail: String(describing: error))
        }
    }

    /// Makes and starts a behaviour for `instance`: its deliveries wait until its start
    /// returned; calls are `not_connected` until then.
    private func begin(_ instance: InstanceID) async -> Result<Void, any Error> {
        guard let factory = factories[instance.scene], let registry else {
            return .failure(SceneError.notConnected(instance))
        }
        let value = await registry.recordedValue(of: instance)
        let identity = SceneIdentity(instance: instance, value: value, executor: registry.unownedExecutor)
        let generation = state.withLock { state -> Int in
            state.generations[instance, default: 0] += 1
            return state.generations[instance]!
        }
        let hosted = Hosted(behavior: factory(identity), generation: generation, registryExecutor: registry.executor)
        state.withLock { $0.hosted[instance] = hosted }
        let context = SceneContext<R>(
            instance: instance, value: value, actions: RegistryActions(host: self, owner: registry, instance: instance, generation: generation))
        do {
            try await hosted.behavior.start(in: context)
        } catch {
            state.withLock { state in
                if state.hosted[instance] === hosted { state.hosted[instance] = nil }
            }
            return .failure(error)
        }
        let current = state.withLock { state -> Bool in
            guard state.hosted[instance] === hosted else { return false }
            callees.set(instance, hosted.workers)
            return true
        }
        // Stopped while it started: it hears its stop after its start.
        if !current { hosted.mailbox.post(.stop) }
        hosted.mailbox.open()
        return .success(())
    }

    func stop(_ instance: InstanceID) async {
        let hosted = state.withLock { state -> Hosted? in
            callees.set(instance, nil)
            state.histories[instance] = nil
            return state.hosted.removeValue(forKey: instance)
        }
        guard let hosted else { return }
        hosted.mailbox.post(.closing)
        hosted.mailbox.post(.stop)
    }

    func close(_ instance: InstanceID, force: Bool) async -> Bool {
        guard let hosted = running(instance) else { return true }
        // Asked as a call is made, so that no answer within the grace time is one too.
        let answer = try? await Callees.run(.close(force: force), on: hosted.workers, instance: instance, timeout: timeouts.close).get()
        // No answer in time counts as accepted; a forced close cannot be refused.
        guard let answer, !force else { return true }
        return (try? answer.json()) != .bool(false)
    }

    func call(_ call: SceneCall, on instance: InstanceID, timeout: Duration) async throws(SceneError) -> ScenePayload {
        guard let workers = callees.workers(instance) else { throw .notConnected(instance) }
        return try await Callees.call(call, on: workers, instance: instance, timeout: timeout)
    }

    func notify(_ call: SceneCall, on instance: InstanceID) async throws(SceneError) {
        guard let hosted = running(instance) else { throw .notConnected(instance) }
        hosted.mailbox.post(.notification(call))
    }

    // MARK: Ends and restarts

    /// The behaviour of start `generation` of `instance` ended (cleanly when `error` is
    /// nil): the scene's restart policy decides between a new behaviour and a dismiss.
    func ended(_ instance: InstanceID, generation: Int, error: (any Error)?) {
        let hosted = state.withLock { state -> Hosted? in
            guard let hosted = state.hosted[instance], hosted.generation == generation, callees.workers(instance) != nil
            else { return nil }
            callees.set(instance, nil)
            state.hosted[instance] = nil
            return hosted
        }
        guard let hosted, let registry else { return }
        hosted.mailbox.post(.stop)
        Task { await supervise(instance, clean: error == nil, registry: registry) }
    }

    /// Applies the restart policy after an end, as a supervisor does for a process.
    private func supervise(_ instance: InstanceID, clean: Bool, registry: SceneRegistry<R>) async {
        guard let policy = registry.declaration(of: instance.scene)?.restart else { return }
        let now = (ContinuousClock.now - started) / .seconds(1)
        let decision = state.withLock { state -> SupervisionDecision in
            var history = state.histories[instance] ?? RestartHistory(policy: policy)
            defer { state.histories[instance] = history }
            return history.decide(clean: clean, now: now)
        }
        await registry.processDisconnected(instance, exit: .exited(clean ? 0 : 1))
        switch decision {
        case .dismiss(let reason):
            await registry.dismissProcess(instance, reason: reason)
        case .restart:
            guard await registry.instance(instance) != nil else { return }
            switch await begin(instance) {
            case .success:
                if case .failure = await registry.attached(instance) { await stop(instance) }
            case .failure:
                // A restart that cannot start counts as one more abnormal end.
                await supervise(instance, clean: false, registry: registry)
            }
        }
    }

    /// Starts behaviours for restored instances, which come back `disconnected` until they
    /// have started. Restarts after a restore are not counted against the policy.
    func adopt(_ instances: [InstanceID]) {
        for instance in instances {
            Task {
                guard let registry else { return }
                switch await begin(instance) {
                case .success:
                    if case .failure = await registry.attached(instance) { await stop(instance) }
                case .failure:
                    await supervise(instance, clean: false, registry: registry)
                }
            }
        }
    }

    /// Stops every behaviour without dismissing its instance (the program is shutting
    /// down): each hears a forced close, then its stop; returns once all have.
    func stopAll() async {
        let all = state.withLock { state -> [Hosted] in
            defer { state.hosted.removeAll() }
            return Array(state.hosted.values)
        }
        callees.removeAll()
        await withTaskGroup(of: Void.self) { group in
            for hosted in all {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        hosted.mailbox.post(.closing)
                        hosted.mailbox.post(.stop)
                        hosted.mailbox.post(.done { continuation.resume() })
                    }
                }
            }
        }
    }

    /// Lets go of every behaviour (the registry is gone).
    func clear() {
        state.withLock { $0.hosted.removeAll() }
        callees.removeAll()
    }
}

/// Hands a behaviour its deliveries one at a time, in the order they were posted, once
/// its start returned.
final class Mailbox<R: Route>: Sendable {
    enum Delivery: Sendable {
        case flow([RouteStep<R>])
        case phase(ScenePhase)
        case notification(SceneCall)
        case closing
        case stop
        /// Runs once everything before it was delivered.
        case done(@Sendable () -> Void)
    }

    private struct State {
        var queue = FIFOQueue<Delivery>()
        var open = false
        var draining = false
    }

    private let state = Locked(State())
    private let deliver: @Sendable (Delivery) async -> Void

    init(_ behavior: any SceneBehavior<R>) {
        deliver = { delivery in
            switch delivery {
            case .flow(let path): await behavior.flowChanged(to: path)
            case .phase(let phase): await behavior.phaseChanged(to: phase)
            case .notification(let call): await behavior.receive(call)
            case .closing: _ = await behavior.close(force: true)
            case .stop: await behavior.stop()
            case .done(let body): body()
            }
        }
    }

    func post(_ delivery: Delivery) {
        let start = state.withLock { state -> Bool in
            state.queue.append(delivery)
            guard state.open, !state.draining else { return false }
            state.draining = true
            return true
        }
        if start { drain() }
    }

    /// Deliveries may go out from now on.
    func open() {
        let start = state.withLock { state -> Bool in
            state.open = true
            guard !state.draining, state.queue.count > 0 else { return false }
            state.draining = true
            return true
        }
        if start { drain() }
    }

    private func drain() {
        Task {
            while let next = state.withLock({ state -> Delivery? in
                guard let next = state.queue.popFirst() else {
                    state.draining = false
                    return nil
                }
                return next
            }) {
                await deliver(next)
            }
        }
    }
}
