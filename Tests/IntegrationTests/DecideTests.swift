import SceneClient
import SceneJSON
import SceneSocket
import SceneSync
import SceneTesting
import SceneWire
import Testing

@Suite("A scene process that decides routes")
struct DecideTests {
    @Test("a process declared decides is asked scene.decide with the route and its path, and its decision is carried out")
    func decisionCarriedOut() async throws {
        // On a clock that never moves, the decision is awaited however long the scene takes.
        try await withProcesses(configure: { $0.clock = LoopClock.manual() }) { harness in
            let asked = Locked<[JSONValue]>([])
            let decider = try await harness.puppet(of: "decider") { message in
                guard message.method == "scene.decide" else { return .success([:]) }
                asked.withLock { $0.append(message.params ?? .null) }
                return .success(["decision": "present", "style": "cover"])
            }
            defer { decider.scene.close() }
            _ = try await harness.control.send(.push("a"), to: decider.id)
            let result = try await harness.control.route(["screen": "login"], from: decider.id)
            #expect(result.outcome == "presented")
            #expect(result.path == [.push("a"), .cover(["screen": "login"])])
            #expect(result.via == [decider.id])
            #expect(asked.withLock { $0 } == [["route": ["screen": "login"], "path": [["type": "push", "route": "a"]]]])
        }
    }

    @Test("a malformed decision, or an error, leaves the route to the scene's scope rules")
    func malformedFallsBack() async throws {
        // On a clock that never moves, only the answers decide, never the decide timeout.
        try await withProcesses(configure: { $0.clock = LoopClock.manual() }) { harness in
            let decider = try await harness.puppet(of: "decider") { message in
                guard message.method == "scene.decide" else { return .success([:]) }
                if message.params?["route"]?["n"] == 1 { return .success(["decision": "present", "style": "popover"]) }
                return .failure(WireError(code: -32601, message: "no decide here"))
            }
            defer { decider.scene.close() }
            for n in 1...2 {
                let result = try await harness.control.route(["n": .integer(n)], from: decider.id)
                #expect(result.path.last == .push(["n": .integer(n)]), "route \(n)")
            }
        }
    }

    @Test("a decision that does not come within decideTimeout leaves the route to the scope rules")
    func decideTimeout() async throws {
        let clock = LoopClock.manual()
        try await withProcesses(configure: {
            // The clock moves in jumps the puppet cannot answer pings between.
            $0.heartbeatInterval = .seconds(86_400)
            $0.clock = clock
        }) { harness in
            let decider = try await harness.puppet(of: "decider") { message in
                if message.method == "scene.decide" { try? await Task.sleep(for: .seconds(30)) }
                return .success([:])
            }
            defer { decider.scene.close() }
            let control = harness.control
            let path = await clock.advancing(by: .milliseconds(500)) {
                try? await control.route(["screen": "x"], from: decider.id).path
            }
            #expect(path == [.push(["screen": "x"])])
        }
    }
}
