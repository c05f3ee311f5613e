import SceneCore
import SceneFlow
import SceneSocket
import SceneSync
import SceneTesting
import Testing

/// An in-process scene's behaviour from registration to restore: which scenes may have one,
/// its start, the changes it hears, and its restarts.
@Suite("Behaviour lifecycle: started before its instance opens, told its changes in order, restarted by its policy")
struct SceneBehaviorLifecycleTests {
    @Test("a behaviour registered for a scene that does not run in process, or a scene without one, is a configuration error")
    func configuration() throws {
        #expect(throws: RegistryConfigurationError.self) {
            try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }])
        }
        #expect(throws: RegistryConfigurationError.self) {
            try typedRegistry(behaviors: [
                "a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: Heard()) },
                "plain": { Recorder($0, heard: Heard()) },
            ])
        }
    }

    @Test("a behaviour whose start throws fails the open launch_failed, and the instance goes")
    func startFailure() async throws {
        let registry = try typedRegistry(behaviors: ["a": { _ in Broken() }, "b": { _ in Broken() }])
        #expect(await rejection { try await registry.open("a") }?.reason == .launchFailed)
        #expect(await registry.instance(InstanceID("a-1")!) == nil)
    }

    @Test("a behaviour that ends during its start fails the open launch_failed; one that does not start in time, launch_timeout")
    func startEndsOrTimesOut() async throws {
        let ending = try typedRegistry(behaviors: ["a": { EndsWhileStarting($0) }, "b": { Recorder($0, heard: Heard()) }])
        #expect(await rejection { try await ending.open("a") }?.reason == .launchFailed)
        let clock = LoopClock.manual()
        let slow = try typedRegistry(
            timeouts: SceneTimeouts(start: .seconds(10)), time: clock,
            behaviors: ["a": { _ in Slow(heard: Heard(), gate: Gate()) }, "b": { Recorder($0, heard: Heard()) }])
        let refused = await clock.advancing(by: .seconds(10)) { await rejection { try await slow.open("a") }?.reason }
        #expect(refused == .launchTimeout)
        #expect(await slow.instance(InstanceID("a-1")!) == nil)
    }

    @Test("what a behaviour sends its flow while it starts is the path its instance opens with, with no event before scene.opened")
    func pathSetWhileStarting() async throws {
        let registry = try typedRegistry(behaviors: ["a": { Presetting($0) }, "b": { Recorder($0, heard: Heard()) }])
        let (_, events) = registry.subscribe()
        let opened = try await registry.open("a").instance
        #expect(opened.path == [.push(.list), .push(.detail(2))])
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.event.kind == .opened)
        if case .opened(let info)? = first?.event { #expect(info.path == [.push(.list), .push(.detail(2))]) }
    }

    @Test("a behaviour hears its own path and phase changes in order, each once, after its start")
    func changesInOrder() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: heard) }, "b": { Recorder($0, heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let b = try await registry.open("b").instance.id
        let instance = try #require(await registry.instance(a))
        try await instance.send(.push(.list))
        try await instance.send(.push(.detail(7)))
        try await instance.send(.pop)
        try await registry.setPhase(a, .background)
        // Another instance's changes are not this one's.
        try await #require(await registry.instance(b)).send(.push(.list))
        let expected = [
            "start a-1", "phase active", "flow [\"push(list)\"]", "flow [\"push(list)\", \"push(detail(7))\"]",
            "flow [\"push(list)\"]", "phase background",
        ]
        #expect(await eventually { heard.all.count >= expected.count })
        // Anything more would have been delivered by the time the dismiss's stop is.
        try await registry.dismiss(a, force: true)
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all == expected + ["close force=true", "stop"])
    }

    @Test("a behaviour that ends with an error is restarted by its policy, keeping its path; past the policy's limit it is dismissed")
    func restartPolicy() async throws {
        let heard = Heard()
        let starts = Locked(0)
        let registry = try typedRegistry(
            restart: RestartPolicy(mode: .transient, maxRestarts: 1, withinSeconds: 60),
            behaviors: [
                "a": { context in
                    starts.withLock { $0 += 1 }
                    return Recorder(context, heard: heard)
                },
                "b": { Recorder($0, heard: heard) },
            ])
        let a = try await registry.open("a").instance.id
        try await #require(await registry.instance(a)).send(.push(.list))
        let (_, events) = registry.subscribe()
        _ = try await registry.call(SceneCall(method: "end", params: ScenePayload(true)), to: .instance(a))
        var seen: [String] = []
        for await event in events {
            seen.append(event.event.type)
            if event.event.kind == .restarted { break }
        }
        #expect(seen.first == "scene.disconnected")
        #expect(seen.last == "scene.restarted")
        #expect(starts.withLock { $0 } == 2)
        #expect(try await registry.info(a).path == [.push(.list)])
        // Its second abnormal end within the window is one more than the policy allows.
        #expect(await eventually { await registry.hostingRunning(a) })
        _ = try await registry.call(SceneCall(method: "end", params: ScenePayload(true)), to: .instance(a))
        #expect(await eventually { await registry.instance(a) == nil })
    }

    @Test("restored in-process instances come back disconnected, then active again with new behaviours and their paths")
    func restore() async throws {
        let starts = Locked(0)
        let behaviors: [String: SceneBehaviorFactory<Screen>] = [
            "a": { context in
                starts.withLock { $0 += 1 }
                return Recorder(context, heard: Heard())
            },
            "b": { Recorder($0, heard: Heard()) },
        ]
        let first = try typedRegistry(behaviors: behaviors)
        let a = try await first.open("a").instance.id
        try await #require(await first.instance(a)).send(.push(.detail(3)))
        let snapshot = await first.snapshot()
        let second = try typedRegistry(behaviors: behaviors)
        try await second.restore(snapshot)
        #expect(await eventually { (try? await second.info(a).phase) == .active })
        #expect(starts.withLock { $0 } == 2)
        #expect(try await second.info(a).path == [.push(.detail(3))])
        let answer = try await second.call(SceneCall(method: "double", params: ScenePayload(Counted(4))), to: .instance(a))
        #expect(try answer.decode(Counted.self) == Counted(8))
    }
}
