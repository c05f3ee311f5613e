import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import SceneWire
import Testing

/// Scenes whose processes attach with a token: attach-only scenes (an open waits for a
/// process; a per-value one; a single one; one that is dismissed past its grace), and the
/// process scenes of ``processManifest(extra:groups:)``.
private let attachScenes = [
    #"{"id": "remote", "kind": "window", "attach": {"timeout": 30, "grace": 30}}"#,
    #"{"id": "late", "kind": "window", "attach": {"timeout": 0.5}}"#,
    #"{"id": "desk", "kind": "window", "instances": "perValue", "attach": {}}"#,
    #"{"id": "solo", "kind": "window", "instances": "single", "attach": {}}"#,
    #"{"id": "brief", "kind": "window", "attach": {"grace": 0.3}, "restart": {"policy": "temporary"}}"#,
]

/// Says hello as a scene with `token`; answers `echo` with its params.
private func attach(_ harness: ProcessHarness, token: String, client: String = "attached") async throws -> SceneConnection {
    try await SceneConnection.connect(path: harness.path, client: client, role: .scene, token: token, timeout: 30) { message in
        message.method == "echo" ? .success(message.params ?? .null) : .success(.object([:]))
    }
}

/// The reason a scene hello with `token` is refused with (nil when it is not).
private func refusedHello(_ harness: ProcessHarness, token: String) async -> ReasonCode? {
    await refusal { _ = try await attach(harness, token: token) }
}

