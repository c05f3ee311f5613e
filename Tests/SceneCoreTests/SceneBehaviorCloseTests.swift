import SceneCore
import SceneSocket
import SceneSync
import SceneTesting
import Testing

/// Who is asked before an in-process scene closes, and how its behaviour is stopped.
@Suite("Closing in-process scenes: asked unless forced, then stopped once, within the grace")
struct SceneBehaviorCloseTests {
    @Test("an interactive close is the behaviour's to refuse; a forced close is only announced, then it stops")
    func vetoAndForce() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: [
            "a": { Recorder($0, heard: heard, refuseClose: true) }, "b": { Recorder($0, heard: heard) },
        ])
        let a = try await registry.open("a").instance.id
        await #expect(throws: RegistryRejection.closeVetoed(a)) { try await registry.dismiss(a, force: false) }
        #expect(await registry.instance(a) != nil)
        let dismissed = try await registry.dismiss(a, force: true)
        #expect(dismissed == [a])
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all.suffix(3) == ["close force=false", "close force=true", "stop"])
    }

    @Test("the program's close policy is asked before the behaviour, and for virtual instances too; a forced close asks neither")
    func closePolicy() async throws {
        let heard = Heard()
        let asked = Locked<[InstanceID]>([])
        let registry = try SceneRegistry<Screen>(
            app: "typed",
            declarations: [
                SceneDeclaration(id: "a", kind: .window, hosting: .inProcess),
                SceneDeclaration(id: "plain", kind: .window),
            ],
            behaviors: ["a": { Recorder($0, heard: heard) }],
            closePolicy: { id in
                asked.withLock { $0.append(id) }
                return false
            })
        let a = try await registry.open("a").instance.id
        let plain = try await registry.open("plain").instance.id
        await #expect(throws: RegistryRejection.closeVetoed(a)) { try await registry.dismiss(a, force: false) }
        await #expect(throws: RegistryRejection.closeVetoed(plain)) { try await registry.dismiss(plain, force: false) }
        #expect(asked.withLock { $0 } == [a, plain])
        #expect(!heard.all.contains { $0.hasPrefix("close") })
        try await registry.dismiss(plain, force: true)
        #expect(asked.withLock { $0 } == [a, plain])
    }

    @Test("a behaviour dismissed while it starts hears its start, then one forced close and one stop")
    func dismissedWhileStarting() async throws {
        let heard = Heard()
        let gate = Gate()
        let registry = try typedRegistry(behaviors: ["a": { _ in Slow(heard: heard, gate: gate) }, "b": { Recorder($0, heard: Heard()) }])
        let opening = Task { try await registry.open("a") }
        await gate.waitUntilEntered()
        try await registry.dismiss(InstanceID("a-1")!, force: true)
        gate.open()
        await #expect(throws: RegistryRejection.self) { try await opening.value }
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all == ["start", "close force=true", "stop"])
    }

    @Test("stopping every behaviour returns within the close grace even if one never stops, and none starts after it")
    func stopBehaviorsIsBounded() async throws {
        let clock = LoopClock.manual()
        let registry = try typedRegistry(
            timeouts: SceneTimeouts(close: .seconds(3)), time: clock,
            behaviors: ["a": { _ in NeverStops() }, "b": { Recorder($0, heard: Heard()) }])
        _ = try await registry.open("a")
        await clock.advancing(by: .seconds(3)) { await registry.stopBehaviors() }
        #expect(await rejection { try await registry.open("b") }?.reason == .launchFailed)
    }
}
