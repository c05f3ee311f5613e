import Foundation
import Glibc
public import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync

/// Starts, watches and restarts the processes behind process-backed scene instances.
/// Lives on the coordinator's loop thread, so it needs no lock.
///
/// - A process gets a fresh single-use token; the instance stays `opening` (or
///   `disconnected`, for a restart) until the process says `hello` with it.
/// - A process is dead when it exits (its pidfd), or when it misses the configured number
///   of heartbeats in a row (then it is killed). Its instance goes `disconnected`; the
///   scene's ``RestartHistory`` decides between a restart and a dismiss.
/// - A dismissed instance's process is stopped in stages: `scene.close {force: true}`,
///   the connection closed, a grace time to exit, SIGTERM, then SIGKILL.
final class Supervisor {
    let registry: any ServedRegistry
    let configuration: CoordinatorConfiguration
    let loop: EventLoop
    private var slots: [InstanceID: Slot] = [:]
    private var pendingTokens: [(token: SceneToken, id: InstanceID)] = []
    private let started = ContinuousClock.now
    private var closing = false
    private var stopWaiters: [() -> Void] = []
    /// Called whenever the set of processes changes (for the state file).
    var onChange: (() -> Void)?

    /// One process-backed instance.
    final class Slot {
        let id: InstanceID
        let spec: LaunchSpec
        var history: RestartHistory
        var process: SpawnedProcess?
        var session: Session?
        var token: SceneToken?
        /// The opener waiting for the first hello.
        var launchWaiter: CheckedContinuation<Result<Void, RegistryRejection>, Never>?
        /// Counts spawns; timers and exit callbacks of an older spawn are ignored.
        var generation = 0
        var pingOutstanding = false
        var missedPings = 0
        /// Killed by the supervisor (heartbeats, launch timeout): an abnormal end whatever
        /// its status.
        var killed = false
        /// Dismissed or shutting down: never restarted.
        var stopping = false

        init(id: InstanceID, spec: LaunchSpec, policy: RestartPolicy) {
            self.id = id
            self.spec = spec
            self.history = RestartHistory(policy: policy)
        }
    }

    init(registry: any ServedRegistry, configuration: CoordinatorConfiguration, loop: EventLoop) {
        self.registry = registry
        self.configuration = configuration
        self.loop = loop
    }

    var bound: LoopBound<Supervisor> { LoopBound(self, loop: loop) }

    /// Starts the heartbeat.
    func start() {
        scheduleBeat()
    }

    /// Tells the process behind a flow or phase change's instance, if one is connected.
    func forward(_ event: SequencedEvent<JSONValue>) {
        guard !slots.isEmpty else { return }
        switch event.event {
        case .flowChanged(let id, let path):
            guard let session = slots[id]?.session else { return }
            session.notify(SceneMethod.flowChanged, params: RawJSON(.object(["path": WireCodec.json(path), "seq": .integer(Int(event.seq))])))
        case .phaseChanged(let id, let phase):
            guard let session = slots[id]?.session else { return }
            session.notify(SceneMethod.phaseChanged, params: RawJSON(.object(["phase": .string(phase.rawValue)])))
        default:
            break
        }
    }

    // MARK: Opening

    /// Starts the process behind `id`; `waiter` hears once it said hello, or why not.
    func launch(_ id: InstanceID, waiter: CheckedContinuation<Result<Void, RegistryRejection>, Never>) {
        guard let (spec, restart) = registry.launch(of: id.scene) else {
            waiter.resume(returning: .success(()))
            return
        }
        guard !closing else {
            waiter.resume(returning: .failure(.launchFailed(id, detail: "the coordinator is shutting down")))
            return
        }
        let slot = Slot(id: id, spec: spec, policy: restart)
        slot.launchWaiter = waiter
        slots[id] = slot
        spawn(slot)
    }

    /// Starts processes for restored instances, which come back `disconnected` until they
    /// say hello. Restarts after a coordinator restart are not counted against the policy.
    func adopt(_ ids: [InstanceID]) {
        guard !closing else { return }
        for id in ids {
            guard let (spec, restart) = registry.launch(of: id.scene), slots[id] == nil else { continue }
            let slot = Slot(id: id, spec: spec, policy: restart)
            slots[id] = slot
            spawn(slot)
        }
    }

