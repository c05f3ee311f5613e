import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneTesting
import SceneWire
import Testing

@Suite("Coordinator state across restarts")
struct StateRestoreTests {
    /// `scenectl serve` on the process manifest, keeping its state in the folder.
    private func serve(_ folder: TemporaryFolder, _ extra: [String] = []) throws -> ChildProcess {
        try ChildProcess(["serve", "--manifest", folder.file("app.json"), "--socket", folder.file("s.sock"), "--state", folder.file("state.json")] + extra)
    }

    private func saved(_ folder: TemporaryFolder) -> CoordinatorState? {
        try? StateFile.read(folder.file("state.json"))
    }

    @Test("a coordinator killed with SIGKILL and started again on its state file restores its instances, ends what was left, and respawns the scenes with their paths")
    func restartAfterCrash() async throws {
        try await withTemporaryFolder { folder in
            try processManifest().write(toFile: folder.file("app.json"), atomically: true, encoding: .utf8)
            let first = try serve(folder)
            defer { first.kill() }
            _ = try await first.readOutput(until: "serving")
            let control = try await SceneConnection.connect(path: folder.file("s.sock"), client: "tests", timeout: 20)
            _ = try await control.open("py")
            _ = try await control.open("ctl")
            _ = try await control.send(.push(["screen": "draft"]), to: "ctl-1")
            control.close()
            // Written within a second of the change, with the processes it runs.
            #expect(await eventually {
                let state = saved(folder)
                return state?.processes.count == 2
                    && state?.snapshot.instances.first { $0.id.description == "ctl-1" }?.flow.path.count == 1
            })
            let scenePids = try #require(saved(folder)).processes.map(\.pid)
            first.kill()
            // Its scene processes end with it (their parent-death signal).
            #expect(await eventually { scenePids.allSatisfy { kill($0, 0) != 0 } })

            // A process group the state file says the previous run left behind.
            let leftover = try ChildProcess(["sleep", "60"], executable: "/usr/bin/setsid", captureOutput: false)
            defer { leftover.kill() }
            #expect(await eventually { getpgid(leftover.pid) == leftover.pid })
            var state = try #require(saved(folder))
            state.processes.append(RecordedProcess(
                instance: "ctl-1", pid: leftover.pid, started: RecordedProcess.startTime(of: leftover.pid)))
            try StateFile.write(state, to: folder.file("state.json"))

