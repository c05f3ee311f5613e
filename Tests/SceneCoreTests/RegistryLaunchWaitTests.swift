@testable import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

/// Waits (bounded) until `count` requests wait for `instance` to open.
func waitForWaiters(_ registry: SceneRegistry<JSONValue>, _ instance: InstanceID, count: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while await registry.openingWaiters[instance]?.count ?? 0 < count {
        guard ContinuousClock.now < deadline else { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(1))
    }
}

@Suite("Opening across the launcher's wait")
struct RegistryLauncherRaceTests {
    @Test("a dismiss answers the open at once, even before the launcher has started")
    func dismissBeforeLaunch() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let open = Task { try await registry.open("main") }
        try await waitForWaiters(registry, id("main-1"), count: 1)
        try await registry.dismiss(id("main-1"))
        #expect(await rejection { try await open.value } == .cancelled(id("main-1")))
    }

    @Test("a launch that completes for an instance dismissed meanwhile is stopped")
    func lateLaunchStopped() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let open = Task { try await registry.open("globe") }
        try await launcher.waitForLaunch(id("globe-1"))
        try await registry.dismiss(id("globe-1"))
        #expect(await rejection { try await open.value } == .cancelled(id("globe-1")))
        #expect(launcher.stopped.contains(id("globe-1")))
    }

    @Test("dismissing an opening instance is reported with reason cancelled")
    func dismissReason() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let events = RegistryEventRecorder(registry)
        let open = Task { try await registry.open("globe") }
        try await launcher.waitForLaunch(id("globe-1"))
        try await registry.dismiss(id("globe-1"))
        _ = await rejection { try await open.value }
        await events.receive(.dismissed(id("globe-1"), reason: .cancelled))
        await events.receive(.requestRejected(request: "scene.open", reason: .cancelled(id("globe-1"))))
        await events.finish()
    }

    @Test("a pushed window that fails to start gives its parent back, active and focused")
    func pushLaunchFails() async throws {
        let launcher = GateLauncher()
        let registry = try demoRegistry(launcher: launcher)
        let main = Task { try await registry.open("main") }
        try await launcher.waitForLaunch(id("main-1"))
        launcher.release(id("main-1"))
        _ = try await main.value
        let push = Task { try await registry.push("notes", from: id("main-1")) }
        try await launcher.waitForLaunch(id("notes-1"))
        #expect(await registry.focused != id("main-1"))
        launcher.release(id("notes-1"), succeed: false)
        #expect(await rejection { try await push.value }?.code == "launch_failed")
        let info = try await registry.info(id("main-1"))
        #expect(info.phase == .active)
        #expect(info.focused)
    }
}

@Suite("Rules the review found")
struct RegistryReviewTests {
    @Test("a single immersive space opened again with another value is another space: busy")
    func immersiveOtherValue() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("theatre", value: "a")
        #expect(await rejection { try await registry.open("theatre", value: "b") } == .immersiveSpaceBusy(open: id("theatre-1")))
        #expect(try await registry.open("theatre", value: "a").name == "focused")
        #expect(try await registry.open("theatre").name == "focused")
    }

    @Test("under replace, the same immersive scene with another value replaces the open one")
    func immersiveReplaceOtherValue() async throws {
        let registry = try demoRegistry { $0["immersive"] = "replace" }
        _ = try await registry.open("theatre", value: "a")
        let outcome = try await registry.open("theatre", value: "b")
        #expect(outcome.instance.id == id("theatre-2"))
        #expect(await registry.state().instances.map(\.id) == [id("theatre-2")])
    }

    @Test("a null value is no value for a per-value scene")
    func nullValue() async throws {
        let registry = try demoRegistry()
        #expect(await rejection { try await registry.open("viewer", value: .null) } == .valueRequired(scene: "viewer"))
    }

    @Test("an empty or missing when matches every route, objects or not", arguments: [
        JSONValue.string("anything"), 42, ["screen": "x"], [1, 2],
    ])
    func emptyWhen(route: JSONValue) async throws {
        let registry = try SceneRegistry<JSONValue>(app: "w", declarations: [
            SceneDeclaration(id: "w", kind: .window, scope: [ScopeRule(when: RoutePredicate(when: [:]), .present(.push))]),
        ])
        _ = try await registry.open("w")
        #expect(try await registry.route(route, from: id("w-1")).name == "presented")
    }

    @Test("a when matches nested objects by containment")
    func nestedWhen() {
        let predicate = RoutePredicate<JSONValue>(when: ["section": ["id": 3]])
        #expect(predicate.matches(["screen": "s", "section": ["id": 3, "name": "n"]]))
        #expect(!predicate.matches(["section": ["id": 4]]))
        #expect(!predicate.matches(["section": 3]))
    }

    @Test("a refused route that bubbles to an open instance changes nothing, focus included")
    func refusedClaimChangesNothing() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("globe")
        _ = try await registry.instance(id("globe-1"))?.send(.sheet("info"))
        _ = try await registry.open("main")
        #expect(await rejection { try await registry.route(["screen": "globe"], from: id("main-1")) }
            == .flow(.pushBlockedByModalTail))
        #expect(await registry.focused == id("main-1"))
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
        await events.receive(.flowChanged(id("notes-1"), path: [.push("page"), .sheet("help")]))
        await events.finish()
    }

    @Test("a request to a dismissed instance is a request.rejected event too")
    func closedInstanceEvent() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        try await registry.dismiss(id("notes-1"))
        let events = RegistryEventRecorder(registry)
        _ = await rejection { try await notes.send(.pop) }
        await events.receive(.requestRejected(request: "flow.send", reason: .notOpen("notes-1")))
        await events.finish()
    }

    @Test("Swift declarations with ids that cannot name an instance are refused")
    func badDeclarationID() {
        #expect(throws: RegistryConfigurationError.self) {
            try SceneRegistry<JSONValue>(app: "a", declarations: [SceneDeclaration(id: "", kind: .window)])
        }
    }

    @Test("the instance actor's phase follows the registry through push, dismiss and restore")
    func phaseMirror() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.push("notes", from: id("main-1"))
        #expect(await registry.instance(id("main-1"))?.phase == .background)
        try await registry.dismiss(id("notes-1"))
        #expect(await registry.instance(id("main-1"))?.phase == .active)
        try await registry.setPhase(id("main-1"), .inactive)
        let restored = try demoRegistry()
        try await restored.restore(await registry.snapshot())
        #expect(await restored.instance(id("main-1"))?.phase == .inactive)
    }
}