    private func spawn(_ slot: Slot) {
        slot.generation += 1
        slot.killed = false
        slot.pingOutstanding = false
        slot.missedPings = 0
        let generation = slot.generation
        let token = SceneToken.make()
        var environment = configuration.processEnvironment
        environment.merge(slot.spec.environment) { _, new in new }
        environment["SCENE_SOCKET"] = configuration.socketPath
        environment["SCENE_INSTANCE"] = slot.id.description
        environment["SCENE_TOKEN"] = token.text
        let request = SpawnRequest(command: slot.spec.command, environment: environment, workingDirectory: slot.spec.workingDirectory)
        do {
            slot.process = try SpawnedProcess.spawn(request, loop: loop) { [unowned self] end in
                self.processEnded(slot, generation: generation, end: end)
            }
        } catch {
            Log.warn("\(slot.id): cannot start \(slot.spec.command.joined(separator: " ")): \(error.message)")
            spawnFailed(slot, detail: "\(slot.spec.command.first ?? ""): \(error.message)")
            return
        }
        slot.token = token
        pendingTokens.append((token, slot.id))
        let (id, pid) = (slot.id, slot.process?.pid ?? 0)
        // The registry runs on this loop's thread too: what the supervisor tells it takes
        // effect at once, in the order it happened.
        registry.processSpawned(id, pid: pid)
        Log.info("\(id): started pid \(pid)")
        onChange?()
        let timeout = slot.spec.timeout.map { Duration.milliseconds(Int($0 * 1000)) } ?? configuration.launchTimeout
        loop.scheduleOnLoop(after: timeout) { [weak self] in self?.launchTimedOut(id, generation: generation) }
    }

    private func spawnFailed(_ slot: Slot, detail: String) {
        if let waiter = slot.launchWaiter {
            slot.launchWaiter = nil
            slots[slot.id] = nil
            waiter.resume(returning: .failure(.launchFailed(slot.id, detail: detail)))
        } else {
            // A restart that cannot start counts as one more abnormal end.
            supervise(slot, exit: nil, clean: false)
        }
    }

    private func launchTimedOut(_ id: InstanceID, generation: Int) {
        guard let slot = slots[id], slot.generation == generation, slot.session == nil, let token = slot.token,
            let process = slot.process
        else { return }
        forget(token)
        slot.token = nil
        let seconds = slot.spec.timeout ?? Double(configuration.launchTimeout.components.seconds)
        Log.warn("\(id): pid \(process.pid) did not say hello within \(seconds) s; killing it")
        if let waiter = slot.launchWaiter {
            slot.launchWaiter = nil
            slot.stopping = true
            waiter.resume(returning: .failure(.launchTimeout(id, seconds: seconds)))
        }
        slot.killed = true
        process.killGroup(SIGKILL)
    }

    // MARK: Hello

    /// The instance whose outstanding token `candidate` is, once: the token is spent.
    func claim(token candidate: String, session: Session) -> InstanceID? {
        // Every outstanding token is compared, each in constant time.
        var found: Int?
        for (index, entry) in pendingTokens.enumerated() where entry.token.matches(candidate) { found = index }
        guard let index = found else { return nil }
        let (_, id) = pendingTokens.remove(at: index)
        guard let slot = slots[id], slot.process != nil else { return nil }
        slot.token = nil
        slot.session = session
        if let waiter = slot.launchWaiter {
            slot.launchWaiter = nil
            waiter.resume(returning: .success(()))
        }
        return id
    }

    /// Tells the registry that `id`'s process said hello; answers the instance, or why it
    /// is gone (its process is then stopped).
    func attach(_ id: InstanceID) -> Result<InstanceInfo<JSONValue>, RegistryRejection> {
        let attached = registry.processAttached(id)
        if case .failure = attached { stop(id) }
        return attached
    }

    private func forget(_ token: SceneToken) {
        pendingTokens.removeAll { $0.token == token }
    }

    /// The connected session of `id`'s process, if any.
    func session(of id: InstanceID) -> Session? { slots[id]?.session }

