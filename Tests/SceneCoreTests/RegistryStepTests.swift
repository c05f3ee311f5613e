import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneTesting
import Testing

@Suite("Requests in steps")
struct RegistryStepTests {
    @Test("a request that need not wait finishes in the step it is made in")
    func doneAtOnce() async throws {
        let registry = try demoRegistry()
        let opened = await registry.beginOpen("main")
        #expect(opened.isDone)
        #expect(await registry.beginOpen("main").isDone)  // focuses the open one
        #expect(await registry.beginRoute(["screen": "globe"], from: id("main-1")).isDone)
        #expect(await registry.beginLink("demo://demo.example/viewer/7").isDone)
        #expect(await registry.beginDismiss(id("main-1"), force: false).isDone)
        guard case .done(.success(.opened(let info))) = opened else {
            Issue.record("expected an opened instance, got \(opened)")
            return
        }
        #expect(info.id == id("main-1"))
    }

    @Test("a request that must wait applies what it can at once, and finishes with the same outcome once its wait is over")
    func waitsThenFinishes() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let step = await registry.beginOpen("main")
        #expect(!step.isDone)
        // Reserved in the step: the instance is there, opening, before anything awaited.
        #expect(try await registry.info(id("main-1")).phase == .opening)
        try await launcher.waitForLaunch(id("main-1"))
        launcher.release(id("main-1"))
        let outcome = try await registry.finish(step).get()
        #expect(outcome.name == "opened")
        #expect(outcome.instance.phase == .active)
    }

    @Test("a rejection in either part of a request is one request.rejected event")
    func rejectionOnce() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let events = registry.events(buffering: .unbounded)
        let unknown = await registry.beginOpen("nope")
        guard case .done(.failure(.unknownScene)) = unknown else {
            Issue.record("expected unknown_scene, got \(unknown)")
            return
        }
        let step = await registry.beginOpen("globe")
        try await launcher.waitForLaunch(id("globe-1"))
        launcher.release(id("globe-1"), succeed: false)
        #expect(await rejection { try await registry.finish(step).get() } == .launchFailed(id("globe-1"), detail: "the test failed it"))
        let last = registry.sequence
        var rejected: [String] = []
        for await event in events {
            if case .requestRejected(let request, let reason) = event.event { rejected.append("\(request) \(reason.code)") }
            if event.seq >= last { break }
        }
        #expect(rejected == ["scene.open unknown_scene", "scene.open launch_failed"])
    }
}

@Suite("The state of a registry")
struct RegistryStateOrderTests {
    @Test("a state lists its instances in id order: by scene name, then by number (10 after 9)")
    func idOrder() async throws {
        let registry = try SceneRegistry<JSONValue>(
            app: "order", declarations: [SceneDeclaration(id: "zebra", kind: .window), SceneDeclaration(id: "ant", kind: .window)])
        for _ in 1...12 {
            _ = try await registry.open("zebra")
            _ = try await registry.open("ant")
        }
        _ = try await registry.dismiss(id("ant-3"))
        let ids = await registry.state().instances.map(\.id)
        #expect(ids == ids.sorted())
        #expect(ids.first == id("ant-1"))
        #expect(ids.prefix(11).last == id("ant-12"))
        #expect(ids[9] == id("ant-11"))
        #expect(ids.count == 23)
    }
}

@Suite("Waiting for an opening instance")
struct OpeningWaitTests {
    @Test("a join registered in its step hears the instance become active even when that happens before the rest is awaited")
    func joinBeforeAwait() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let first = await registry.beginOpen("main")
        let joined = await registry.beginOpen("main")
        #expect(!first.isDone && !joined.isDone)
        try await launcher.waitForLaunch(id("main-1"))
        launcher.release(id("main-1"))
        // The instance is active before anyone awaits the joined open's rest.
        #expect(await eventually { (try? await registry.info(id("main-1")).phase) == .active })
        // Awaited in a task of its own, so that a wait nobody answers fails the test
        // instead of hanging it.
        let outcome = Locked<OpenOutcome<JSONValue>?>(nil)
        Task { if let result = try? await registry.finish(joined).get() { outcome.withLock { $0 = result } } }
        #expect(await eventually { outcome.withLock { $0 } != nil })
        #expect(outcome.withLock { $0 }?.name == "focused", "the joined open was never answered")
        #expect(try await registry.finish(first).get().name == "opened")
    }
}