@Suite("Attaching: processes the coordinator did not start", .timeLimit(.minutes(5)))
struct AttachTests {
    @Test("a token is good for its uses, then bad_token; token.list shows it without its secret")
    func uses() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "remote", uses: 2)
            #expect(issued.token.count == 32 && issued.uses == 2)
            let listed = try await harness.control.call(WireMethod.tokenList.rawValue, params: .object([:]))
            #expect(listed["tokens"] == .array([["id": .string(issued.id), "scene": "remote", "uses": 2]]))
            #expect(!listed.description.contains(issued.token), "token.list shows a secret")
            let first = try await attach(harness, token: issued.token)
            let second = try await attach(harness, token: issued.token)
            #expect(first.hello.instance?.id != second.hello.instance?.id)
            #expect(await refusedHello(harness, token: issued.token) == .badToken)
            // What is left are the two processes' re-attach tokens.
            let left = try await harness.control.tokens()
            #expect(left.count == 2 && left.allSatisfy { $0.instance != nil && $0.id != issued.id })
        }
    }

    @Test("an expired token is bad_token")
    func expiry() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "remote", ttl: .milliseconds(200))
            #expect(try await eventually { try await harness.control.tokens().isEmpty })
            #expect(await refusedHello(harness, token: issued.token) == .badToken)
        }
    }

    @Test("a revoked token is bad_token, and revoking it again is unknown_token")
    func revoke() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "remote")
            try await harness.control.revokeToken(issued.id)
            #expect(await refusedHello(harness, token: issued.token) == .badToken)
            #expect(await refusal { try await harness.control.revokeToken(issued.id) } == .unknownToken)
        }
    }

    @Test("a token is only for a declared scene that processes back, with a value exactly for a per-value scene")
    func issueRules() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            #expect(await refusal { _ = try await harness.control.issueToken(scene: "nowhere") } == .unknownScene)
            #expect(await remote { _ = try await harness.control.issueToken(scene: "virtual") }?.code == -32602)
            #expect(await remote { _ = try await harness.control.issueToken(scene: "desk") }?.code == -32602)
            #expect(await remote { _ = try await harness.control.issueToken(scene: "remote", uses: 0) }?.code == -32602)
            let issued = try await harness.control.issueToken(scene: "desk", value: "a")
            let scene = try await attach(harness, token: issued.token)
            #expect(scene.hello.instance?.value == "a")
        }
    }

    @Test("opening an attach scene reserves an instance, opening until a process attaches; the attach takes it")
    func attachToWaiting() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let control = harness.control
            let open = Task { try await control.open("remote") }
            // The first instance of the scene: it waits for a process, and the open with it.
            let id = "remote-1"
            #expect(await eventually { (try? await control.status(id))?.process?.stage == "waiting" })
            let issued = try await control.issueToken(scene: "remote")
            let scene = try await attach(harness, token: issued.token)
            #expect(scene.hello.instance?.id == id)
            #expect(try await open.value.instance.id == id)
            // Its process is connected, with no pid (the coordinator did not start it) and
            // no command.
            let process = try await control.status(id).process
            #expect(process?.stage == "connected" && process?.pid == nil && process?.uptime != nil && process?.command == [])
        }
    }

    @Test("an attach scene's instance that no process attaches to in time fails its open launch_timeout")
    func attachTimeout() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            #expect(await refusal { _ = try await harness.control.open("late") } == .launchTimeout)
            let open = try await harness.control.state().instances.filter { $0.scene == "late" }
            #expect(open.isEmpty)
        }
    }

    @Test("attaches made at once, each after a dismissed instance's process left, each take a new instance of their own")
    func attachAfterDismiss() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let control = harness.control
            // The registry stops a dismissed instance's process a turn after it answers the
            // dismiss: a process that leaves in between must not leave its instance waiting
            // for another attach. Attaches of one scene at once must not take each other's
            // instance (a launch cannot tell whose open it is). Repeated, since the windows
            // are short.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        for _ in 0..<40 {
                            let scene = try await attach(harness, token: try await control.issueToken(scene: "remote", uses: 1).token)
                            let id = try #require(scene.hello.instance?.id)
                            _ = try await control.dismiss(instance: id, force: true)
                            scene.close()
                            let next = try await attach(harness, token: try await control.issueToken(scene: "remote", uses: 1).token)
                            // The dismissed instance is gone: the attach made a new one.
                            let nextID = try #require(next.hello.instance?.id)
                            #expect(nextID != id)
                            #expect(try await control.dismiss(instance: nextID, force: true).contains(nextID))
                            next.close()
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test("a single scene whose instance has its process refuses another attach: already_attached")
    func alreadyAttached() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "solo")
            let first = try await attach(harness, token: issued.token)
            #expect(first.hello.instance?.id == "solo-1")
            #expect(await refusedHello(harness, token: issued.token) == .alreadyAttached)
        }
    }

    @Test("an attached process is held to a scene's roles, and answers the calls relayed to it")
    func roles() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "remote")
            let scene = try await attach(harness, token: issued.token)
            let id = try #require(scene.hello.instance?.id)
            let answer = try await harness.control.callScene(.instance(id), method: "echo", params: ["n": 1])
            #expect(answer == ["n": 1])
            #expect(await refusal { _ = try await scene.focus(id) } == .forbidden)
            #expect(await refusal { _ = try await scene.issueToken(scene: "remote") } == .forbidden)
        }
    }

    @Test("a dropped attached process comes back with its re-attach token and finds its path")
    func reattach() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "remote", uses: 1)
            let scene = try await attach(harness, token: issued.token)
            let id = try #require(scene.hello.instance?.id)
            let reattach = try #require(scene.hello.reattach)
            _ = try await scene.send(.push("inbox"), to: id)
            scene.close()
            #expect(await harness.events.wait { $0.kind == .disconnected && $0.params["instance"] == .string(id) } != nil)
            #expect(try await harness.control.status(id).process?.stage == "waiting")
            let back = try await attach(harness, token: reattach)
            #expect(back.hello.instance?.id == id)
            #expect(back.hello.instance?.path == [RouteStep(.push, "inbox")])
            #expect(await harness.events.wait { $0.kind == .restarted && $0.params["instance"] == .string(id) } != nil)
            // The re-attach token was good once; the new hello handed out a new one.
            #expect(back.hello.reattach != nil && back.hello.reattach != reattach)
        }
    }

    @Test("past its grace, an attached instance goes by its restart policy: temporary dismisses it")
    func pastGrace() async throws {
        try await withProcesses(extra: attachScenes) { harness in
            let issued = try await harness.control.issueToken(scene: "brief")
            let scene = try await attach(harness, token: issued.token)
            let id = try #require(scene.hello.instance?.id)
            let reattach = try #require(scene.hello.reattach)
            scene.close()
            let dismissed = await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(id) }
            #expect(dismissed?.params["reason"] == "process_exited")
            // The instance is gone, and its re-attach token with it.
            #expect(await refusedHello(harness, token: reattach) == .badToken)
        }
    }

    @Test("an attached process that leaves heartbeats unanswered has its connection dropped, and its instance waits")
    func heartbeats() async throws {
        try await withProcesses(extra: attachScenes, configure: { configuration in
            configuration.heartbeatInterval = .milliseconds(100)
            configuration.heartbeatMisses = 2
        }) { harness in
            let issued = try await harness.control.issueToken(scene: "remote")
            let raw = try RawClient(path: harness.path)
            try await raw.writeFrame(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"scene","client":"mute","token":"\#(issued.token)"}}"#)
            let answer = try await raw.readMessage()
            let id = try #require(answer["result"]?["instance"]?["id"]?.stringValue)
            // It reads the pings and never answers them.
            #expect(try await raw.closesWithin(.seconds(30)))
            #expect(await harness.events.wait { $0.kind == .disconnected && $0.params["instance"] == .string(id) } != nil)
            #expect(try await harness.control.status(id).process?.stage == "waiting")
        }
    }
}
