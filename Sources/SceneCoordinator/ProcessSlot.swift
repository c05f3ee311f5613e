import Glibc
package import SceneCore

/// What a ``ProcessSlot`` asks its driver to do, in order. The slot decides; the driver
/// (the supervisor) holds the process, its token, its session and the opener, and acts.
package enum SlotAction: Hashable, Sendable {
    /// Start a process for spawn `generation`, with a fresh single-use token.
    case spawn(generation: Int)
    /// Arm the timer after which a process that has not said hello is killed.
    case armLaunchTimer(generation: Int)
    /// Spend nothing more on the outstanding token: a hello with it is refused from now on.
    case forgetToken
    /// Tell the open waiting for the first hello that the instance is ready.
    case openerReady
    /// Tell the open waiting for the first hello why it failed.
    case openerRefused(RegistryRejection)
    /// Send the process a heartbeat `scene.ping`.
    case ping(generation: Int)
    /// Signal the process's group, for this reason.
    case kill(Int32, KillCause)
    /// Ask the process to close with `force: true`, then close its session and begin the
    /// staged stop (``armStopTimer(_:generation:)`` with `.grace`), whatever it answers.
    case closeThenTerminate
    /// Close the scene's session.
    case closeSession
    /// Arm the staged stop's next timer for spawn `generation`.
    case armStopTimer(StopStage, generation: Int)
    /// Tell the registry the instance's process is gone (`disconnected`).
    case reportDisconnected(ProcessExit?)
    /// Start the process again after `after` seconds (0: from the loop's next pass).
    case scheduleRestart(generation: Int, after: Double)
    /// Tell the registry to dismiss the instance.
    case dismiss(DismissReason)
    /// Arm the grace time an attached process of generation `generation` has to attach
    /// again after its connection dropped.
    case armGrace(generation: Int)
    /// Drop the slot: nothing backs the instance any more.
    case remove
}

/// Why the supervisor signals a process.
package enum KillCause: Hashable, Sendable {
    /// It did not say hello within its launch timeout, of this many seconds.
    case launchTimeout(seconds: Double)
    /// It left this many heartbeats in a row unanswered.
    case heartbeats(missed: Int)
    /// A restart was asked for (`scene.restart`).
    case restartAsked
    /// It still ran when its close's grace time was over.
    case outlivedGrace
    /// It still ran when SIGTERM's time was over.
    case outlivedTerminate

    /// Why it was killed, in a few words.
    var description: String {
        switch self {
        case .launchTimeout(let seconds): return "killed: no hello within \(seconds) s"
        case .heartbeats(let missed): return "killed: \(missed) heartbeats in a row unanswered"
        case .restartAsked: return "killed: a restart was asked for, and it had not said hello"
        case .outlivedGrace: return "killed: still running when its close's grace time was over"
        case .outlivedTerminate: return "killed: still running after SIGTERM"
        }
    }
}

/// The stages of stopping a process: its close's grace time, then SIGTERM's.
package enum StopStage: Hashable, Sendable {
    /// The grace time after its close, at whose end it gets SIGTERM.
    case grace
    /// The time after SIGTERM, at whose end it gets SIGKILL.
    case terminate
}