@Suite("Restore validation")
struct RegistryRestoreValidationTests {
    func pushedSnapshot() async throws -> RegistrySnapshot<JSONValue> {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.open("notes")
        _ = try await registry.push("notes", from: id("main-1"))
        return await registry.snapshot()
    }

    func problems(_ snapshot: RegistrySnapshot<JSONValue>) async throws -> [String] {
        do {
            try await demoRegistry().restore(snapshot)
            return []
        } catch let error as RegistryRestoreError {
            return error.problems.map(\.description)
        }
    }

    @Test("a window pushed from itself is refused")
    func selfPush() async throws {
        var snapshot = try await pushedSnapshot()
        let index = snapshot.instances.firstIndex { $0.id == id("notes-1") }!
        snapshot.instances[index].pushedFrom = id("notes-1")
        #expect(try await problems(snapshot).contains { $0.contains("cannot be pushed from itself") })
    }

    @Test("a pushed window pushed from a pushed window is refused")
    func chain() async throws {
        var snapshot = try await pushedSnapshot()
        let index = snapshot.instances.firstIndex { $0.id == id("notes-1") }!
        snapshot.instances[index].pushedFrom = id("notes-2")
        #expect(try await problems(snapshot).contains { $0.contains("was itself pushed") })
    }

    @Test("two windows pushed from one parent are refused")
    func twoChildren() async throws {
        var snapshot = try await pushedSnapshot()
        let index = snapshot.instances.firstIndex { $0.id == id("notes-1") }!
        snapshot.instances[index].pushedFrom = id("main-1")
        #expect(try await problems(snapshot).contains { $0.contains("already has") })
    }

    @Test("two immersive spaces are refused even under replace")
    func twoImmersive() async throws {
        let registry = try demoRegistry { $0["immersive"] = "replace" }
        _ = try await registry.open("portal")
        var snapshot = await registry.snapshot()
        var second = snapshot.instances[0]
        second.id = id("theatre-1")
        second.value = "x"
        snapshot.instances.append(second)
        let fresh = try demoRegistry { $0["immersive"] = "replace" }
        await #expect(throws: RegistryRestoreError.self) { try await fresh.restore(snapshot) }
    }

    @Test("a restore into a registry that used ids before never reuses them")
    func usedIDs() async throws {
        let registry = try demoRegistry()
        for _ in 0..<3 { _ = try await registry.open("notes") }
        _ = try await registry.dismiss(scene: "notes")
        let empty = try demoRegistry()
        try await registry.restore(await empty.snapshot())
        #expect(try await registry.open("notes").instance.id == id("notes-4"))
    }

    @Test("a pushed window whose parent is not restored comes back on its own; a parent whose pushed window is not restored comes back active")
    func restoreFalseAroundPushes() async throws {
        let noNotes: (inout [String: JSONValue]) -> Void = { root in
            guard case .array(var scenes) = root["scenes"], case .object(var notes) = scenes[2] else { return }
            notes["restore"] = false
            scenes[2] = .object(notes)
            root["scenes"] = .array(scenes)
        }
        let original = try demoRegistry(noNotes)
        _ = try await original.open("main")
        _ = try await original.push("notes", from: id("main-1"))
        let restored = try demoRegistry(noNotes)
        try await restored.restore(await original.snapshot())
        let main = try await restored.info(id("main-1"))
        #expect(main.phase == .active)
        #expect(await restored.state().instances.map(\.id) == [id("main-1")])
    }

    @Test("a restore replaces the pending link and sign-in state with the snapshot's")
    func linkStateReplaced() async throws {
        let registry = try demoRegistry()
        _ = await registry.openLink("demo://demo.example/theatre/x")
        let empty = try demoRegistry()
        try await registry.restore(await empty.snapshot())
        #expect(await registry.pendingLink == nil)
        #expect(await !registry.isAuthenticated)
    }
}

@Suite("Batches as events")
struct RegistryBatchEventTests {
    @Test("each rejected intent of a batch is a request.rejected event; the path changes once")
    func batchRejections() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.batch([.popCount(3), .push("a"), .popTo("zz")])
        await events.receive(.requestRejected(request: "flow.batch", reason: .flow(.insufficientDepth(requested: 3, available: 0))))
        await events.receive(.requestRejected(request: "flow.batch", reason: .flow(.routeNotFound)))
        await events.receive(.flowChanged(id("notes-1"), path: [.push("a")]))
        await events.finish()
    }
}
