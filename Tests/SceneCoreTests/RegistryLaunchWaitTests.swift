@testable import SceneCore
import SceneJSON
import SceneTesting
import Testing

/// Waits (bounded) until `count` requests wait for `instance` to open.
func waitForWaiters(
    _ registry: SceneRegistry<JSONValue>, _ instance: InstanceID, count: Int, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let waiting = await eventually(sourceLocation: sourceLocation) { await registry.openingWaiters[instance]?.count ?? 0 >= count }
    if !waiting { throw CancellationError() }
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
        #expect(await rejection { try await push.value }?.reason == .launchFailed)
        let info = try await registry.info(id("main-1"))
        #expect(info.phase == .active)
        #expect(info.focused)
    }
}