/// The supervision of one process-backed instance as a value: where its process is in its
/// life, and every rule about what happens next — hello or the launch timeout, heartbeats,
/// the restart policy after an end, and the staged stop. Each event is a `mutating func`
/// that answers the ``SlotAction``s to perform. It does no I/O and reads no clock: the
/// time of an end is given (`now`, in seconds on the driver's clock).
///
/// - Timers and callbacks carry the spawn `generation` they were armed for; one from an
///   older spawn changes nothing.
/// - A slot that is `stopping` (dismissed, or the coordinator shutting down) is never
///   restarted.
package struct ProcessSlot: Sendable {
    /// Where the current process is in its life.
    package enum Stage: Hashable, Sendable {
        /// No process: before the first spawn, or between an end and its restart.
        case idle
        /// Running, with its token outstanding: it has not said hello.
        case starting
        /// Running and connected: it said hello.
        case connected
        /// Running, with no connection and no token: its connection closed, or its token
        /// was withdrawn (a launch timeout, a stop). It is expected to exit.
        case unreachable
    }

    package let id: InstanceID
    package let spec: LaunchSpec
    package private(set) var history: RestartHistory
    package private(set) var stage: Stage = .idle
    /// Counts spawns.
    package private(set) var generation = 0
    /// Whether an open waits for the first hello.
    package private(set) var hasOpener: Bool
    package private(set) var pingOutstanding = false
    package private(set) var missedPings = 0
    /// Killed by the supervisor (heartbeats, launch timeout, a connection it closed): an
    /// abnormal end whatever its status.
    package private(set) var killed = false
    /// Dismissed or shutting down: never restarted.
    package private(set) var stopping = false
    /// A restart was asked for (`scene.restart`): the end it causes is followed by a
    /// restart whatever the restart policy, and counts as no crash.
    package private(set) var restartAsked = false
    /// The instance's process is one that attached with a token (a connection, no child of
    /// the coordinator): there is nothing to signal, and its end is its connection's end.
    /// `starting` then means waiting for a process to attach.
    package private(set) var attached = false

    /// A slot for `id`, with an open waiting (`opened`) or restored (adopted, no one waits).
    package init(id: InstanceID, spec: LaunchSpec, policy: RestartPolicy, opened: Bool) {
        self.id = id
        self.spec = spec
        self.history = RestartHistory(policy: policy)
        self.hasOpener = opened
    }

    /// Whether a process runs for the slot now.
    package var hasProcess: Bool { stage != .idle }

    // MARK: Spawning

    /// Begins a spawn: a new generation, with no heartbeat owed and no kill recorded.
    package mutating func spawn() -> [SlotAction] {
        generation += 1
        killed = false
        pingOutstanding = false
        missedPings = 0
        return [.spawn(generation: generation)]
    }

    /// The process started at `now`: it has its token and must say hello before the
    /// launch timeout.
    package mutating func started(now: Double = 0) -> [SlotAction] {
        stage = .starting
        history.started(at: now)
        return [.armLaunchTimer(generation: generation)]
    }

    /// The process could not be started. The opener hears why; a restart that cannot
    /// start counts as one more abnormal end.
    package mutating func spawnFailed(detail: String, now: Double) -> [SlotAction] {
        if hasOpener {
            hasOpener = false
            return [.remove, .openerRefused(.launchFailed(id, detail: detail))]
        }
        return supervise(exit: nil, clean: false, now: now)
    }

    /// The launch timeout of spawn `generation` elapsed. A process that has not said hello
    /// is killed, and an opener hears `launch_timeout` (the slot is then stopping).
    package mutating func launchTimedOut(generation: Int, seconds: Double, now: Double = 0) -> [SlotAction] {
        guard generation == self.generation, stage == .starting else { return [] }
        if attached {
            // No process attached in time: the open hears so; a restored instance that no
            // process came back to goes by the restart policy, as after a grace.
            guard hasOpener else { return graceElapsed(generation: generation, now: now) }
            hasOpener = false
            stopping = true
            stage = .idle
            return [.remove, .openerRefused(.launchTimeout(id, seconds: seconds))]
        }
        stage = .unreachable
        var actions: [SlotAction] = [.forgetToken]
        if hasOpener {
            hasOpener = false
            stopping = true
            actions.append(.openerRefused(.launchTimeout(id, seconds: seconds)))
        }
        killed = true
        actions.append(.kill(SIGKILL, .launchTimeout(seconds: seconds)))
        return actions
    }

    /// The process said hello with its token: it is connected, and an opener hears so.
    package mutating func helloed() -> [SlotAction] {
        stage = .connected
        guard hasOpener else { return [] }
        hasOpener = false
        return [.openerReady]
    }

    // MARK: Heartbeats

    /// A heartbeat tick. A connected process that has not answered the last ping misses
    /// one; at `misses` in a row it is killed. Otherwise it is pinged.
    package mutating func beat(misses: Int) -> [SlotAction] {
        guard stage == .connected else { return [] }
        if pingOutstanding {
            missedPings += 1
            guard missedPings >= misses else { return [] }
            killed = true
            // An attached process's connection is dropped (there is nothing to signal).
            return [.kill(SIGKILL, .heartbeats(missed: missedPings))]
        }
        pingOutstanding = true
        return [.ping(generation: generation)]
    }

    /// An answer to a ping of spawn `generation` arrived; any answer, even an error,
    /// means the process is alive.
    package mutating func pingAnswered(generation: Int) {
        guard generation == self.generation else { return }
        pingOutstanding = false
        missedPings = 0
    }

    // MARK: Ends

    /// The process's connection closed. When the coordinator closed it (`abnormal`: a
    /// framing error, a full write queue), the end counts as abnormal whatever its status.
    /// Unless the slot is stopping already, the process gets the staged stop's grace time
    /// to exit.
    package mutating func sessionClosed(abnormal: Bool) -> [SlotAction] {
        pingOutstanding = false
        if attached { return detached() }
        if abnormal, !stopping { killed = true }
        guard hasProcess else { return [] }
        stage = .unreachable
        return stopping ? [] : [.armStopTimer(.grace, generation: generation)]
    }

    /// The process of spawn `generation` ended with `exit` at time `now`.
    ///
    /// - A stopping slot is removed. One whose opener still waits is removed and the
    ///   opener hears `launch_failed`. Otherwise the restart policy decides.
    package mutating func ended(generation: Int, exit: ProcessExit, now: Double) -> [SlotAction] {
        guard generation == self.generation, hasProcess else { return [] }
        var actions: [SlotAction] = []
        if stage == .starting { actions.append(.forgetToken) }
        if stage == .connected { actions.append(.closeSession) }
        stage = .idle
        if stopping { return actions + [.remove] }
        if restartAsked {
            restartAsked = false
            return actions + [.reportDisconnected(exit), .scheduleRestart(generation: generation, after: 0)]
        }
        if hasOpener {
            hasOpener = false
            return actions + [.remove, .openerRefused(.launchFailed(id, detail: "the process \(exit) before it said hello"))]
        }
        return actions + supervise(exit: exit, clean: exit.isClean && !killed, now: now)
    }

    /// Applies the restart policy after an end: the instance goes `disconnected`, then is
    /// restarted or dismissed (a dismissed slot is stopping, and removed).
    private mutating func supervise(exit: ProcessExit?, clean: Bool, now: Double) -> [SlotAction] {
        switch history.decide(clean: clean, now: now) {
        case .restart(let delay):
            return [.reportDisconnected(exit), .scheduleRestart(generation: generation, after: delay)]
        case .dismiss(let reason):
            stopping = true
            return [.remove, .reportDisconnected(exit), .dismiss(reason)]
        }
    }

    /// The restart scheduled after spawn `generation` is due; nothing while the coordinator
    /// is `closing`, or when the slot moved on meanwhile.
    package mutating func restartDue(generation: Int, closing: Bool) -> [SlotAction] {
        guard generation == self.generation, !stopping, !hasProcess, !closing else { return [] }
        return spawn()
    }

    // MARK: Restarting on purpose

    /// `scene.restart`: the process is stopped in stages (`scene.close {force: true}`, a
    /// grace time, SIGTERM, SIGKILL) and a new one started as soon as it has ended,
    /// whatever the restart policy; the instance keeps its path. With no process (between
    /// an end and its restart) one starts now. Answers false when the slot is stopping.
    package mutating func restartRequested() -> (accepted: Bool, actions: [SlotAction]) {
        // An attached process is not the coordinator's to start.
        guard !stopping, !hasOpener, !attached else { return (false, []) }
        switch stage {
        case .idle:
            return (true, spawn())
        case .connected:
            restartAsked = true
            return (true, [.closeThenTerminate])
        case .starting:
            restartAsked = true
            stage = .unreachable
            return (true, [.forgetToken, .kill(SIGTERM, .restartAsked), .armStopTimer(.terminate, generation: generation)])
        case .unreachable:
            restartAsked = true
            return (true, [])
        }
    }

    // MARK: Stopping

    /// The instance was dismissed, or the coordinator shuts down: the process is stopped in
    /// stages and never restarted; an opener hears `cancelled`.
    ///
    /// - No process: removed now. Not connected: the grace time, SIGTERM, then SIGKILL.
    ///   Connected: `scene.close {force: true}` first.
    package mutating func stop() -> [SlotAction] {
        stopping = true
        var actions: [SlotAction] = []
        if attached {
            if hasOpener {
                hasOpener = false
                actions.append(.openerRefused(.cancelled(id)))
            }
            guard stage == .connected else {
                stage = .idle
                return actions + [.remove]
            }
            return actions + [.closeThenTerminate]
        }
        if stage == .starting {
            // Its token is spent: a hello now is refused, and the launch timeout is moot.
            stage = .unreachable
            actions.append(.forgetToken)
        }
        if hasOpener {
            hasOpener = false
            actions.append(.openerRefused(.cancelled(id)))
        }
        switch stage {
        case .idle: return actions + [.remove]
        case .starting, .unreachable: return actions + [.armStopTimer(.grace, generation: generation)]
        case .connected: return actions + [.closeThenTerminate]
        }
    }

    /// The close that `.closeThenTerminate` asked for was answered (or timed out): the
    /// session is closed and the staged stop begins.
    package mutating func closeAnswered() -> [SlotAction] {
        if attached {
            stage = .idle
            return [.closeSession, .remove]
        }
        guard hasProcess else { return [.closeSession] }
        if stage == .connected { stage = .unreachable }
        return [.closeSession, .armStopTimer(.grace, generation: generation)]
    }

    /// A staged stop's timer of spawn `generation` elapsed while its process still runs:
    /// after the grace time SIGTERM (the end now counts as abnormal), after SIGTERM's
    /// time SIGKILL.
    package mutating func stopTimerElapsed(_ stage: StopStage, generation: Int) -> [SlotAction] {
        guard generation == self.generation, hasProcess else { return [] }
        switch stage {
        case .grace:
            killed = true
            return [.kill(SIGTERM, .outlivedGrace), .armStopTimer(.terminate, generation: generation)]
        case .terminate:
            return [.kill(SIGKILL, .outlivedTerminate)]
        }
    }

    // MARK: Attached processes

    /// Waits for a process to attach, with the launch timeout (an attach-only scene's
    /// instance, opened or restored): nothing is started.
    package mutating func awaitAttach() -> [SlotAction] {
        generation += 1
        killed = false
        pingOutstanding = false
        missedPings = 0
        attached = true
        stage = .starting
        return [.armLaunchTimer(generation: generation)]
    }

    /// A process attached with a token: to the instance its attach opened, or to one that
    /// waited for it. It is connected from now on, and an opener hears so.
    package mutating func attach(now: Double = 0) -> [SlotAction] {
        if !(attached && stage == .starting) { generation += 1 }
        attached = true
        killed = false
        pingOutstanding = false
        missedPings = 0
        history.started(at: now)
        return helloed()
    }

    /// An attached process's connection closed: the instance is `disconnected` and waits
    /// for the process to attach again, for the scene's grace time. A stopping slot is
    /// removed.
    private mutating func detached() -> [SlotAction] {
        guard stage == .connected else { return [] }
        if stopping {
            stage = .idle
            return [.remove]
        }
        generation += 1
        stage = .starting
        return [.reportDisconnected(nil), .armGrace(generation: generation)]
    }

    /// The grace time of generation `generation` is over with no process attached: the
    /// restart policy decides between waiting on (another grace) and a dismiss. An
    /// attached process is never started, so a restart can only mean waiting.
    package mutating func graceElapsed(generation: Int, now: Double) -> [SlotAction] {
        guard attached, generation == self.generation, stage == .starting, !stopping else { return [] }
        switch history.decide(clean: false, now: now) {
        case .restart:
            return [.armGrace(generation: generation)]
        case .dismiss(let reason):
            stopping = true
            stage = .idle
            return [.remove, .dismiss(reason)]
        }
    }
}
