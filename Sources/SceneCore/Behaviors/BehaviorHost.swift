import SceneFlow
import SceneSync
import Synchronization

/// Backs the instances of `inProcess` scenes with the behaviours the program registered:
/// makes one per instance, starts it, hands it its instance's changes in order, carries
/// calls to it with a deadline, asks it to close, stops it, and restarts it by its scene's
/// policy when it ends.
final class BehaviorHost<R: Route>: SceneBacking {
    /// One instance's behaviour, for one start: a restart makes a new one.
    final class Hosted: Sendable {
        let behavior: any SceneBehavior<R>
        let generation: Int
        let mailbox: Mailbox<BehaviorDelivery<R>>
        /// The tasks that answer its calls (and run its start).
        let workers: CallWorkers
        /// Whether its stop is queued (it is queued once), and how it ended while it
        /// was starting, if it did (`.some(nil)`: cleanly).
        private let ending = Locked<(stopQueued: Bool, endedWhileStarting: (any Error)??)>((false, nil))

        init(
            behavior: any SceneBehavior<R>, generation: Int, registryExecutor: (any SerialExecutor)?, time: (any TimeSource)?
        ) {
            self.behavior = behavior
            self.generation = generation
            self.mailbox = Mailbox(behavior)
            self.workers = CallWorkers(behavior, host: registryExecutor, time: time)
        }

        /// Queues its stop, after what is queued already — with a forced close first when
        /// `announced` — once, however many times it is asked.
        func queueStop(announced: Bool) {
            let first = ending.withLock { ending -> Bool in
                defer { ending.stopQueued = true }
                return !ending.stopQueued
            }
            guard first else { return }
            if announced { mailbox.deliver(.close(force: true, reply: nil)) }
            mailbox.deliver(.stop)
        }

        /// It ended before its start returned: the start counts as failed.
        func endWhileStarting(_ error: (any Error)?) {
            ending.withLock { $0.endedWhileStarting = .some(error) }
        }

        var endedWhileStarting: (any Error)?? { ending.withLock { $0.endedWhileStarting } }
    }

    private struct State {
        var hosted: [InstanceID: Hosted] = [:]
        var histories: [InstanceID: RestartHistory] = [:]
        /// By open instance: how many behaviours it has had.
        var generations: [InstanceID: Int] = [:]
        var registry = Weak()
        /// Stopped for good (shutdown): no behaviour starts any more.
        var closed = false
    }

    struct Weak {
        weak var registry: SceneRegistry<R>?
    }

    let factories: [String: SceneBehaviorFactory<R>]
    let timeouts: SceneTimeouts
    /// The interfaces the registry's scenes declare, by scene: calls to a behaviour are
    /// admitted by them.
    let interfaces: [String: SceneInterface]
    private let state = Locked(State())
    /// The running behaviours (their start returned, they did not end), for calls.
    let callees = Callees()
    private let started = ContinuousClock.now
    /// Where timeouts, the close grace and restart windows are read; nil: the system's.
    let time: (any TimeSource)?

    init(
        factories: [String: SceneBehaviorFactory<R>], timeouts: SceneTimeouts, interfaces: [String: SceneInterface],
        time: (any TimeSource)?
    ) {
        self.factories = factories
        self.timeouts = timeouts
        self.interfaces = interfaces
        self.time = time
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
        let delivery: (InstanceID, BehaviorDelivery<R>)
        switch event.event {
        case .flowChanged(let id, let path, _, _): delivery = (id, .flow(path))
        case .phaseChanged(let id, let phase): delivery = (id, .phase(phase))
        case .opened(let info), .reopened(let info, _): delivery = (info.id, .phase(info.phase))
        default: return
        }
        guard let hosted = state.withLock({ $0.hosted[delivery.0] }) else { return }
        hosted.mailbox.deliver(delivery.1)
    }

    // MARK: SceneBacking

    func launch(_ instance: InstanceID) async throws(RegistryRejection) {
        if case .failure(let error) = await begin(instance) {
            if error.reason == .callTimeout {
                throw .launchTimeout(instance, seconds: Double(timeouts.start.components.seconds))
            }
            throw .launchFailed(instance, detail: error.data["detail"]?.stringValue ?? error.message)
        }
    }

