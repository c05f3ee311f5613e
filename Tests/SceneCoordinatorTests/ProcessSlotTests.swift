import Glibc
import SceneCoordinator
import SceneCore
import Testing

/// The supervision rules of one process-backed instance, driven on the slot value itself:
/// synchronous, with no process, socket, clock or sleep. Times are given as `now`.
private let id = InstanceID(scene: "notes", number: 1)
private let spec = LaunchSpec(command: ["scene"])

private func slot(_ mode: RestartPolicy.Mode = .permanent, maxRestarts: Int = 3, within: Double = 30, opened: Bool = true)
    -> ProcessSlot
{
    ProcessSlot(id: id, spec: spec, policy: RestartPolicy(mode: mode, maxRestarts: maxRestarts, withinSeconds: within), opened: opened)
}

/// A slot whose process started and said hello (the opener answered).
private func connected(_ mode: RestartPolicy.Mode = .permanent, maxRestarts: Int = 3, within: Double = 30) -> ProcessSlot {
    var slot = slot(mode, maxRestarts: maxRestarts, within: within)
    _ = slot.spawn()
    _ = slot.started()
    _ = slot.helloed()
    return slot
}

@Suite("A scene process starts and says hello")
struct ProcessSlotStartRules {
    @Test("an opened slot spawns generation 1, then arms the launch timeout once its process started")
    func spawn() {
        var slot = slot()
        #expect(slot.spawn() == [.spawn(generation: 1)])
        #expect(slot.started() == [.armLaunchTimer(generation: 1)])
        #expect(slot.stage == .starting)
    }

    @Test("hello connects the process and answers the open waiting for it, once")
    func hello() {
        var slot = slot()
        _ = slot.spawn()
        _ = slot.started()
        #expect(slot.helloed() == [.openerReady])
        #expect(slot.stage == .connected)
        #expect(slot.hasOpener == false)
    }

    @Test("a restored slot has no opener to answer")
    func adopted() {
        var slot = slot(opened: false)
        _ = slot.spawn()
        _ = slot.started()
        #expect(slot.helloed() == [])
    }

    @Test("a process silent past its launch timeout is killed; the open hears launch_timeout, and the slot stops")
    func launchTimeout() {
        var slot = slot()
        _ = slot.spawn()
        _ = slot.started()
        #expect(slot.launchTimedOut(generation: 1, seconds: 5) == [
            .forgetToken, .openerRefused(.launchTimeout(id, seconds: 5)), .kill(SIGKILL, .launchTimeout(seconds: 5)),
        ])
        #expect(slot.stopping)
        #expect(slot.ended(generation: 1, exit: .signalled(SIGKILL), now: 1) == [.remove])
    }

    @Test("the launch timeout of a process that said hello, or of an older spawn, changes nothing")
    func staleLaunchTimeout() {
        var slot = connected()
        #expect(slot.launchTimedOut(generation: 1, seconds: 5) == [])
        #expect(slot.launchTimedOut(generation: 0, seconds: 5) == [])
    }

    @Test("a process that ends before hello fails the open launch_failed, and the slot goes")
    func endBeforeHello() {
        var slot = slot()
        _ = slot.spawn()
        _ = slot.started()
        #expect(slot.ended(generation: 1, exit: .exited(3), now: 1) == [
            .forgetToken, .remove, .openerRefused(.launchFailed(id, detail: "the process exited with status 3 before it said hello")),
        ])
    }

    @Test("a first spawn that cannot start fails the open launch_failed with the system's reason")
    func spawnFailed() {
        var slot = slot()
        _ = slot.spawn()
        #expect(slot.spawnFailed(detail: "scene: No such file", now: 0) == [
            .remove, .openerRefused(.launchFailed(id, detail: "scene: No such file")),
        ])
    }
}

@Suite("Heartbeats keep a connected scene process alive")
struct ProcessSlotHeartbeatRules {
    @Test("a connected process is pinged once per beat while it answers")
    func pinged() {
        var slot = connected()
        #expect(slot.beat(misses: 3) == [.ping(generation: 1)])
        slot.pingAnswered(generation: 1)
        #expect(slot.beat(misses: 3) == [.ping(generation: 1)])
    }

    @Test("a process that leaves `misses` pings in a row unanswered is killed, and its end is abnormal")
    func missed() {
        var slot = connected(.transient)
        #expect(slot.beat(misses: 2) == [.ping(generation: 1)])
        #expect(slot.beat(misses: 2) == [])
        #expect(slot.beat(misses: 2) == [.kill(SIGKILL, .heartbeats(missed: 2))])
        // Even a status-0 exit after the kill is abnormal: a transient scene restarts.
        #expect(slot.ended(generation: 1, exit: .exited(0), now: 1).contains(.scheduleRestart(generation: 1, after: 0)))
    }

