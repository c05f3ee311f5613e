import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneJSON
import SceneTesting
import SceneWire
import Testing

@Suite("Scenes on another host, through OpenSSH", .timeLimit(.minutes(5)))
struct OpenSSHTests {
    @Test("a scene process that reaches the coordinator only through an ssh -L forward attaches, answers, loses its forward, and re-attaches with its path")
    func throughForward() async throws {
        let remote = #"{"id": "remote", "kind": "window", "attach": {"grace": 60}}"#
        try await withProcesses(extra: [remote]) { harness in
            try await withTemporaryFolder { folder in
                let ssh = try await LoopbackSSH.start(in: folder.path)
                defer { ssh.stop() }
                let local = folder.file("forwarded.sock")
                let first = try await ssh.forward(local, to: harness.path)
                defer { first.close() }
                let issued = try await harness.control.issueToken(scene: "remote", uses: 1)
                let python = repositoryRoot.appendingPathComponent("Examples/python-scene/scene.py").path
                let log = folder.file("scene.log")
                let scene = try ChildProcess(
                    ["-c", "exec python3 \"$0\" --title 'Far away' --reattach 60 2>>\"$1\"", python, log],
                    environment: ["SCENE_SOCKET": local, "SCENE_TOKEN": issued.token], executable: "/bin/sh")
                defer { scene.kill() }
                let control = harness.control
                // Its attach opened the scene's first instance.
                #expect(await eventually { (try? await control.status("remote-1"))?.process?.stage == "connected" })
                #expect(try await control.callScene(.instance("remote-1"), method: "title")["title"] == "Far away")
                _ = try await control.send(.push(["screen": "draft"]), to: "remote-1")

                // The forward goes: the scene's connection with it.
                first.close()
                #expect(await harness.events.wait { $0.kind == .disconnected && $0.params["instance"] == "remote-1" } != nil)
                #expect(try await control.status("remote-1").process?.stage == "waiting")

                // A new forward on the same path: the scene comes back by itself.
                let second = try await ssh.forward(local, to: harness.path)
                defer { second.close() }
                let back = await harness.events.wait { $0.kind == .restarted && $0.params["instance"] == "remote-1" }
                #expect(back != nil, "the scene did not come back: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
                #expect(try await control.status("remote-1").process?.stage == "connected")
                let path = try await control.callScene(.instance("remote-1"), method: "path")
                #expect(path["path"] == [["type": "push", "route": ["screen": "draft"]]])
                #expect(scene.isRunning)
            }
        }
    }
}