    /// A scene session closed: its process is expected to exit; it gets the staged stop's
    /// grace time to do so. When the coordinator closed it (a framing error, a full write
    /// queue), the end counts as abnormal whatever the exit status.
    func sessionClosed(_ session: Session, reason: CloseReason) {
        guard let id = session.instance, let slot = slots[id], slot.session === session else { return }
        slot.session = nil
        slot.pingOutstanding = false
        switch reason {
        case .peerClosed, .eofMidFrame: break
        default: if !slot.stopping { slot.killed = true }
        }
        if slot.process != nil, !slot.stopping { terminate(slot) }
    }

    // MARK: Ends

    private func processEnded(_ slot: Slot, generation: Int, end: ProcessEnd) {
        guard slots[slot.id] === slot, slot.generation == generation else { return }
        slot.process = nil
        if let token = slot.token {
            forget(token)
            slot.token = nil
        }
        let session = slot.session
        slot.session = nil
        session?.closeScene()
        onChange?()
        let exit: ProcessExit
        switch end {
        case .exited(let status): exit = .exited(status)
        case .signalled(let signal): exit = .signalled(signal)
        }
        Log.info("\(slot.id): process \(exit)")
        if slot.stopping {
            slots[slot.id] = nil
            finishStopIfDone()
        } else if let waiter = slot.launchWaiter {
            slot.launchWaiter = nil
            slots[slot.id] = nil
            waiter.resume(returning: .failure(.launchFailed(slot.id, detail: "the process \(exit) before it said hello")))
        } else {
            supervise(slot, exit: exit, clean: exit.isClean && !slot.killed)
        }
    }

    /// Applies the restart policy after an end: the instance goes `disconnected`, then is
    /// restarted or dismissed.
    private func supervise(_ slot: Slot, exit: ProcessExit?, clean: Bool) {
        let now = (ContinuousClock.now - started) / .seconds(1)
        let decision = slot.history.decide(clean: clean, now: now)
        let id = slot.id
        let generation = slot.generation
        if case .dismiss(let reason) = decision {
            slot.stopping = true
            slots[id] = nil
            Log.info("\(id): dismissed (\(reason.rawValue))")
        }
        registry.processDisconnected(id, exit: exit)
        switch decision {
        case .restart:
            // Spawned from the loop's next pass, not from inside this end's handling.
            let supervisor = bound
            loop.execute { supervisor.value.restart(id, generation: generation) }
        case .dismiss(let reason):
            registry.dismissProcess(id, reason: reason)
        }
    }

    private func restart(_ id: InstanceID, generation: Int) {
        guard let slot = slots[id], slot.generation == generation, !slot.stopping, slot.process == nil, !closing else { return }
        Log.info("\(id): restarting")
        spawn(slot)
    }

    // MARK: Heartbeat

    private func scheduleBeat() {
        loop.scheduleOnLoop(after: configuration.heartbeatInterval) { [weak self] in
            guard let self, !self.closing else { return }
            self.beat()
            self.scheduleBeat()
        }
    }

    private func beat() {
        for slot in slots.values {
            guard let session = slot.session, let process = slot.process else { continue }
            if slot.pingOutstanding {
                slot.missedPings += 1
                if slot.missedPings >= configuration.heartbeatMisses {
                    Log.warn("\(slot.id): \(slot.missedPings) heartbeats unanswered; killing pid \(process.pid)")
                    slot.killed = true
                    process.killGroup(SIGKILL)
                }
                continue
            }
            slot.pingOutstanding = true
            let generation = slot.generation
            session.request(SceneMethod.ping, params: RawJSON(.object([:])), timeout: nil) { [unowned self] _ in
                // Any answer, even an error, means it is alive.
                guard let slot = self.slots[slot.id], slot.generation == generation else { return }
                slot.pingOutstanding = false
                slot.missedPings = 0
            }
        }
    }

    // MARK: Closing and stopping

    /// Asks `id`'s process whether it may close; `completion` hears `false` for a veto.
    /// No process, no answer within the grace time, or an error counts as accepted.
    func askClose(_ id: InstanceID, force: Bool, completion: @escaping (Bool) -> Void) {
        guard let session = slots[id]?.session else {
            completion(true)
            return
        }
        session.request(SceneMethod.close, params: RawJSON(WireCodec.json(SceneCloseParams(force: force))), timeout: configuration.closeGrace) { result in
            if case .success(let answer) = result, answer.value["accepted"] == .bool(false), !force {
                completion(false)
            } else {
                completion(true)
            }
        }
    }