    @Test("an answer resets the count of missed pings; an answer to an older spawn does not")
    func answered() {
        var slot = connected()
        _ = slot.beat(misses: 2)
        _ = slot.beat(misses: 2)
        slot.pingAnswered(generation: 0)
        #expect(slot.missedPings == 1)
        slot.pingAnswered(generation: 1)
        #expect(slot.missedPings == 0)
        #expect(slot.pingOutstanding == false)
    }

    @Test("a process that has not said hello is not pinged")
    func notConnected() {
        var slot = slot()
        _ = slot.spawn()
        _ = slot.started()
        #expect(slot.beat(misses: 1) == [])
    }
}

@Suite("After a scene process ends, the restart policy decides")
struct ProcessSlotRestartRules {
    @Test("an abnormal end of a permanent scene reports the instance disconnected, then restarts it")
    func permanent() {
        var slot = connected(.permanent)
        #expect(slot.ended(generation: 1, exit: .exited(1), now: 1) == [
            .closeSession, .reportDisconnected(.exited(1)), .scheduleRestart(generation: 1, after: 0),
        ])
        #expect(slot.restartDue(generation: 1, closing: false) == [.spawn(generation: 2)])
    }

    @Test("a clean end of a transient scene dismisses it process_exited; a temporary one goes on any end")
    func cleanTransient() {
        var transient = connected(.transient)
        #expect(transient.ended(generation: 1, exit: .exited(0), now: 1) == [
            .closeSession, .remove, .reportDisconnected(.exited(0)), .dismiss(.processExited),
        ])
        var temporary = connected(.temporary)
        #expect(temporary.ended(generation: 1, exit: .signalled(SIGSEGV), now: 1).last == .dismiss(.processExited))
    }

    @Test("more restarts than the policy allows within its window dismiss restart_intensity; older ones do not count")
    func intensity() {
        var slot = connected(.permanent, maxRestarts: 2, within: 10)
        for (generation, now) in [(1, 0.0), (2, 1.0)] {
            #expect(slot.ended(generation: generation, exit: .exited(1), now: now).last == .scheduleRestart(generation: generation, after: 0))
            _ = slot.restartDue(generation: generation, closing: false)
            _ = slot.started()
            _ = slot.helloed()
        }
        #expect(slot.ended(generation: 3, exit: .exited(1), now: 2).last == .dismiss(.restartIntensity))

        var spaced = connected(.permanent, maxRestarts: 2, within: 10)
        for (generation, now) in [(1, 0.0), (2, 11.0), (3, 22.0)] {
            #expect(spaced.ended(generation: generation, exit: .exited(1), now: now).last == .scheduleRestart(generation: generation, after: 0))
            _ = spaced.restartDue(generation: generation, closing: false)
            _ = spaced.started()
            _ = spaced.helloed()
        }
    }

    @Test("a restart that cannot spawn counts as one more abnormal end")
    func restartSpawnFails() {
        var slot = connected(.permanent, maxRestarts: 1, within: 10)
        _ = slot.ended(generation: 1, exit: .exited(1), now: 0)
        _ = slot.restartDue(generation: 1, closing: false)
        #expect(slot.spawnFailed(detail: "gone", now: 1) == [.remove, .reportDisconnected(nil), .dismiss(.restartIntensity)])
    }

    @Test("no restart is spawned while the coordinator closes, nor for an older spawn, nor for a stopping slot")
    func noRestart() {
        var slot = connected()
        _ = slot.ended(generation: 1, exit: .exited(1), now: 0)
        #expect(slot.restartDue(generation: 1, closing: true) == [])
        #expect(slot.restartDue(generation: 0, closing: false) == [])
        _ = slot.stop()
        #expect(slot.restartDue(generation: 1, closing: false) == [])
    }

    @Test("the end of an older spawn changes nothing")
    func staleEnd() {
        var slot = connected()
        #expect(slot.ended(generation: 0, exit: .exited(1), now: 0) == [])
        #expect(slot.stage == .connected)
    }
}

@Suite("A scene process is stopped in stages")
struct ProcessSlotStopRules {
    @Test("a connected process is asked to close first, then gets the grace time, SIGTERM, then SIGKILL")
    func stages() {
        var slot = connected()
        #expect(slot.stop() == [.closeThenTerminate])
        #expect(slot.closeAnswered() == [.closeSession, .armStopTimer(.grace, generation: 1)])
        #expect(slot.stopTimerElapsed(.grace, generation: 1) == [.kill(SIGTERM, .outlivedGrace), .armStopTimer(.terminate, generation: 1)])
        #expect(slot.stopTimerElapsed(.terminate, generation: 1) == [.kill(SIGKILL, .outlivedTerminate)])
    }

    @Test("a stopping slot is removed when its process ends, and never restarted")
    func removed() {
        var slot = connected(.permanent)
        _ = slot.stop()
        _ = slot.closeAnswered()
        #expect(slot.ended(generation: 1, exit: .signalled(SIGTERM), now: 0) == [.remove])
    }

