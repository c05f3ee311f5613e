import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneWire
import Testing

extension SubscriptionTests {
    @Test("a durable coordinator killed with SIGKILL and started again replays, from its journal, every event after a subscriber's since")
    func durableResume() async throws {
        try await withTemporaryFolder { folder in
            let manifest = repositoryRoot.appendingPathComponent("Protocols/examples/demo.manifest.json").path
            let arguments = ["serve", "--manifest", manifest, "--socket", folder.file("s.sock"), "--state", folder.file("state.json"), "--durable"]
            let first = try ChildProcess(arguments)
            defer { first.kill() }
            _ = try await first.readOutput(until: "serving")
            let control = try await SceneConnection.connect(path: folder.file("s.sock"), client: "load", timeout: 20)
            _ = try await control.open("main")
            let seen = try await control.subscribe(EventFilter(topics: [])).seq
            for step in 0..<30 { _ = try await control.send(step % 2 == 0 ? .push(.integer(step)) : .pop, to: "main-1") }
            // Every answer above was sent once its event was on disk.
            kill(first.pid, SIGKILL)
            control.close()
            _ = await first.wait()

            let second = try ChildProcess(arguments)
            defer { second.kill() }
            _ = try await second.readOutput(until: "serving")
            let again = try await SceneConnection.connect(path: folder.file("s.sock"), client: "resume", timeout: 20)
            defer { again.close() }
            let (answered, events) = try await again.subscribe(EventFilter(), since: seen)
            let watchdog = deadline(closing: again)
            defer { watchdog.cancel() }
            // The previous run's 30 changes, replayed; then what the restart itself emitted,
            // numbered on (replayed too, or live once it is on disk).
            var received: [WireEvent] = []
            for await event in events {
                received.append(event)
                if event.seq >= answered, event.kind == .opened { break }
            }
            #expect(received.map(\.seq) == Array((seen + 1)...(seen + UInt64(received.count))))
            #expect(received.prefix(30).allSatisfy { $0.kind == .flowChanged })
            #expect(received.dropFirst(30).contains { $0.kind == .opened })
            _ = try await again.send(.push("after"), to: "main-1")
            #expect(try await again.subscribe(EventFilter(topics: [])).seq > answered)
        }
    }

    @Test("a coordinator that is not durable and started afresh answers a since from its previous run history_gone")
    func freshStartForgets() async throws {
        try await withServer { server in
            let client = try await server.connect()
            do {
                _ = try await client.subscribe(EventFilter(), since: 500)
                Issue.record("a since from another run was served")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .historyGone)
                #expect(wire.data["last"] == 0)
            }
            // Its numbers have reached the since: only the origin tells the runs apart.
            _ = try await client.open("main")
            _ = try await client.open("notes")
            do {
                _ = try await client.subscribe(EventFilter(), since: 1, origin: "a-previous-run")
                Issue.record("a since numbered by another run was served")
            } catch let error as ClientError {
                #expect(error.reason == .historyGone)
            }
        }
    }

    @Test("with --durable, a subscriber is sent an event only once its journal line is on disk")
    func durableEventsAfterDisk() async throws {
        try await withServer(configure: { configuration in
            configuration.stateFile = configuration.socketPath.replacingOccurrences(of: "run/demo.sock", with: "state.json")
            configuration.durable = true
        }) { server in
            let journal = server.folder.file("state.json.journal")
            let client = try await server.connect()
            let (_, events) = try await client.subscribe(EventFilter(topics: [.flow]))
            let watchdog = deadline(closing: client)
            defer { watchdog.cancel() }
            let main = try await client.open("main").instance.id
            let writer = Task { for n in 1...20 { _ = try await client.send(.push(.integer(n)), to: main) } }
            var seen = 0
            for await event in events where event.kind == .flowChanged {
                let lines = (try? String(contentsOfFile: journal, encoding: .utf8))?.split(separator: "\n") ?? []
                let journaled = try lines.contains { try JSONParser.parse(Array($0.utf8))["seq"]?.intValue == Int(event.seq) }
                #expect(journaled, "event \(event.seq) was sent before its line was on disk")
                seen += 1
                if seen == 20 { break }
            }
            try await writer.value
        }
    }
}

extension SubscriptionTests {
    @Test("a durable coordinator numbers on from its state's mark under the same origin, and a subscriber resumes there")
    func numbersFromMark() async throws {
        try await withServer(configure: { configuration in
            let folder = URL(fileURLWithPath: configuration.socketPath).deletingLastPathComponent().deletingLastPathComponent().path
            let path = "\(folder)/state.json"
            let empty = RegistrySnapshot<JSONValue>(
                app: "demo", instances: [], focusOrder: [], immersive: nil, pendingLink: nil, authenticated: false, counters: [:])
            // A previous run's state: its snapshot includes events through 57; its journal is empty.
            try? StateFile.write(CoordinatorState(snapshot: empty, processes: [], journal: JournalMark(run: "r", seq: 57), origin: "line"), to: path)
            _ = FileManager.default.createFile(atPath: path + ".journal", contents: Data())
            configuration.stateFile = path
            configuration.durable = true
        }) { server in
            let client = try await server.connect()
            let (seq, events) = try await client.subscribe(EventFilter(), since: 57, origin: "line")
            let watchdog = deadline(closing: client)
            defer { watchdog.cancel() }
            #expect(seq == 57)
            _ = try await client.open("main")
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next()?.seq == 58)
        }
    }

    @Test("a run without --durable after a durable one does not apply the durable run's journal again")
    func journalNotReapplied() async throws {
        try await withTemporaryFolder { folder in
            let manifest = repositoryRoot.appendingPathComponent("Protocols/examples/demo.manifest.json").path
            let socket = folder.file("s.sock")
            let base = ["serve", "--manifest", manifest, "--socket", socket, "--state", folder.file("state.json")]
            func run(_ arguments: [String], _ body: (SceneConnection) async throws -> Void) async throws {
                let server = try ChildProcess(arguments)
                defer { server.kill() }
                _ = try await server.readOutput(until: "serving")
                let client = try await SceneConnection.connect(path: socket, client: "t", timeout: 20)
                try await body(client)
                client.close()
                server.signal(SIGTERM)
                #expect(await server.wait() == 0)
            }
            try await run(base + ["--durable"]) { _ = try await $0.open("main") }
            try await run(base) { client in
                let dismissed = try await client.dismiss(instance: "main-1")
                #expect(dismissed == ["main-1"])
            }
            try await run(base + ["--durable"]) { client in
                let instances = try await client.state().instances.map(\.id)
                #expect(!instances.contains("main-1"))
            }
        }
    }
}
