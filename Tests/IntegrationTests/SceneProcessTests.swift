import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import SceneSync
import SceneTesting
import Testing

@Suite("Scene processes")
struct SceneProcessTests {
    @Test("three scene processes in two languages run at once, each acting for its own instance")
    func threeAtOnce() async throws {
        try await withProcesses { harness in
            async let swift = harness.control.open("swift")
            async let python = harness.control.open("py")
            async let ctl = harness.control.open("ctl")
            let opened = try await [swift, python, ctl]
            #expect(opened.map(\.instance.id) == ["swift-1", "py-1", "ctl-1"])
            #expect(opened.allSatisfy { $0.instance.phase == "active" })
            for (id, title) in [("swift-1", "Swift"), ("py-1", "Python"), ("ctl-1", "Ctl")] {
                let answer = try await harness.control.callScene(.instance(id), method: "title")
                #expect(answer["title"] == .string(title), "\(id)")
            }
            let pids = Set(["swift-1", "py-1", "ctl-1"].compactMap { harness.pid(of: $0) })
            #expect(pids.count == 3)
        }
    }

    @Test("a scene process killed with SIGKILL is restarted and gets its path back", arguments: ["py", "ctl"])
    func crashRestoresPath(scene: String) async throws {
        try await withProcesses { harness in
            let id = try await harness.control.open(scene).instance.id
            _ = try await harness.control.send(.push(["screen": "draft", "n": 7]), to: id)
            let first = try await harness.newPid(of: id)
            #expect(kill(first, SIGKILL) == 0)
            let disconnected = await harness.events.wait { $0.kind == .disconnected && $0.params["instance"] == .string(id) }
            #expect(disconnected?.params["signal"] == .integer(Int(SIGKILL)))
            let restarted = await harness.events.wait { $0.kind == .restarted && $0.params["instance"] == .string(id) }
            #expect(restarted != nil)
            let second = try await harness.newPid(of: id, other: first)
            #expect(second != first)
            // The new process got the preserved path in its hello.
            let path = try await harness.control.callScene(.instance(id), method: "path")
            #expect(path["path"] == [["type": "push", "route": ["screen": "draft", "n": 7]]])
            #expect(try await harness.instance(id)?.phase == "active")
        }
    }

