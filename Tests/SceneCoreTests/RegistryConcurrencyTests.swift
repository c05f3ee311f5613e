import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

@Suite("Opening instances, concurrently")
struct RegistryConcurrencyTests {
    @Test("many concurrent opens of one single scene make one instance")
    func concurrentSingle() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let outcomes = await withTaskGroup(of: OpenOutcome<JSONValue>?.self) { group in
            for _ in 0..<50 { group.addTask { try? await registry.open("main") } }
            try? await launcher.waitForLaunch(id("main-1"))
            launcher.release(id("main-1"))
            var all: [OpenOutcome<JSONValue>?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(launcher.launches == [id("main-1")])
        #expect(Set(outcomes.compactMap { $0?.instance.id }) == [id("main-1")])
        #expect(outcomes.filter { $0?.name == "opened" }.count == 1)
        #expect(outcomes.filter { $0?.name == "focused" }.count == 49)
    }

    @Test("a second open of the same value while it is opening joins the first")
    func joinSameValue() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let first = Task { try await registry.open("viewer", value: "7") }
        try await launcher.waitForLaunch(id("viewer-1"))
        let second = Task { try await registry.open("viewer", value: "7") }
        #expect(try await registry.info(id("viewer-1")).phase == .opening)
        launcher.release(id("viewer-1"))
        #expect(try await first.value.name == "opened")
        #expect(try await second.value == .focused(try await registry.info(id("viewer-1"))))
    }

    @Test("an opening instance does not block other requests")
    func othersGoOn() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let slow = Task { try await registry.open("main") }
        try await launcher.waitForLaunch(id("main-1"))
        let other = Task { try await registry.open("globe") }
        try await launcher.waitForLaunch(id("globe-1"))
        launcher.release(id("globe-1"))
        #expect(try await other.value.name == "opened")
        #expect(try await registry.info(id("main-1")).phase == .opening)
        launcher.release(id("main-1"))
        #expect(try await slow.value.name == "opened")
    }

    @Test("dismissing an opening instance cancels its open, and every joined open")
    func dismissCancels() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let first = Task { try await registry.open("main") }
        try await launcher.waitForLaunch(id("main-1"))
        let joined = Task { try await registry.open("main") }
        // The opener and the joined open both wait before the dismiss.
        try await waitForWaiters(registry, id("main-1"), count: 2)
        #expect(try await registry.dismiss(id("main-1")) == [id("main-1")])
        #expect(await rejection { try await first.value } == .cancelled(id("main-1")))
        #expect(await rejection { try await joined.value } == .cancelled(id("main-1")))
        #expect(launcher.stopped.contains(id("main-1")))
        #expect(await registry.state().instances.isEmpty)
    }

    @Test("a launch that fails dismisses the instance and the open fails with its reason")
    func launchFails() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let open = Task { try await registry.open("globe") }
        try await launcher.waitForLaunch(id("globe-1"))
        launcher.release(id("globe-1"), succeed: false)
        #expect(await rejection { try await open.value } == .launchFailed(id("globe-1"), detail: "the test failed it"))
        #expect(await registry.state().instances.isEmpty)
    }

    @Test("open and dismiss racing always leave a consistent registry")
    func openDismissRace() async throws {
        // A launcher that starts at once still suspends each open, so dismisses interleave.
        let registry = try demoRegistry(launcher: InstantLauncher())
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<100 {
                group.addTask { _ = try? await registry.open("viewer", value: .integer(round % 5)) }
                group.addTask { _ = try? await registry.dismiss(scene: "viewer", value: .integer(round % 5)) }
            }
        }
        let state = await registry.state()
        // Each value is open at most once, every instance is active, focus is consistent.
        #expect(Set(state.instances.compactMap(\.value)).count == state.instances.count)
        #expect(state.instances.allSatisfy { $0.phase == .active || $0.phase == .opening })
        #expect(state.instances.filter(\.focused).count <= 1)
    }
}

