import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

@Suite("Scene process rules")
struct ProcessRulesTests {
    @Test("a launch and a restart policy are read from the manifest; defaults are transient, 3 in 30 s")
    func manifestLaunch() throws {
        let manifest = try Manifest.load(from: Data(#"""
            {"app": "a", "scenes": [
              {"id": "p", "kind": "window", "launch": {"command": ["scene", "--x"], "env": {"K": "v"}, "cwd": "/tmp", "timeout": 2.5},
               "restart": {"policy": "permanent", "maxRestarts": 5, "withinSeconds": 10}},
              {"id": "d", "kind": "window", "launch": {"command": ["scene"]}},
              {"id": "v", "kind": "window"}]}
            """#.utf8))
        #expect(manifest.scenes[0].launch == LaunchSpec(command: ["scene", "--x"], environment: ["K": "v"], workingDirectory: "/tmp", timeout: 2.5))
        #expect(manifest.scenes[0].restart == RestartPolicy(mode: .permanent, maxRestarts: 5, withinSeconds: 10))
        #expect(manifest.scenes[1].restart == .standard)
        #expect(RestartPolicy.standard == RestartPolicy(mode: .transient, maxRestarts: 3, withinSeconds: 30))
        #expect(manifest.scenes[2].launch == nil)
    }

    @Test("each launch or restart mistake is reported with its JSON path", arguments: [
        (#"{"launch": {"command": []}}"#, "scenes[0].launch.command: must be a non-empty array of strings: the executable, then its arguments"),
        (#"{"launch": {"command": ["a", 3]}}"#, "scenes[0].launch.command[1]: must be a string"),
        (#"{"launch": {"command": ["a"], "env": {"K": 1}}}"#, "scenes[0].launch.env.K: must be a string"),
        (#"{"launch": {"command": ["a"], "timeout": 0}}"#, "scenes[0].launch.timeout: must be a positive number of seconds, at most 3600"),
        (#"{"launch": {"command": ["a"], "user": "root"}}"#, "scenes[0].launch.user: unknown key (expected command, env, cwd, timeout, grace)"),
        (#"{"launch": {"command": ["a"]}, "restart": {"policy": "always"}}"#, #"scenes[0].restart.policy: must be "permanent", "transient" or "temporary""#),
        (#"{"launch": {"command": ["a"]}, "restart": {"maxRestarts": -1}}"#, "scenes[0].restart.maxRestarts: must be a whole number of at least 0"),
        (#"{"restart": {"policy": "permanent"}}"#, "scenes[0].restart: only a scene with a launch command or running in process has code to restart"),
        (#"{"in_process": "yes"}"#, "scenes[0].in_process: must be true or false"),
        (#"{"in_process": true, "launch": {"command": ["a"]}}"#, "scenes[0].in_process: a scene runs in process or in a launched or attached process, not both"),
        (#"{"launch": {"command": ["a"]}, "attach": {}}"#, "scenes[0].attach: a scene's processes are launched by the coordinator or attach, not both"),
        (#"{"attach": {"grace": -1}}"#, "scenes[0].attach.grace: must be a positive number of seconds, at most 3600"),
        (#"{"attach": {"command": ["a"]}}"#, "scenes[0].attach.command: unknown key (expected timeout, grace)"),
    ])
    func launchMistakes(members: String, expected: String) {
        let text = #"{"app": "a", "scenes": [{"id": "w", "kind": "window", "#+"\(members.dropFirst())]}"
        #expect(problems(text) == [expected])
    }

    @Test("permanent restarts after any end; transient only after an abnormal one; temporary never")
    func policyModes() {
        var permanent = RestartHistory(policy: RestartPolicy(mode: .permanent))
        #expect(permanent.decide(clean: true, now: 0) == .restart(after: 0))
        var transient = RestartHistory(policy: .standard)
        #expect(transient.decide(clean: false, now: 0) == .restart(after: 0))
        #expect(transient.decide(clean: true, now: 1) == .dismiss(.processExited))
        var temporary = RestartHistory(policy: RestartPolicy(mode: .temporary))
        #expect(temporary.decide(clean: false, now: 0) == .dismiss(.processExited))
    }

    @Test("more than maxRestarts within withinSeconds dismisses restart_intensity; older restarts stop counting")
    func intensity() {
        var history = RestartHistory(policy: RestartPolicy(mode: .permanent, maxRestarts: 2, withinSeconds: 10))
        #expect(history.decide(clean: false, now: 0) == .restart(after: 0))
        #expect(history.decide(clean: false, now: 5) == .restart(after: 0))
        #expect(history.decide(clean: false, now: 9) == .dismiss(.restartIntensity))
        // Ten seconds after the first restart, it no longer counts.
        var later = RestartHistory(policy: RestartPolicy(mode: .permanent, maxRestarts: 2, withinSeconds: 10))
        _ = later.decide(clean: false, now: 0)
        _ = later.decide(clean: false, now: 5)
        #expect(later.decide(clean: false, now: 10) == .restart(after: 0))
        #expect(later.restarts == [5, 10])
    }

    @Test("a backoff waits initial seconds after the first end, times factor after each end in a row, at most max; a long run starts the row again")
    func backoff() {
        let policy = RestartPolicy(mode: .permanent, maxRestarts: 100, withinSeconds: 1, backoff: .init(initial: 1, max: 8, factor: 2))
        var history = RestartHistory(policy: policy)
        var now = 0.0
        var delays: [Double] = []
        for _ in 0..<5 {
            history.started(at: now)
            now += 2  // up 2 s each time: not longer than max
            guard case .restart(let delay) = history.decide(clean: false, now: now) else { return }
            delays.append(delay)
            now += delay
        }
        #expect(delays == [1, 2, 4, 8, 8])
        history.started(at: now)
        #expect(history.decide(clean: false, now: now + 9) == .restart(after: 1))
    }

    @Test("a restart policy's backoff is read from the manifest, and a wrong one is reported with its path")
    func backoffManifest() throws {
        let text = #"{"app": "a", "scenes": [{"id": "s", "kind": "window", "in_process": true, "restart": {"policy": "permanent", "backoff": {"initial": 0.5, "max": 30, "factor": 3}}}]}"#
        let manifest = try Manifest.load(from: Data(text.utf8))
        #expect(manifest.scenes.first?.restart.backoff == RestartPolicy.Backoff(initial: 0.5, max: 30, factor: 3))
        let wrong = text.replacingOccurrences(of: #""max": 30"#, with: #""max": 0.1"#)
        #expect(problems(wrong).map { $0.prefix { $0 != ":" } } == ["scenes[0].restart.backoff"])
    }

    @Test("maxRestarts 0 dismisses at the first abnormal end")
    func noRestarts() {
        var history = RestartHistory(policy: RestartPolicy(mode: .permanent, maxRestarts: 0, withinSeconds: 10))
        #expect(history.decide(clean: false, now: 0) == .dismiss(.restartIntensity))
    }
}

@Suite("Process-backed instances in the registry")
struct RegistryProcessTests {
    /// Accepts a close unless the instance is in `refusing`.
    final class VetoLauncher: SceneBacking {
        let refusing: Set<InstanceID>
        init(refusing: Set<InstanceID>) { self.refusing = refusing }
        func launch(_ instance: InstanceID) async throws(RegistryRejection) {}
        func stop(_ instance: InstanceID) async {}
        func close(_ instance: InstanceID, force: Bool) async -> Bool { force || !refusing.contains(instance) }
    }

    private func registry(refusing: Set<InstanceID> = []) throws -> SceneRegistry<JSONValue> {
        try demoRegistry(launcher: VetoLauncher(refusing: refusing))
    }

    @Test("a dead process leaves its instance disconnected with its path; its next hello brings it back as it was")
    func disconnectAndBack() async throws {
        let registry = try registry()
        let main = try await registry.open("main").instance.id
        _ = try await registry.instance(main)!.send(.push("page"))
        let events = RegistryEventRecorder(registry)
        await registry.processDisconnected(main, exit: .signalled(9))
        await events.receive(.disconnected(main, exit: .signalled(9)))
        await events.receive(.phaseChanged(main, phase: .disconnected))
        #expect(try await registry.info(main).path == [.push("page")])
        let back = try await registry.processAttached(main)
        await events.receive(.restarted(main))
        await events.receive(.phaseChanged(main, phase: .active))
        await events.finish()
        #expect(back.phase == .active)
        #expect(back.path == [.push("page")])
    }

    @Test("a phase reported while disconnected is the one the instance comes back to; it stays disconnected meanwhile")
    func phaseWhileDisconnected() async throws {
        let registry = try registry()
        let main = try await registry.open("main").instance.id
        await registry.processDisconnected(main, exit: .exited(1))
        try await registry.setPhase(main, .inactive)
        #expect(try await registry.info(main).phase == .disconnected)
        #expect(try await registry.processAttached(main).phase == .inactive)
    }

    @Test("a window covered by a pushed window comes back in the background")
    func coveredComesBackInBackground() async throws {
        let registry = try registry()
        let main = try await registry.open("main").instance.id
        _ = try await registry.push("notes", from: main)
        await registry.processDisconnected(main, exit: .exited(1))
        #expect(try await registry.processAttached(main).phase == .background)
    }

    @Test("an interactive dismiss is refused close_vetoed when the instance refuses; force dismisses it")
    func vetoedDismiss() async throws {
        let main = InstanceID(scene: "main", number: 1)
        let registry = try registry(refusing: [main])
        _ = try await registry.open("main")
        await #expect(throws: RegistryRejection.closeVetoed(main)) { try await registry.dismiss(main, force: false) }
        #expect(try await registry.info(main).phase == .active)
        #expect(try await registry.dismiss(main, force: true) == [main])
    }

    @Test("dismissing a scene's instances interactively dismisses those that accept and lists those that refuse")
    func vetoedSceneDismiss() async throws {
        let registry = try registry(refusing: [InstanceID(scene: "notes", number: 2)])
        for _ in 1...3 { _ = try await registry.open("notes") }
        let outcome = try await registry.dismiss(scene: "notes", force: false)
        #expect(outcome.dismissed == [InstanceID(scene: "notes", number: 1), InstanceID(scene: "notes", number: 3)])
        #expect(outcome.vetoed == [InstanceID(scene: "notes", number: 2)])
    }

    @Test("a restored instance that was disconnected comes back active when its scene has no process")
    func restoredDisconnectedVirtual() async throws {
        let registry = try registry()
        let main = try await registry.open("main").instance.id
        await registry.processDisconnected(main, exit: nil)
        let snapshot = await registry.snapshot()
        #expect(snapshot.instances.first?.phase == .disconnected)
        let fresh = try SceneRegistry(manifest: .demo)
        try await fresh.restore(snapshot)
        #expect(try await fresh.info(main).phase == .active)
    }
}