    @Test("a stop before hello spends the token, answers the open cancelled, and the launch timeout is then moot")
    func beforeHello() {
        var slot = slot()
        _ = slot.spawn()
        _ = slot.started()
        #expect(slot.stop() == [.forgetToken, .openerRefused(.cancelled(id)), .armStopTimer(.grace, generation: 1)])
        #expect(slot.launchTimedOut(generation: 1, seconds: 5) == [])
    }

    @Test("a slot with no process is removed at once")
    func noProcess() {
        var slot = connected()
        _ = slot.ended(generation: 1, exit: .exited(1), now: 0)
        #expect(slot.stop() == [.remove])
    }

    @Test("timers of a process that already ended change nothing")
    func staleTimers() {
        var slot = connected()
        _ = slot.stop()
        _ = slot.closeAnswered()
        _ = slot.ended(generation: 1, exit: .exited(0), now: 0)
        #expect(slot.stopTimerElapsed(.grace, generation: 1) == [])
    }

    @Test("a closed connection gives the process the grace time; one the coordinator closed makes its end abnormal")
    func connectionClosed() {
        var peer = connected(.transient)
        #expect(peer.sessionClosed(abnormal: false) == [.armStopTimer(.grace, generation: 1)])
        #expect(peer.ended(generation: 1, exit: .exited(0), now: 0).last == .dismiss(.processExited))

        var closedByUs = connected(.transient)
        _ = closedByUs.sessionClosed(abnormal: true)
        #expect(closedByUs.ended(generation: 1, exit: .exited(0), now: 0).last == .scheduleRestart(generation: 1, after: 0))
    }
}

/// A slot whose process attached with a token, for its open (generation 1).
private func attached(_ mode: RestartPolicy.Mode = .permanent, maxRestarts: Int = 3) -> ProcessSlot {
    var slot = ProcessSlot(
        id: id, spec: .attachOnly(), policy: RestartPolicy(mode: mode, maxRestarts: maxRestarts, withinSeconds: 30), opened: true)
    _ = slot.attach()
    return slot
}

@Suite("A process that attached with a token")
struct ProcessSlotAttachRules {
    @Test("an attach-only instance waits for a process with the launch timeout; the timeout refuses its open and drops the slot")
    func awaitAttach() {
        var slot = ProcessSlot(id: id, spec: .attachOnly(), policy: .standard, opened: true)
        #expect(slot.awaitAttach() == [.armLaunchTimer(generation: 1)])
        #expect(slot.stage == .starting && slot.attached)
        #expect(slot.launchTimedOut(generation: 1, seconds: 5) == [.remove, .openerRefused(.launchTimeout(id, seconds: 5))])
        #expect(slot.stopping)
    }

    @Test("a process attaching to the waiting instance connects it and answers its open")
    func attachToWaiting() {
        var slot = ProcessSlot(id: id, spec: .attachOnly(), policy: .standard, opened: true)
        _ = slot.awaitAttach()
        #expect(slot.attach() == [.openerReady])
        #expect(slot.stage == .connected && slot.generation == 1)
    }

    @Test("a dropped connection leaves the instance disconnected, waiting the grace for the process to attach again")
    func dropped() {
        var slot = attached()
        #expect(slot.sessionClosed(abnormal: false) == [.reportDisconnected(nil), .armGrace(generation: 2)])
        #expect(slot.stage == .starting)
        // Taken back within the grace: connected again, nothing else to do.
        #expect(slot.attach() == [])
        #expect(slot.stage == .connected)
    }

    @Test("past the grace, a policy that would restart waits another grace; temporary dismisses")
    func pastGrace() {
        var waiting = attached(.permanent)
        _ = waiting.sessionClosed(abnormal: false)
        #expect(waiting.graceElapsed(generation: 2, now: 1) == [.armGrace(generation: 2)])
        var temporary = attached(.temporary)
        _ = temporary.sessionClosed(abnormal: false)
        #expect(temporary.graceElapsed(generation: 2, now: 1) == [.remove, .dismiss(.processExited)])
        // A grace of an older generation changes nothing.
        var back = attached(.temporary)
        _ = back.sessionClosed(abnormal: false)
        _ = back.attach()
        #expect(back.graceElapsed(generation: 2, now: 1) == [])
    }

    @Test("missed heartbeats drop an attached process's connection (a kill the driver turns into a close), and no restart is asked of it")
    func heartbeatsAndRestart() {
        var slot = attached()
        #expect(slot.beat(misses: 1) == [.ping(generation: 1)])
        #expect(slot.beat(misses: 1) == [.kill(SIGKILL, .heartbeats(missed: 1))])
        #expect(slot.restartRequested().accepted == false)
    }

    @Test("stopping a connected attached process asks it to close, then drops the slot; a waiting one is dropped at once")
    func stop() {
        var connected = attached()
        #expect(connected.stop() == [.closeThenTerminate])
        #expect(connected.closeAnswered() == [.closeSession, .remove])
        var waiting = attached()
        _ = waiting.sessionClosed(abnormal: false)
        #expect(waiting.stop() == [.remove])
    }
}