@Suite("Events")
struct RegistryEventTests {
    @Test("every request's events arrive in order, exhaustively, with numbers and no gaps")
    func exhaustive() async throws {
        let registry = try demoRegistry()
        let events = RegistryEventRecorder(registry)
        let main = try await registry.open("main").instance
        await events.receive(.opened(InstanceInfo(
            id: main.id, scene: "main", kind: .window, value: nil, phase: .active, focused: true, path: [], pushedFrom: nil,
            geometry: SceneGeometry(defaultSize: WindowSize(width: 1280, height: 720), resizability: .contentMinSize))))
        await events.receive(.focused(main.id))
        _ = try await registry.push("notes", from: main.id)
        await events.receive(.phaseChanged(main.id, phase: .background))
        await events.receive { if case .opened(let info) = $0 { return info.id == id("notes-1") } else { return false } }
        await events.receive(.pushed(id("notes-1"), from: main.id))
        await events.receive(.focused(id("notes-1")))
        _ = try await registry.instance(id("notes-1"))?.send(.push("page"))
        await events.receive(.flowChanged(id("notes-1"), path: [.push("page")], queue: [], cause: FlowCause(by: .control, intent: "push")))
        _ = await rejection { try await registry.open("nope") }
        await events.receive(.requestRejected(request: "scene.open", reason: .unknownScene("nope")))
        try await registry.dismiss(id("notes-1"))
        await events.receive(.dismissed(id("notes-1"), reason: .requested))
        await events.receive(.phaseChanged(main.id, phase: .active))
        await events.receive(.focused(main.id))
        await events.finish()
    }

    @Test("path changes made by middleware follow-ups are published too")
    func followUpsPublished() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        await notes.addMiddleware(ClosureMiddleware<JSONValue>(name: "also-help", didApply: { intent, _, context in
            if intent == .push("page") { context.send(.sheet("help")) }
        }))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.send(.push("page"))
        await events.receive(.flowChanged(id("notes-1"), path: [.push("page"), .sheet("help")], queue: [], cause: FlowCause(by: .control, intent: "push")))
        await events.finish()
    }

    @Test("each rejected intent of a batch is a request.rejected event; the path changes once")
    func batchRejections() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.batch([.popCount(3), .push("a"), .popTo("zz")])
        await events.receive(.requestRejected(request: "flow.batch", reason: .flow(.insufficientDepth(requested: 3, available: 0))))
        await events.receive(.requestRejected(request: "flow.batch", reason: .flow(.routeNotFound)))
        await events.receive(.flowChanged(id("notes-1"), path: [.push("a")], queue: [], cause: FlowCause(by: .control)))
        await events.finish()
    }

    @Test("subscribe returns the current number; the stream starts right after it")
    func subscribeSeq() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let (seq, stream) = registry.subscribe()
        #expect(seq == registry.sequence)
        _ = try await registry.open("globe")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.seq == seq + 1)
    }

    @Test("a subscriber whose buffer overflowed sees the gap in the numbers")
    func gapVisible() async throws {
        let registry = try demoRegistry()
        let stream = registry.events(buffering: .newest(2))
        for _ in 0..<5 { _ = await rejection { try await registry.open("nope") } }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.seq == 4)
        #expect(stream.droppedCount == 3)
    }

    @Test("a dismissed instance refuses flow requests not_open")
    func closedInstance() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        try await registry.dismiss(id("notes-1"))
        #expect(await rejection { try await notes.send(.push("x")) } == .instanceNotOpen(id("notes-1")))
        #expect(await notes.phase == .closed)
    }

    @Test("a request to a dismissed instance is a request.rejected event too")
    func closedInstanceEvent() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        try await registry.dismiss(id("notes-1"))
        let events = RegistryEventRecorder(registry)
        _ = await rejection { try await notes.send(.pop) }
        await events.receive(.requestRejected(request: "flow.send", reason: .instanceNotOpen(id("notes-1"))))
        await events.finish()
    }
}