    /// `id` was dismissed: its process is stopped in stages, and never restarted.
    func stop(_ id: InstanceID) {
        guard let slot = slots[id] else { return }
        slot.stopping = true
        if let token = slot.token {
            forget(token)
            slot.token = nil
        }
        if let waiter = slot.launchWaiter {
            slot.launchWaiter = nil
            waiter.resume(returning: .failure(.cancelled(id)))
        }
        guard slot.process != nil else {
            slots[id] = nil
            finishStopIfDone()
            return
        }
        guard let session = slot.session else {
            terminate(slot)
            return
        }
        askClose(id, force: true) { [unowned self] _ in
            session.closeScene()
            self.terminate(slot)
        }
    }

    /// Waits the grace time for the process to exit, then SIGTERM, then SIGKILL.
    private func terminate(_ slot: Slot) {
        guard let pid = slot.process?.pid else { return }
        let generation = slot.generation
        let id = slot.id
        let grace = configuration.closeGrace
        let term = configuration.terminateGrace
        loop.scheduleOnLoop(after: grace) { [weak self] in
            guard let self, let process = self.running(id, generation: generation, pid: pid) else { return }
            Log.info("\(id): pid \(pid) still runs \(grace) after its close; SIGTERM")
            self.slots[id]?.killed = true
            process.killGroup(SIGTERM)
            self.loop.scheduleOnLoop(after: term) { [weak self] in
                guard let process = self?.running(id, generation: generation, pid: pid) else { return }
                Log.warn("\(id): pid \(pid) outlived SIGTERM by \(term); SIGKILL")
                process.killGroup(SIGKILL)
            }
        }
    }

    /// The process of `id` when it is still the one of spawn `generation`.
    private func running(_ id: InstanceID, generation: Int, pid: Int32) -> SpawnedProcess? {
        guard let slot = slots[id], slot.generation == generation, let process = slot.process, process.pid == pid else { return nil }
        return process
    }

    /// Stops every process in stages without dismissing any instance (coordinator
    /// shutdown); `completion` runs once none is left.
    func stopAll(completion: @escaping () -> Void) {
        closing = true
        stopWaiters.append(completion)
        for id in Array(slots.keys) { stop(id) }
        finishStopIfDone()
    }

    private func finishStopIfDone() {
        guard closing, slots.isEmpty else { return }
        let waiters = stopWaiters
        stopWaiters.removeAll()
        for waiter in waiters { waiter() }
    }

    /// Ends the heartbeat (the loop is stopping; processes die with it).
    func close() {
        closing = true
    }

    /// The running processes, for the state file.
    var processes: [RecordedProcess] {
        slots.values.compactMap { slot in
            slot.process.map { RecordedProcess(instance: slot.id.description, pid: $0.pid, started: RecordedProcess.startTime(of: $0.pid)) }
        }.sorted { $0.instance < $1.instance }
    }
}

/// A scene process as the state file records it, so that a coordinator started again can
/// end what the previous run left behind (and nothing else: the start time must match).
public struct RecordedProcess: Codable, Hashable, Sendable {
    /// The instance it ran, as its id string (`notes-2`).
    public var instance: String
    /// The pid, which is also its process group id.
    public var pid: Int32
    /// The start time in clock ticks after boot (`/proc/<pid>/stat`, field 22).
    public var started: UInt64?

    /// A record with every member given.
    public init(instance: String, pid: Int32, started: UInt64?) {
        self.instance = instance
        self.pid = pid
        self.started = started
    }

    /// Field 22 of `/proc/<pid>/stat`, or nil when the process does not exist.
    public static func startTime(of pid: Int32) -> UInt64? {
        statFields(of: pid).flatMap { UInt64($0[19]) }
    }

    /// The fields of `/proc/<pid>/stat` from field 3 on (index 0 is field 3), when there
    /// are at least 22; nil when the process does not exist.
    static func statFields(of pid: Int32) -> [Substring]? {
        guard let fields = Processes.statFields(of: pid) else { return nil }
        return fields.count > 19 ? fields : nil
    }
}

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
}