            let second = try serve(folder)
            defer { second.kill() }
            _ = try await second.readOutput(until: "serving")
            #expect(await eventually { !isRunning(leftover.pid) })
            let again = try await SceneConnection.connect(path: folder.file("s.sock"), client: "tests", timeout: 20)
            defer { again.close() }
            #expect(await eventually {
                let instances = (try? await again.state().instances) ?? []
                return instances.count == 2 && instances.allSatisfy { $0.phase == "active" }
            })
            let path = try await again.callScene(.instance("ctl-1"), method: "path")
            #expect(path["path"] == [["type": "push", "route": ["screen": "draft"]]])
            #expect(try await again.callScene(.instance("py-1"), method: "title")["title"] == "Python")

            // SIGTERM: every scene closed, the state written without processes, exit 0.
            kill(second.pid, SIGTERM)
            #expect(await second.wait() == 0)
            let final = try #require(saved(folder))
            #expect(final.processes.isEmpty)
            #expect(final.snapshot.instances.map(\.id.description) == ["ctl-1", "py-1"])
        }
    }

    @Test("a durable coordinator keeps its attach tokens across a restart, as hashes only")
    func tokensAcrossRestart() async throws {
        try await withTemporaryFolder { folder in
            let manifest = #"{"app": "tokens", "scenes": [{"id": "remote", "kind": "window", "attach": {}}]}"#
            try manifest.write(toFile: folder.file("app.json"), atomically: true, encoding: .utf8)
            let first = try serve(folder)
            defer { first.kill() }
            _ = try await first.readOutput(until: "serving")
            let control = try await SceneConnection.connect(path: folder.file("s.sock"), client: "tests", timeout: 20)
            let issued = try await control.issueToken(scene: "remote", uses: 3)
            control.close()
            #expect(await eventually { saved(folder)?.tokens?.map(\.id) == [issued.id] })
            let file = try String(contentsOfFile: folder.file("state.json"), encoding: .utf8)
            #expect(!file.contains(issued.token), "the state file holds a token's secret")
            kill(first.pid, SIGTERM)
            #expect(await first.wait() == 0)

            let second = try serve(folder)
            defer { second.kill() }
            _ = try await second.readOutput(until: "serving")
            let again = try await SceneConnection.connect(path: folder.file("s.sock"), client: "tests", timeout: 20)
            defer { again.close() }
            #expect(try await again.tokens().map(\.id) == [issued.id])
            let scene = try await SceneConnection.connect(path: folder.file("s.sock"), client: "back", role: .scene, token: issued.token, timeout: 20)
            defer { scene.close() }
            #expect(scene.hello.instance?.scene == "remote")
            #expect(try await again.tokens().first { $0.id == issued.id }?.uses == 2)
        }
    }

    @Test("a second coordinator on the same state file is refused before it touches anything")
    func oneCoordinatorPerStateFile() async throws {
        try await withTemporaryFolder { folder in
            try processManifest().write(toFile: folder.file("app.json"), atomically: true, encoding: .utf8)
            let first = try serve(folder)
            defer { first.kill() }
            _ = try await first.readOutput(until: "serving")
            let control = try await SceneConnection.connect(path: folder.file("s.sock"), client: "tests", timeout: 20)
            defer { control.close() }
            _ = try await control.open("ctl")
            let second = try ChildProcess([
                "serve", "--manifest", folder.file("app.json"), "--socket", folder.file("other.sock"), "--state", folder.file("state.json"),
            ])
            defer { second.kill() }
            #expect(await second.wait() == 1)
            #expect(second.standardError.contains("another coordinator is using this state file"))
            // The first one's scene process was left alone.
            #expect(try await control.callScene(.instance("ctl-1"), method: "title")["title"] == "Ctl")
        }
    }

    @Test("the journal's events after the state's mark are replayed onto its snapshot; earlier ones and a torn last line are not")
    func journalReplay() async throws {
        try await withTemporaryFolder { folder in
            let registry = try SceneRegistry(manifest: .demo)
            _ = try await registry.open("main")
            let base = CoordinatorState(snapshot: await registry.snapshot(), processes: [], journal: JournalMark(run: "A", seq: 2))
            let lines = [
                #"{"run":"A","seq":2,"event":{"seq":2,"type":"scene.dismissed","instance":"main-1","reason":"requested"}}"#,
                #"{"run":"A","seq":3,"event":{"seq":3,"type":"flow.changed","instance":"main-1","path":[{"type":"push","route":"page"}]}}"#,
                #"{"run":"A","seq":4,"event":{"seq":4,"type":"link.authenticated","authenticated":true}}"#,
                #"{"run":"A","seq":5,"event":{"seq":5,"type":"scene.dism"#,
            ]
            try lines.joined(separator: "\n").write(toFile: folder.file("state.json.journal"), atomically: true, encoding: .utf8)
            let recovered = try #require(CoordinatorState.recovered(base, statePath: folder.file("state.json"), app: "demo"))
            #expect(recovered.instances.map(\.id.description) == ["main-1"])
            #expect(recovered.instances.first?.flow.path == [.push("page")])
            #expect(recovered.authenticated)
        }
    }

    @Test("a corrupt state file stops the start, with its problem, unless --discard-state")
    func corruptState() async throws {
        try await withTemporaryFolder { folder in
            try processManifest().write(toFile: folder.file("app.json"), atomically: true, encoding: .utf8)
            try "{\"format\": \"scene-coordinator-state\", \"version\": 1, \"snapshot\": 3".write(
                toFile: folder.file("state.json"), atomically: true, encoding: .utf8)
            let refused = try serve(folder)
            defer { refused.kill() }
            #expect(await refused.wait() == 1)
            #expect(refused.standardError.contains("not valid JSON"))
            #expect(FileManager.default.fileExists(atPath: folder.file("state.json")))

            let discarding = try serve(folder, ["--discard-state"])
            defer { discarding.kill() }
            _ = try await discarding.readOutput(until: "serving")
            let control = try await SceneConnection.connect(path: folder.file("s.sock"), client: "tests", timeout: 20)
            defer { control.close() }
            #expect(try await control.state().instances.isEmpty)
        }
    }
}

/// Whether `pid` runs: exists and is not a zombie waiting to be reaped.
func isRunning(_ pid: Int32) -> Bool {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else {
        return false
    }
    return text[text.index(after: close)...].dropFirst().first != "Z"
}
