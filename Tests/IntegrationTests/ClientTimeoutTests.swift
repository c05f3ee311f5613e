import SceneClient
import SceneJSON
import SceneTesting
import SceneWire
import Testing

@Suite("A SceneClient call's own timeout")
struct ClientTimeoutTests {
    @Test("a call not answered within the connection's timeout fails timedOut; answered ones before and after it do not, and the link goes on")
    func unansweredCallTimesOut() async throws {
        try await withProcesses { harness in
            let puppet = try await harness.puppet { message in
                // "silent" is never answered while the test runs.
                if message.method == "silent" { try? await Task.sleep(for: .seconds(60)) }
                return .success(["heard": .string(message.method)])
            }
            defer { puppet.scene.close() }
            // Long enough for the answered calls on a loaded machine (the suites run 32 tests
            // at once on 2 cores: a task can wait over a second for its turn), short beside
            // the coordinator's own bound on the silent call.
            let impatient = try await SceneConnection.connect(path: harness.path, client: "impatient", timeout: 3)
            defer { impatient.close() }
            // Answered at once: its deadline passes later with nothing to expire, and the
            // one after it is still kept.
            #expect(try await impatient.callScene(.instance(puppet.id), method: "first")["heard"] == "first")
            let clock = ContinuousClock()
            let start = clock.now
            do {
                // The coordinator's own bound (30 s) answers call_timeout if the client's fails.
                _ = try await impatient.callScene(.instance(puppet.id), method: "silent", timeout: 30)
                Issue.record("a call nobody answers must time out")
            } catch ClientError.timedOut(let method, let seconds) {
                #expect(method == "scene.call")
                #expect(seconds == 3)
            }
            #expect(clock.now - start >= .seconds(3))
            #expect(try await impatient.callScene(.instance(puppet.id), method: "after")["heard"] == "after")
        }
    }

    @Test("calls that wait together all time out by the connection's timeout, none left waiting")
    func waitingCallsTimeOutTogether() async throws {
        try await withProcesses { harness in
            let puppet = try await harness.puppet { message in
                try? await Task.sleep(for: .seconds(60))
                return .success(nil)
            }
            defer { puppet.scene.close() }
            // The connection's timeout bounds its handshake too, and a loaded machine can hold
            // a task back for longer than 0.3 s: the handshake is tried until one is in time.
            var connected: SceneConnection?
            _ = await eventually {
                connected = try? await SceneConnection.connect(path: harness.path, client: "impatient", timeout: 0.3)
                return connected != nil
            }
            let impatient = try #require(connected)
            defer { impatient.close() }
            let outcomes = await withTaskGroup(of: String.self) { group in
                for n in 0..<5 {
                    group.addTask {
                        do {
                            _ = try await impatient.callScene(.instance(puppet.id), method: "wait\(n)", timeout: 5)
                            return "answered"
                        } catch ClientError.timedOut {
                            return "timed out"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes == Array(repeating: "timed out", count: 5))
        }
    }
}
