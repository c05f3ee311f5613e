import Foundation
import Glibc
import SceneClient
import SceneCore
import SceneJSON
import SceneSocket
import SceneSync
import SceneTesting
import Testing

/// The process scenes of ``processManifest(extra:)``, loaded.
private func manifest() throws -> Manifest {
    try Manifest.load(from: Data(processManifest().utf8))
}

private struct Planned: Error {}

@Suite("A test coordinator starts scenes, waits on them, and leaves nothing behind")
struct TestCoordinatorTests {
    @Test("a killed permanent scene is restarted, and every process it started is gone once the test ends")
    func killAndRestart() async throws {
        let pids = try await TestCoordinator.run(manifest: try manifest()) { coordinator in
            let id = try await coordinator.control.open("flaky").instance.id
            try await coordinator.waitUntilActive(id)
            let first = try #require(coordinator.pid(of: id))
            try coordinator.kill(id)
            try await coordinator.waitForExit(first)
            try await coordinator.event("\(id) restarted") { $0.kind == .restarted && $0.params["instance"] == .string(id) }
            try await coordinator.waitUntilActive(id)
            let second = try #require(coordinator.pid(of: id))
            #expect(second != first)
            return [first, second]
        }
        for pid in pids { #expect(kill(pid, 0) != 0 && errno == ESRCH, "scene process \(pid) outlived the test") }
    }

    @Test("a test that throws still ends every scene process and removes its folder")
    func teardownOnFailure() async throws {
        let seen = Locked<(pid: Int32?, folder: String?)>((nil, nil))
        await #expect(throws: Planned.self) {
            try await TestCoordinator.run(manifest: try manifest()) { coordinator in
                let id = try await coordinator.control.open("ctl").instance.id
                try await coordinator.waitUntilActive(id)
                seen.withLock { $0 = (coordinator.pid(of: id), coordinator.folder) }
                throw Planned()
            }
        }
        let (pid, folder) = seen.withLock { $0 }
        #expect(kill(try #require(pid), 0) != 0 && errno == ESRCH)
        #expect(!FileManager.default.fileExists(atPath: try #require(folder)))
    }

    @Test("a wait that runs out says what it awaited and what it saw")
    func timeoutMessage() async throws {
        try await TestCoordinator.run(manifest: try manifest()) { coordinator in
            try await coordinator.control.open("virtual")
            do {
                try await coordinator.event("a scene that never opens", timeout: .milliseconds(100)) { $0.type == "scene.never" }
                Issue.record("the wait must run out")
            } catch let error as TestCoordinatorError {
                #expect(error.description.contains("for a scene that never opens"))
                #expect(error.description.contains("scene.opened"))
            }
        }
    }

    @Test("after a restart, a process scene's new process is the one it knows, from its first event")
    func restartSeesNewProcesses() async throws {
        try await TestCoordinator.run(manifest: try manifest(), keepsState: true) { coordinator in
            let id = try await coordinator.control.open("flaky").instance.id
            try await coordinator.waitUntilActive(id)
            let before = try #require(coordinator.pid(of: id))
            try await coordinator.restart()
            try await coordinator.waitUntilActive(id)
            let after = try #require(coordinator.pid(of: id))
            #expect(after != before)
            #expect(kill(after, 0) == 0)
        }
    }

    @Test("a wait's matcher may read the coordinator's own events")
    func matcherReadsEvents() async throws {
        try await TestCoordinator.run(manifest: try manifest()) { coordinator in
            try await coordinator.control.open("virtual")
            let event = try await coordinator.event("an event the log holds") { event in coordinator.events.contains(event) }
            #expect(event.kind == .opened)
        }
    }

    @Test("a restart on the state file brings the instances back, with their paths")
    func restart() async throws {
        try await TestCoordinator.run(manifest: try manifest(), keepsState: true) { coordinator in
            let id = try await coordinator.control.open("virtual").instance.id
            _ = try await coordinator.control.send(.push("page"), to: id)
            try await coordinator.restart()
            let instance = try #require(try await coordinator.control.state().instances.first { $0.id == id })
            #expect(instance.path == [.push("page")])
        }
    }

    @Test("with a manual clock, a scene that never says hello times out once the test moves the clock past its timeout")
    func manualClock() async throws {
        let clock = LoopClock.manual()
        try await TestCoordinator.run(manifest: try manifest(), clock: clock) { coordinator in
            let opener = try await coordinator.connect(client: "opener")
            let opening = Task { try await opener.open("mute") }
            try await coordinator.event("mute-1 spawned") { $0.kind == .spawned && $0.params["instance"] == "mute-1" }
            await clock.advance(by: .seconds(1))
            #expect(await refusal { _ = try await opening.value } == .launchTimeout)
        }
    }
}
