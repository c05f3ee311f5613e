import Glibc
import SceneCore
import SceneJSON
import SceneSocket

/// Starts, watches and restarts the processes behind process-backed scene instances: a
/// thin driver around one ``ProcessSlot`` value per instance. The slot decides what
/// happens (its rules are in ProcessSlot.swift); the supervisor holds what the decisions
/// act on — the process, its token, its session, the waiting opener — and performs them.
/// Lives on the coordinator's loop thread, so it needs no lock.
///
/// - A process gets a fresh single-use token; the instance stays `opening` (or
///   `disconnected`, for a restart) until the process says `hello` with it.
/// - A process is dead when it exits (its pidfd), or when it misses the configured number
///   of heartbeats in a row (then it is killed). Its instance goes `disconnected`; the
///   scene's ``RestartHistory`` decides between a restart and a dismiss.
/// - A dismissed instance's process is stopped in stages: `scene.close {force: true}`,
///   the connection closed, a grace time to exit, SIGTERM, then SIGKILL.
///
/// Spawning and hello are in Supervisor+Spawning.swift, heartbeats in
/// Supervisor+Heartbeat.swift, ends and restarts in Supervisor+Restarts.swift, the staged
/// stop in Supervisor+Stopping.swift.
final class Supervisor {
    let registry: any ServedRegistry
    let configuration: CoordinatorConfiguration
    let loop: EventLoop
    var slots: [InstanceID: Supervised] = [:]
    var pendingTokens: [(token: SceneToken, id: InstanceID)] = []
    /// The attach tokens (re-attach tokens are issued and revoked here).
    let tokens: AttachTokens
    /// Processes whose attach opens an instance, waiting for its launch.
    var pendingAttaches: [PendingAttach] = []
    var closing = false
    var stopWaiters: [() -> Void] = []
    /// Called whenever the set of processes changes (for the state file).
    var onChange: (() -> Void)?
    /// Spawned processes not yet reaped: each holds a descriptor (its pidfd).
    var unreaped = 0
    /// Why no process can be started now (its server's limits: a process needs a
    /// descriptor for its pidfd, and a connection and its descriptor kept for it until it
    /// says hello), or nil when one can. Starting it takes two more descriptors for a
    /// moment, a pipe, out of the headroom.
    var noRoomForProcess: () -> String? = { nil }

    /// One process-backed instance: its slot, and what the slot's decisions act on.
    final class Supervised {
        var slot: ProcessSlot
        var process: SpawnedProcess?
        var session: Session?
        var token: SceneToken?
        /// The opener waiting for the first hello.
        var opener: CheckedContinuation<Result<Void, RegistryRejection>, Never>?
        /// For `scene.status`: when the current process started and last answered (hello
        /// or a ping), on the loop's clock; how many were started; how the last one ended
        /// and why it was killed, if it was.
        var startedAt: Double?
        var lastAnswer: Double?
        var spawns = 0
        var lastEnd: ProcessExit?
        var killCause: KillCause?
        var lastEndCause: KillCause?

        init(_ slot: ProcessSlot) {
            self.slot = slot
        }

        var id: InstanceID { slot.id }
    }

    init(registry: any ServedRegistry, configuration: CoordinatorConfiguration, loop: EventLoop, tokens: AttachTokens) {
        self.registry = registry
        self.tokens = tokens
        self.configuration = configuration
        self.loop = loop
    }

    var bound: LoopBound<Supervisor> { LoopBound(self, loop: loop) }

    /// Seconds on the loop's clock: the time restart windows are measured in.
    var now: Double { loop.clock.secondsSinceStart }

    /// Starts the heartbeat.
    func start() {
        scheduleBeat()
    }

    /// The connected session of `id`'s process, if any.
    func session(of id: InstanceID) -> Session? { slots[id]?.session }

    /// The running processes, for the state file.
    var processes: [RecordedProcess] {
        slots.values.compactMap { entry in
            entry.process.map { RecordedProcess(instance: entry.id.description, pid: $0.pid, started: RecordedProcess.startTime(of: $0.pid)) }
        }.sorted { $0.instance < $1.instance }
    }

    /// Whether `entry` is still the one supervising its instance (and not one dropped).
    func isCurrent(_ entry: Supervised) -> Bool { slots[entry.id] === entry }