    /// Makes and starts a behaviour for `instance`, in one of its workers, within the start
    /// timeout: its deliveries wait until its start returned; calls are `not_connected`
    /// until then. A start that fails (throws, times out, or the behaviour ends during it)
    /// leaves nothing behind: the behaviour hears nothing more.
    private func begin(_ instance: InstanceID) async -> Result<Void, SceneError> {
        guard let factory = factories[instance.scene], let registry else {
            return .failure(.notConnected(instance))
        }
        let value = await registry.recordedValue(of: instance)
        let generation = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            state.generations[instance, default: 0] += 1
            return state.generations[instance]!
        }
        guard let generation else { return .failure(.sceneFailed("the registry is shutting down")) }
        let context = SceneContext<R>(
            instance: instance, value: value, executor: registry.unownedExecutor, actorSystem: registry.actorSystem,
            actions: RegistryActions(host: self, owner: registry, instance: instance, generation: generation))
        let hosted = Hosted(behavior: factory(context), generation: generation, registryExecutor: registry.executor, time: time)
        let installed = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.hosted[instance] = hosted
            return true
        }
        guard installed else { return .failure(.sceneFailed("the registry is shutting down")) }
        var failure: SceneError?
        if case .failure(let error) = await Callees.run(.start, on: hosted.workers, instance: instance, timeout: timeouts.start) {
            failure = error
        } else if case .some(let ended) = hosted.endedWhileStarting {
            failure = .sceneFailed("it ended during its start" + (ended.map { ": \($0)" } ?? ""))
        }
        if let failure {
            state.withLock { state in
                if state.hosted[instance] === hosted { state.hosted[instance] = nil }
            }
            hosted.workers.endIdle()
            hosted.mailbox.abandonBehavior()
            return .failure(failure)
        }
        let startedAt = now
        let current = state.withLock { state -> Bool in
            guard state.hosted[instance] === hosted else { return false }
            state.histories[instance]?.started(at: startedAt)
            callees.set(instance, hosted.workers)
            return true
        }
        // Stopped while it started: it hears its stop after its start (queued once).
        if !current {
            hosted.workers.endIdle()
            hosted.queueStop(announced: true)
        }
        hosted.mailbox.open()
        return .success(())
    }

    func stop(_ instance: InstanceID) async {
        let hosted = state.withLock { state -> Hosted? in
            callees.set(instance, nil)
            state.histories[instance] = nil
            state.generations[instance] = nil
            return state.hosted.removeValue(forKey: instance)
        }
        hosted?.queueStop(announced: true)
    }

    func close(_ instance: InstanceID, force: Bool) async -> Bool {
        guard let hosted = running(instance) else { return true }
        // Asked as a call is made, so that no answer within the grace time is one too.
        let answer = try? await Callees.run(.close(force: force), on: hosted.workers, instance: instance, timeout: timeouts.close).get()
        // No answer in time counts as accepted; a forced close cannot be refused.
        guard let answer, !force else { return true }
        return (try? answer.json()) != .bool(false)
    }

    /// What the running behaviour of `instance` decides for `route`; nil when it leaves it
    /// to the scope rules, answers nothing within `timeout`, or does not run now.
    func decide(_ route: R, path: [RouteStep<R>], on instance: InstanceID, timeout: Duration) async -> ScopeAction? {
        guard let workers = callees.workers(instance) else { return nil }
        let answer = try? await Callees.run(.decide(route: route, path: path), on: workers, instance: instance, timeout: timeout).get()
        return answer.flatMap { try? $0.json() }.flatMap(ScopeAction.init(decision:))
    }

    func call(_ call: SceneCall, on instance: InstanceID, timeout: Duration) async throws(SceneError) -> ScenePayload {
        guard let answer = try await callees.callIfRunning(call, to: .instance(instance), timeout: timeout) else {
            throw .notConnected(instance)
        }
        return answer
    }

    /// Tells the running behaviour of `instance` that its presenter was dismissed, in order
    /// with what it hears; nothing when none runs.
    func tellParentDismissed(_ instance: InstanceID) {
        running(instance)?.mailbox.deliver(.parentDismissed)
    }

    func notify(_ call: SceneCall, on instance: InstanceID) async throws(SceneError) {
        guard let hosted = running(instance) else { throw .notConnected(instance) }
        hosted.mailbox.deliver(.notification(call))
    }

    // MARK: Ends and restarts

    /// The behaviour of start `generation` of `instance` ended (cleanly when `error` is
    /// nil): the scene's restart policy decides between a new behaviour and a dismiss.
    func ended(_ instance: InstanceID, generation: Int, error: (any Error)?) {
        let hosted = state.withLock { state -> Hosted? in
            guard let hosted = state.hosted[instance], hosted.generation == generation else { return nil }
            guard callees.workers(instance) != nil else {
                // Still starting: its start fails once it returns.
                hosted.endWhileStarting(error)
                return nil
            }
            callees.set(instance, nil)
            state.hosted[instance] = nil
            return hosted
        }
        guard let hosted, let registry else { return }
        hosted.queueStop(announced: false)
        Task { await supervise(instance, clean: error == nil, registry: registry) }
    }

    /// Applies the restart policy after an end, as a supervisor does for a process, and the
    /// group's strategy when the policy restarts it.
    private func supervise(_ instance: InstanceID, clean: Bool, registry: SceneRegistry<R>) async {
        guard let policy = registry.declaration(of: instance.scene)?.restart else { return }
        let decision = state.withLock { state -> SupervisionDecision in
            var history = state.histories[instance] ?? RestartHistory(policy: policy)
            let decision = history.decide(clean: clean, now: now)
            // Kept only while the instance is open (a stop forgets it).
            if state.generations[instance] != nil { state.histories[instance] = history }
            return decision
        }
        await registry.processDisconnected(instance, exit: .exited(clean ? 0 : 1))
        switch decision {
        case .dismiss(let reason):
            await registry.dismissProcess(instance, reason: reason)
        case .restart(let delay):
            // Its group restarts the others its strategy names, or goes (this one too).
            if case .dismissed = await registry.groupRestart(after: instance) { return }
            if delay > 0 {
                // The backoff's wait, on the registry's time source (a test's manual clock).
                let nanoseconds = UInt64((delay * 1e9).rounded())
                if let time {
                    await time.sleep(untilNanoseconds: time.nanoseconds + nanoseconds)
                } else {
                    try? await Task.sleep(for: .nanoseconds(Int64(nanoseconds)))
                }
            }
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

    /// Now, in seconds on the time source (the system's since the host was made when none):
    /// what restart histories count in.
    private var now: Double {
        time.map { Double($0.nanoseconds) / 1e9 } ?? (ContinuousClock.now - started) / .seconds(1)
    }

    /// `scene.restart` of an in-process instance: its behaviour is stopped (it hears its
    /// stop, as at a restart after an end) and a new one made and started, the instance
    /// `disconnected` meanwhile and back when it has started. False when no behaviour of
    /// `instance` runs.
    func restart(_ instance: InstanceID) async -> Bool {
        guard let registry else { return false }
        // Only a behaviour that has started: one still starting belongs to its open.
        guard running(instance) != nil else { return false }
        let hosted = state.withLock { state -> Hosted? in
            guard let hosted = state.hosted.removeValue(forKey: instance) else { return nil }
            callees.set(instance, nil)
            return hosted
        }
        guard let hosted else { return false }
        hosted.queueStop(announced: true)
        await registry.processDisconnected(instance, exit: nil)
        switch await begin(instance) {
        case .success:
            if case .failure = await registry.attached(instance) { await stop(instance) }
        case .failure:
            await supervise(instance, clean: false, registry: registry)
        }
        return true
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
    /// down), and starts none from now on: each hears a forced close, then its stop.
    /// Returns once all have, or after the close grace.
    func stopAll() async {
        let all = state.withLock { state -> [Hosted] in
            state.closed = true
            defer { state.hosted.removeAll() }
            return Array(state.hosted.values)
        }
        callees.removeAll()
        guard !all.isEmpty else { return }
        let grace = timeouts.close
        // Read before any stop is queued: the grace counts from here.
        let graceEnds = time.map { Deadline.after(grace, on: $0) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let countdown = Countdown(all.count) { continuation.resume() }
            for hosted in all {
                hosted.queueStop(announced: true)
                hosted.mailbox.deliver(.done { countdown.tick() })
            }
            let time = self.time
            Task {
                if let time, let graceEnds {
                    await time.sleep(untilNanoseconds: graceEnds)
                } else {
                    try? await Task.sleep(for: grace)
                }
                countdown.finish()
            }
        }
    }

    /// Lets go of every behaviour (the registry is gone).
    func clear() {
        state.withLock { $0.hosted.removeAll() }
        callees.removeAll()
    }
}

/// Runs its action once, when it has been ticked `count` times or is finished, whichever
/// comes first.
final class Countdown: Sendable {
    private let left: Atomic<Int>
    private let fired = Atomic<Bool>(false)
    private let action: @Sendable () -> Void

    init(_ count: Int, _ action: @escaping @Sendable () -> Void) {
        left = Atomic(count)
        self.action = action
    }

    func tick() {
        if left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finish() }
    }

    func finish() {
        guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
        action()
    }
}
