import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneFlow
import SceneJSON
import SceneTesting
import SceneWire
import SceneSync
import Testing

@Suite("Faults under load")
struct FaultTests {
    @Test("scene processes killed at random during a steady load of flow.send lose no acknowledged change and come back")
    func killScenesUnderLoad() async throws {
        let sturdy = #"{"id": "sturdy", "kind": "window", "launch": {"command": ["\#(scenectlPath())", "scene", "--quiet"]}, "restart": {"policy": "permanent", "maxRestarts": 100, "withinSeconds": 60}}"#
        try await withProcesses(extra: [sturdy]) { harness in
            let ids = try await [harness.control.open("sturdy"), harness.control.open("sturdy"), harness.control.open("sturdy")].map(\.instance.id)
            let acknowledged = Locked<[String: Int]>([:])
            let control = harness.control
            let load = Task {
                for step in 1...300 {
                    let id = ids[step % ids.count]
                    guard (try? await control.send(.push(.integer(step)), to: id)) != nil else { continue }
                    acknowledged.withLock { $0[id, default: 0] += 1 }
                }
            }
            // Kill a random scene process every 20 ms while the load runs.
            var generator = SystemRandomNumberGenerator()
            var kills = 0
            while !load.isCancelled, acknowledged.withLock({ $0.values.reduce(0, +) }) < 300, kills < 15 {
                if let pid = harness.pid(of: ids.randomElement(using: &generator)!) { kill(pid, SIGKILL); kills += 1 }
                try await Task.sleep(for: .milliseconds(20))
            }
            await load.value
            #expect(acknowledged.withLock { $0.values.reduce(0, +) } == 300, "flow.send must not fail while scene processes die")
            let state = try await control.state()
            for id in ids {
                let instance = try #require(state.instances.first { $0.id == id })
                #expect(instance.path.count == acknowledged.withLock { $0[id] }, "\(id)")
            }
            // Every instance comes back, and its process has the coordinator's path.
            for id in ids {
                #expect(await eventually { (try? await harness.instance(id))?.phase == "active" })
                let path = try await control.callScene(.instance(id), method: "path")
                #expect(path["path"]?.arrayValue?.count == acknowledged.withLock { $0[id] }, "\(id)")
            }
        }
    }

    @Test("a durable coordinator killed with SIGKILL during load comes back with every acknowledged change")
    func killDurableCoordinator() async throws {
        try await withTemporaryFolder { folder in
            let manifest = repositoryRoot.appendingPathComponent("Protocols/examples/demo.manifest.json").path
            let arguments = ["serve", "--manifest", manifest, "--socket", folder.file("s.sock"), "--state", folder.file("state.json"), "--durable"]
            let first = try ChildProcess(arguments)
            defer { first.kill() }
            _ = try await first.readOutput(until: "serving")
            let control = try await SceneConnection.connect(path: folder.file("s.sock"), client: "load", timeout: 20)
            _ = try await control.open("main")
            var pushed = 0
            var viewers: [String] = []
            // Acknowledged changes of two kinds, then the coordinator dies mid-stream.
            for step in 1...400 {
                do {
                    if step % 4 == 0 {
                        _ = try await control.open("viewer", value: .string("v\(step)"))
                        viewers.append("v\(step)")
                    } else {
                        _ = try await control.send(.push(.integer(step)), to: "main-1")
                        pushed += 1
                    }
                } catch {
                    break
                }
                if step == 250 { kill(first.pid, SIGKILL) }
            }
            control.close()
            _ = await first.wait()
            #expect(pushed + viewers.count >= 240)

            let second = try ChildProcess(arguments)
            defer { second.kill() }
            _ = try await second.readOutput(until: "serving")
            let again = try await SceneConnection.connect(path: folder.file("s.sock"), client: "check", timeout: 20)
            defer { again.close() }
            let state = try await again.state()
            let main = try #require(state.instances.first { $0.id == "main-1" })
            // Every acknowledged push is there (one more may have landed unacknowledged).
            #expect((pushed...(pushed + 1)).contains(main.path.count))
            #expect(Array(main.path.prefix(pushed)).map(\.route) == Array((1...400).filter { $0 % 4 != 0 }.prefix(pushed)).map { JSONValue.integer($0) })
            let values = Set(state.instances.filter { $0.scene == "viewer" }.compactMap(\.value.stringValue))
            #expect(Set(viewers).isSubset(of: values))
        }
    }
}

@Suite("Durable answers")
struct DurableAnswerTests {
    @Test("with --durable, every answer to a change goes out only once the change's journal line is written")
    func answerAfterJournal() async throws {
        try await withServer(configure: { configuration in
            // Beside the socket's folder, in the server's own temporary folder.
            configuration.stateFile = configuration.socketPath.replacingOccurrences(of: "run/demo.sock", with: "state.json")
            configuration.durable = true
        }) { server in
            let journal = server.folder.file("state.json.journal")
            let stateFile = server.folder.file("state.json")
            let client = try await server.connect()
            let main = try await client.open("main").instance.id
            for n in 1...20 {
                let result = try await client.send(.push(.integer(n)), to: main)
                #expect(result.path.count == n)
                // On disk: the journal's last line, unless a state write took it in since
                // (and compacted it away); the journal is read first, so then the state
                // file already holds it.
                let lines = (try? String(contentsOfFile: journal, encoding: .utf8))?.split(separator: "\n") ?? []
                let last = try lines.last.map { try JSONParser.parse(Array($0.utf8)) }
                let journaled = last?["event"]?["type"] == "flow.changed" && last?["event"]?["path"]?.arrayValue?.count == n
                let saved = try StateFile.read(stateFile)?.snapshot.instances.first { $0.id.description == main }?.flow.path.count == n
                #expect(journaled || saved, "push \(n) was answered before it was on disk")
            }
        }
    }
}