    @Test("an instance whose process dies more often than its policy allows is dismissed restart_intensity")
    func restartIntensity() async throws {
        try await withProcesses { harness in
            let id = try await harness.control.open("flaky").instance.id
            var pid = try await harness.newPid(of: id)
            // maxRestarts 2: the first two deaths restart it, the third dismisses it.
            for round in 1...3 {
                if round > 1 {
                    _ = await harness.events.wait { event in
                        event.kind == .restarted && event.params["instance"] == .string(id)
                            && harness.events.all.filter { $0.kind == .restarted }.count >= round - 1
                    }
                    pid = try await harness.newPid(of: id, other: pid)
                }
                kill(pid, SIGKILL)
            }
            let dismissed = await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(id) }
            #expect(dismissed?.params["reason"] == "restart_intensity")
            #expect(harness.events.all.filter { $0.kind == .restarted }.count == 2)
            #expect(try await harness.instance(id) == nil)
        }
    }

    @Test("a temporary scene's instance is dismissed process_exited when its process ends")
    func temporaryIsNotRestarted() async throws {
        try await withProcesses { harness in
            let id = try await harness.control.open("temp").instance.id
            kill(try await harness.newPid(of: id), SIGKILL)
            let dismissed = await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(id) }
            #expect(dismissed?.params["reason"] == "process_exited")
            #expect(!harness.events.all.contains { $0.kind == .restarted })
        }
    }

    @Test("an interactive close is vetoed while a scene has unsaved edits; a forced close is not", arguments: ["py", "ctl", "swift"])
    func closeVeto(scene: String) async throws {
        try await withProcesses(configure: patientClose) { harness in
            let id = try await harness.control.open(scene).instance.id
            _ = try await harness.control.callScene(.instance(id), method: "edit")
            #expect(await refusal { try await harness.control.dismiss(instance: id) } == .closeVetoed)
            #expect(try await harness.instance(id)?.phase == "active")
            let (dismissed, vetoed) = try await harness.control.dismiss(scene: scene)
            #expect(dismissed.isEmpty && vetoed == [id])
            let pid = try #require(harness.pid(of: id))
            #expect(try await harness.control.dismiss(instance: id, force: true) == [id])
            // The process closes and exits on its own once its connection closes.
            #expect(await eventually { kill(pid, 0) != 0 })
            #expect(!harness.events.all.contains { $0.kind == .restarted })
        }
    }

    @Test("a saved scene accepts an interactive close")
    func closeAccepted() async throws {
        try await withProcesses { harness in
            let id = try await harness.control.open("py").instance.id
            _ = try await harness.control.callScene(.instance(id), method: "edit")
            _ = try await harness.control.callScene(.instance(id), method: "save")
            #expect(try await harness.control.dismiss(instance: id) == [id])
        }
    }

    @Test("a process that never says hello fails the open with launch_timeout and is killed")
    func launchTimeout() async throws {
        // Time moves only when the test says: the timeout is due exactly when advanced past.
        let clock = LoopClock.manual()
        try await withProcesses(configure: { $0.clock = clock }) { harness in
            // Opened on a connection of its own: the harness's asks the state meanwhile, and
            // a connection's registry requests wait behind its open.
            let opener = try await SceneConnection.connect(path: harness.path, client: "opener", timeout: 20)
            defer { opener.close() }
            let opening = Task { try await opener.open("mute") }
            _ = await harness.events.wait { $0.kind == .spawned && $0.params["instance"] == "mute-1" }
            // Its declaration's launch timeout is 1 s.
            await clock.advance(by: .milliseconds(999))
            // Asked after the advance, on the same loop: still opening, not timed out.
            #expect(try await harness.instance("mute-1")?.phase == "opening")
            await clock.advance(by: .milliseconds(1))
            #expect(await refusal { _ = try await opening.value } == .launchTimeout)
            let pid = try #require(harness.pid(of: "mute-1"))
            #expect(await eventually { kill(pid, 0) != 0 })
            #expect(try await harness.instance("mute-1") == nil)
        }
    }

    @Test("a command that cannot start fails the open with launch_failed and the system's reason")
    func launchFailed() async throws {
        try await withProcesses { harness in
            do {
                try await harness.control.open("missing")
                Issue.record("the open must fail")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .launchFailed)
                #expect(wire.data["detail"]?.stringValue?.contains("No such file or directory") == true)
            }
        }
    }

    @Test("a scene hello with a token nobody was given, or one already spent, is refused bad_token")
    func badTokens() async throws {
        try await withProcesses { harness in
            let puppet = try await harness.puppet()
            defer { puppet.scene.close() }
            let spent = try harness.token(of: puppet.pid)
            for token in [spent, String(repeating: "0", count: 32), ""] {
                #expect(await refusal {
                    _ = try await SceneConnection.connect(path: harness.path, client: "intruder", role: .scene, token: token, timeout: 10)
                } == .badToken)
            }
            try await puppet.scene.ping()
        }
    }

    @Test("a scene connection acts only for its own instance")
    func scopedToOwnInstance() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("virtual")
            let puppet = try await harness.puppet()
            defer { puppet.scene.close() }
            let scene = puppet.scene
            // Its own instance, named or not.
            #expect(try await scene.call("flow.send", params: ["intent": ["type": "push", "route": "a"]])["path"] == [["type": "push", "route": "a"]])
            #expect(try await scene.send(.push("b"), to: puppet.id).path.count == 2)
            #expect(try await scene.reportPhase(.inactive).phase == "inactive")
            // Anything else is forbidden.
            #expect(await refusal { try await scene.send(.push("x"), to: "virtual-1") } == .forbidden)
            #expect(await refusal { try await scene.route(["screen": "x"], from: "virtual-1") } == .forbidden)
            #expect(await refusal { try await scene.dismiss(instance: "virtual-1") } == .forbidden)
            #expect(await refusal { try await scene.dismiss(scene: "virtual") } == .forbidden)
            #expect(await refusal { try await scene.focus("virtual-1") } == .forbidden)
            #expect(await refusal { try await scene.setAuthenticated(true) } == .forbidden)
            #expect(await refusal { try await scene.shutdownCoordinator() } == .forbidden)
            // A relayed call comes from its own instance: another one, or null, is refused.
            for from: JSONValue in ["virtual-1", nil] {
                #expect(await refusal {
                    _ = try await scene.call("scene.call", params: ["to": .string(puppet.id), "method": "echo", "from": from])
                } == "forbidden")
            }
            // What it may do besides.
            #expect(try await scene.open("virtual").outcome == "focused")
            #expect(try await scene.state().instances.count == 2)
            #expect(try await harness.instance("virtual-1")?.path == [])
        }
    }

    @Test("scenes call each other through the coordinator, and the caller gets the callee's own answer")
    func sceneToScene() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("py")
            _ = try await harness.control.open("ctl")
            let viaPython = try await harness.control.callScene(
                .instance("py-1"), method: "relay", params: ["to": "ctl-1", "method": "title"])
            #expect(viaPython["title"] == "Ctl")
            let viaCtl = try await harness.control.callScene(
                .instance("ctl-1"), method: "relay", params: ["to": ["scene": "py"], "method": "echo", "params": ["n": 1]])
            #expect(viaCtl == ["n": 1])
            // The callee's error comes back as it was.
            do {
                _ = try await harness.control.callScene(.instance("py-1"), method: "no-such-method")
                Issue.record("the scene's error must be relayed")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.code == -32601)
            }
        }
    }

    @Test("a relay is refused reserved_method, not_connected, not_open or call_timeout as the case is")
    func relayRefusals() async throws {
        let clock = LoopClock.manual()
        try await withProcesses(on: clock, callTimeout: .seconds(10)) { harness in
            _ = try await harness.control.open("virtual")
            let puppet = try await harness.puppet { message in
                if message.method == "stall" { try? await Task.sleep(for: .seconds(30)) }
                return .success([:])
            }
            defer { puppet.scene.close() }
            #expect(await refusal { _ = try await harness.control.callScene(.instance(puppet.id), method: "scene.close") } == .reservedMethod)
            #expect(await refusal { _ = try await harness.control.callScene(.instance(puppet.id), method: "flow.send") } == .reservedMethod)
            #expect(await refusal { _ = try await harness.control.callScene(.instance("virtual-1"), method: "title") } == .notConnected)
            #expect(await refusal { _ = try await harness.control.callScene(.instance("py-9"), method: "title") } == .notOpen)
            #expect(await refusal { _ = try await harness.control.callScene(.scene("py"), method: "title") } == .notOpen)
            let control = harness.control
            let stalled = await clock.advancing(by: .seconds(10)) {
                await refusal { _ = try await control.callScene(.instance(puppet.id), method: "stall") }
            }
            #expect(stalled == .callTimeout)
            // A notification is delivered without an answer.
            try await harness.control.notifyScene(.instance(puppet.id), method: "stall")
            // A timeout beyond an hour is refused before anything is relayed.
            do {
                _ = try await harness.control.callScene(.instance(puppet.id), method: "stall", timeout: 1e300)
                Issue.record("a timeout of 1e300 s must be refused")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.code == -32602)
            }
        }
    }

    @Test("each relayed call times out at its own deadline: a shorter one sent after a longer one first, the longer one only at its own")
    func relayDeadlines() async throws {
        let clock = LoopClock.manual()
        try await withProcesses(on: clock, callTimeout: .seconds(60)) { harness in
            let received = Locked(0)
            let puppet = try await harness.puppet { message in
                guard message.method == "stall" else { return .success([:]) }
                received.withLock { $0 += 1 }
                try? await Task.sleep(for: .seconds(60))
                return .success([:])
            }
            defer { puppet.scene.close() }
            let control = harness.control
            let longDone = Locked(false)
            let long = Task {
                defer { longDone.withLock { $0 = true } }
                return await refusal { _ = try await control.callScene(.instance(puppet.id), method: "stall", timeout: 20) }
            }
            #expect(await eventually { received.withLock { $0 } == 1 })
            let short = Task { await refusal { _ = try await control.callScene(.instance(puppet.id), method: "stall", timeout: 5) } }
            #expect(await eventually { received.withLock { $0 } == 2 })
            await clock.advance(by: .seconds(5))
            #expect(await short.value == .callTimeout)
            #expect(!longDone.withLock { $0 })
            await clock.advance(by: .seconds(15))
            #expect(await long.value == .callTimeout)
        }
    }

    @Test("a caller that half-closes after a scene.call still gets the scene's answer")
    func relayAnswerAfterHalfClose() async throws {
        try await withProcesses { harness in
            let puppet = try await harness.puppet { message in
                if message.method == "slow" { try? await Task.sleep(for: .milliseconds(200)) }
                return .success(["done": true])
            }
            defer { puppet.scene.close() }
            let raw = try RawClient(path: harness.path)
            try await raw.hello()
            try await raw.writeFrame(#"{"jsonrpc":"2.0","id":7,"method":"scene.call","params":{"to":"\#(puppet.id)","method":"slow"}}"#)
            raw.shutdownWrite()
            let answer = try await raw.readMessage()
            #expect(answer["id"] == 7)
            #expect(answer["result"] == ["done": true])
            #expect(try await raw.closesWithin(.seconds(10)))
        }
    }

    @Test("a scene process that stops answering heartbeats is killed and restarted")
    func heartbeats() async throws {
        let clock = LoopClock.manual()
        try await withProcesses(configure: {
            $0.heartbeatInterval = .seconds(5)
            $0.heartbeatMisses = 3
            $0.clock = clock
        }) { harness in
            let puppet = try await harness.puppet { message in
                if message.method == CoordinatorMethod.ping { try? await Task.sleep(for: .seconds(30)) }
                return .success([:])
            }
            defer { puppet.scene.close() }
            // A ping, then three beats it leaves unanswered: the third kills it.
            for _ in 0..<3 { await clock.advance(by: .seconds(5)) }
            #expect(try await harness.instance(puppet.id)?.phase == "active")
            await clock.advance(by: .seconds(5))
            let disconnected = await harness.events.wait { $0.kind == .disconnected && $0.params["instance"] == .string(puppet.id) }
            #expect(disconnected?.params["signal"] == .integer(Int(SIGKILL)))
            #expect(kill(puppet.pid, 0) != 0)
            _ = try await harness.newPid(of: puppet.id, other: puppet.pid)
            #expect(try await harness.instance(puppet.id)?.phase == "disconnected")
        }
    }

    @Test("the coordinator sends a scene its path changes and phase changes")
    func notificationsToScene() async throws {
        let received = EventLogOfMessages()
        try await withProcesses { harness in
            let puppet = try await harness.puppet { message in
                received.append(message)
                return .success([:])
            }
            defer { puppet.scene.close() }
            _ = try await harness.control.send(.push("page"), to: puppet.id)
            _ = try await harness.control.push("virtual", from: puppet.id)
            #expect(await eventually { received.methods.contains(CoordinatorMethod.phaseChanged) })
            let flow = try #require(received.all.first { $0.method == CoordinatorMethod.flowChanged })
            #expect(flow.params?["path"] == [["type": "push", "route": "page"]])
            #expect(flow.params?["seq"]?.intValue != nil)
            #expect(received.all.first { $0.method == CoordinatorMethod.phaseChanged }?.params?["phase"] == "background")
        }
    }

    @Test("a scene that answers on the client's loop, with no task, answers relayed calls and hears its path changes in order")
    func immediateHandler() async throws {
        let received = EventLogOfMessages()
        try await withProcesses { harness in
            let puppet = try await harness.puppet(answering: { message in
                received.append(message)
                return message.method == "echo" ? .success(message.params ?? .null) : .success([:])
            })
            defer { puppet.scene.close() }
            #expect(try await harness.control.callScene(.instance(puppet.id), method: "echo", params: ["n": 7]) == ["n": 7])
            for n in 1...5 { _ = try await harness.control.send(.push(.integer(n)), to: puppet.id) }
            #expect(await eventually { received.all.filter { $0.method == CoordinatorMethod.flowChanged }.count == 5 })
            let depths = received.all.filter { $0.method == CoordinatorMethod.flowChanged }.map { $0.params?["path"]?.arrayValue?.count }
            #expect(depths == [1, 2, 3, 4, 5])
        }
    }

    @Test("a registry request that must wait is answered after its wait, the connection's later registry requests (and their params errors) after it, in order; a ping is not held")
    func waitingRequestKeepsOrder() async throws {
        try await withProcesses { harness in
            _ = try await harness.control.open("virtual")
            let client = try RawClient(path: harness.path)
            try await client.hello()
            let before = Set(harness.events.all.filter { $0.kind == .spawned }.compactMap { $0.params["pid"]?.intValue })
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":"puppet"}}"#)
            let spawned = await harness.events.wait { $0.kind == .spawned && !before.contains($0.params["pid"]?.intValue ?? -1) }
            let pid = Int32(try #require(spawned?.params["pid"]?.intValue))
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":4,"method":"scene.focus","params":{}}"#)
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":2,"method":"flow.send","params":{"instance":"virtual-1","intent":{"type":"push","route":"a"}}}"#)
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)
            #expect(try await client.readMessage()["id"] == 3)
            // The puppet's process says hello: the open completes, then the flow.send behind it.
            let scene = try await SceneConnection.connect(
                path: harness.path, client: "puppet", role: .scene, token: try harness.token(of: pid), timeout: 10)
            defer { scene.close() }
            let first = try await client.readMessage()
            let refused = try await client.readMessage()
            let second = try await client.readMessage()
            #expect(first["id"] == 1)
            #expect(first["result"]?["outcome"] == "opened")
            // Params that do not fit are answered in their turn too.
            #expect(refused["id"] == 4)
            #expect(refused["error"]?["code"] == -32602)
            #expect(second["id"] == 2)
            #expect(second["result"]?["path"] == [["type": "push", "route": "a"]])
        }
    }

    @Test("a spawned scene process inherits no descriptor of the coordinator beyond 0, 1 and 2")
    func noInheritedDescriptors() async throws {
        try await withProcesses { harness in
            let puppet = try await harness.puppet()
            defer { puppet.scene.close() }
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(puppet.pid)/fd").compactMap(Int.init).sorted()
            #expect(descriptors == [0, 1, 2])
            // Its own process group, tied to the coordinator's life.
            #expect(getpgid(puppet.pid) == puppet.pid)
        }
    }
}

/// Messages a puppet scene received.
final class EventLogOfMessages: Sendable {
    private let messages = Locked<[IncomingMessage]>([])
    func append(_ message: IncomingMessage) { messages.withLock { $0.append(message) } }
    var all: [IncomingMessage] { messages.withLock { $0 } }
    var methods: [String] { all.map(\.method) }
}

/// Scene processes whose coordinator runs on the manual `clock`, relayed calls timing out
/// after `callTimeout`. The clock moves in jumps a process cannot answer pings between, so
/// the heartbeat is a day apart.
private func withProcesses(on clock: LoopClock, callTimeout: Duration, _ body: (ProcessHarness) async throws -> Void) async throws {
    try await withProcesses(configure: {
        $0.callTimeout = callTimeout
        $0.heartbeatInterval = .seconds(86_400)
        $0.clock = clock
    }, body)
}