    /// Performs what `entry`'s slot decided, in order.
    func perform(_ actions: [SlotAction], on entry: Supervised) {
        let id = entry.id
        for action in actions {
            switch action {
            case .spawn(let generation):
                spawnProcess(entry, generation: generation)
            case .armLaunchTimer(let generation):
                let timeout = entry.slot.spec.timeout.map { Duration.milliseconds(Int($0 * 1000)) } ?? configuration.launchTimeout
                loop.scheduleOnLoop(after: timeout) { [weak self] in self?.launchTimedOut(id, generation: generation) }
            case .forgetToken:
                if let token = entry.token {
                    pendingTokens.removeAll { $0.token == token }
                    entry.token = nil
                }
            case .openerReady:
                answerOpener(of: entry, .success(()))
            case .openerRefused(let reason):
                answerOpener(of: entry, .failure(reason))
            case .ping(let generation):
                ping(entry, generation: generation)
            case .kill(let signal, let cause):
                guard let process = entry.process else {
                    // An attached process is not the coordinator's to signal: its
                    // connection is dropped instead, and its slot hears that.
                    if entry.slot.attached, let session = entry.session {
                        entry.killCause = cause
                        Log.warn("\(id): \(cause.description); dropping its attached connection")
                        session.dropAttached(cause.description)
                    }
                    continue
                }
                entry.killCause = cause
                log(cause, id: id, pid: process.pid)
                process.killGroup(signal)
            case .closeThenTerminate:
                closeThenTerminate(entry)
            case .closeSession:
                let session = entry.session
                entry.session = nil
                session?.closeScene()
            case .armStopTimer(let stage, let generation):
                armStopTimer(stage, generation: generation, for: entry)
            case .reportDisconnected(let exit):
                registry.processDisconnected(id, exit: exit)
            case .scheduleRestart(let generation, let delay):
                // Spawned from the loop's next pass, not from inside this end's handling; or
                // after the backoff's wait, on the loop's clock.
                let supervisor = bound
                if delay > 0 {
                    loop.scheduleOnLoop(after: .milliseconds(Int64((delay * 1000).rounded()))) {
                        supervisor.value.restartDue(id, generation: generation)
                    }
                } else {
                    loop.execute { supervisor.value.restartDue(id, generation: generation) }
                }
            case .dismiss(let reason):
                Log.info("\(id): dismissed (\(reason.rawValue))")
                registry.dismissProcess(id, reason: reason)
            case .armGrace(let generation):
                let grace = entry.slot.spec.grace.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) } ?? configuration.attachGrace
                Log.info("\(id): its attached process is gone; waiting \(grace) for it to attach again")
                loop.scheduleOnLoop(after: grace) { [weak self] in
                    guard let self, self.isCurrent(entry) else { return }
                    self.perform(entry.slot.graceElapsed(generation: generation, now: self.now), on: entry)
                }
            case .remove:
                if isCurrent(entry) { slots[id] = nil }
                if entry.slot.attached { tokens.revokeReattach(of: id.description) }
                finishStopIfDone()
            }
        }
    }

    /// The slot keeps whether an open waits; the driver holds its continuation. The two
    /// agree, or an open would wait forever.
    private func answerOpener(of entry: Supervised, _ answer: Result<Void, RegistryRejection>) {
        assert(entry.opener != nil, "the slot answered an opener the supervisor does not hold")
        entry.opener?.resume(returning: answer)
        entry.opener = nil
    }

    private func log(_ cause: KillCause, id: InstanceID, pid: Int32) {
        switch cause {
        case .launchTimeout(let seconds):
            Log.warn("\(id): pid \(pid) did not say hello within \(seconds) s; killing it")
        case .heartbeats(let missed):
            Log.warn("\(id): \(missed) heartbeats unanswered; killing pid \(pid)")
        case .restartAsked:
            Log.info("\(id): a restart was asked for before pid \(pid) said hello; SIGTERM")
        case .outlivedGrace:
            Log.info("\(id): pid \(pid) still runs \(configuration.closeGrace) after its close; SIGTERM")
        case .outlivedTerminate:
            Log.warn("\(id): pid \(pid) outlived SIGTERM by \(configuration.terminateGrace); SIGKILL")
        }
    }
}
