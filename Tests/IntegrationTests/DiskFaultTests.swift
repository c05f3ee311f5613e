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

/// A real `scenectl serve` whose system calls fail where libfiu says (`fiu-run -x`): the
/// disk fails under it, and what it promised still holds.
@Suite("Faults from the disk", .timeLimit(.minutes(5)))
struct DiskFaultTests {
    static let manifest = repositoryRoot.appendingPathComponent("Protocols/examples/demo.manifest.json").path

    /// `scenectl serve` of the demo app with its state in `folder`, under `faults` (none
    /// on yet) when given; its errors go to its output.
    struct Served {
        let process: ChildProcess
        let socket: String
        let state: String

        init(in folder: TemporaryFolder, faults: FaultInjection?, durable: Bool = false) throws {
            socket = folder.file("serve.sock")
            state = folder.file("state.json")
            var command = [scenectlPath(), "serve", "--manifest", DiskFaultTests.manifest, "--socket", socket, "--state", state]
            if durable { command.append("--durable") }
            if let faults { command = [FaultInjection.fiuRun] + faults.arguments(running: command) }
            let quoted = command.map { "'\($0)'" }.joined(separator: " ")
            process = try ChildProcess(["-c", "exec \(quoted) 2>&1"], executable: "/bin/sh")
        }

        func connect() async throws -> SceneConnection {
            var connection: SceneConnection?
            _ = await eventually {
                connection = try? await SceneConnection.connect(path: socket, client: "disk-faults", timeout: 30)
                return connection != nil
            }
            return try #require(connection, "the coordinator did not start: \(process.isRunning ? "" : process.standardOutput)")
        }

        /// The depth of `instance`'s path in the state file now; nil when it is not there.
        func depth(of instance: String) throws -> Int? {
            try StateFile.read(state)?.snapshot.instances.first { $0.id.description == instance }?.flow.path.count
        }
    }

    /// Every file in `folder` is whole: the state file and each saved session parse; and,
    /// once no coordinator runs on it (`stopped`), no temporary file is left (one that runs
    /// may be in the middle of a write).
    func expectWhole(_ folder: TemporaryFolder, stopped: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        if stopped {
            #expect(!files.contains { $0.contains(".tmp-") }, "a temporary file was left: \(files)", sourceLocation: sourceLocation)
        }
        #expect(throws: Never.self, sourceLocation: sourceLocation) { _ = try StateFile.read(folder.file("state.json")) }
        for session in files where session.hasPrefix("state.json.sessions/") && session.hasSuffix(".json") {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file(session))))
            #expect((try? SavedSession.read(bytes, app: "demo", file: session).get()) != nil, "\(session) does not parse", sourceLocation: sourceLocation)
        }
    }

    @Test("a state file that cannot be written is reported, stays as it was (whole, no temporary file), and catches up by itself once the disk recovers")
    func stateFileCatchesUp() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults)
            defer { served.process.kill() }
            let control = try await served.connect()
            defer { control.close() }
            _ = try await control.open("main")
            #expect(await eventually { (try? served.depth(of: "main-1")) == 0 })

            try await faults.enable("posix/io/dir/rename", in: served.process.pid, errno: ENOSPC)
            _ = try await control.send(.push("report"), to: "main-1")
            _ = try await served.process.readOutput(until: "cannot write the state file")
            try expectWhole(folder, stopped: false)
            #expect(try served.depth(of: "main-1") == 0, "the state file changed while renames failed")

            // The disk recovers: the file catches up with no further request.
            try await faults.disable("posix/io/dir/rename", in: served.process.pid)
            #expect(await eventually { (try? served.depth(of: "main-1")) == 1 })
            _ = try await served.process.readOutput(until: "is written again")
            try await control.shutdownCoordinator()
            #expect(await served.process.wait(timeout: .seconds(60)) == 0, "\(served.process.outputTail())")
            try expectWhole(folder)
        }
    }

    @Test("a coordinator whose standard error cannot be written goes on serving: a log line it cannot write is dropped, not fatal")
    func unwritableStandardError() async throws {
        try await withTemporaryFolder { folder in
            let socket = folder.file("serve.sock")
            // Standard error open for reading only: every write to it fails (EBADF). At
            // `debug`, the coordinator logs as it starts and as it serves.
            let command = [scenectlPath(), "serve", "--manifest", DiskFaultTests.manifest, "--socket", socket]
            let quoted = command.map { "'\($0)'" }.joined(separator: " ")
            let process = try ChildProcess(["-c", "exec \(quoted) 2</dev/null"], environment: ["SCENE_LOG": "debug"], executable: "/bin/sh")
            defer { process.kill() }
            var connection: SceneConnection?
            _ = await eventually {
                connection = try? await SceneConnection.connect(path: socket, client: "unwritable-log", timeout: 30)
                return connection != nil || !process.isRunning
            }
            let control = try #require(connection, "the coordinator did not start (running: \(process.isRunning))")
            defer { control.close() }
            _ = try await control.open("main")
            _ = try await control.send(.push("logged"), to: "main-1")
            try await control.ping()
            try await control.shutdownCoordinator()
            #expect(await process.wait(timeout: .seconds(60)) == 0, "\(process.outputTail())")
        }
    }

    @Test("a durable coordinator whose journal cannot be made durable stops with status 74; a restart has every change it acknowledged, and every file is whole")
    func durableStops() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults, durable: true)
            defer { served.process.kill() }
            let control = try await served.connect()
            defer { control.close() }
            _ = try await control.open("main")
            _ = try await control.send(.push("acknowledged"), to: "main-1")

            for call in ["posix/io/sync/fsync", "posix/io/sync/fdatasync"] {
                try await faults.enable(call, in: served.process.pid, errno: EIO)
            }
            // Not acknowledged: the journal cannot hold it.
            #expect(await refusal { _ = try await control.send(.push("lost"), to: "main-1") } == nil)
            #expect(await served.process.wait(timeout: .seconds(60)) == 74, "\(served.process.outputTail())")
            try expectWhole(folder, stopped: false)
            let restored = try await expectRestored(folder, acknowledged: 1)
            #expect(restored.first?.route == "acknowledged")
        }
    }

    @Test("a durable journal whose reserve cannot grow (pwrite fails, ENOSPC) appends its lines instead: every push is acknowledged, and a restart after a SIGKILL has them all")
    func durableReserveFails() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults, durable: true)
            defer { served.process.kill() }
            let control = try await served.connect()
            defer { control.close() }
            _ = try await control.open("main")
            try await faults.enable("posix/io/rw/pwrite", in: served.process.pid, errno: ENOSPC)
            // Each line carries the whole path: 40 pushes of 2 KiB routes write 1.6 MiB of
            // lines, more than the reserve written before the fault.
            let page = String(repeating: "p", count: 2048)
            for n in 1...40 {
                _ = try await control.send(.push(.string("\(n) \(page)")), to: "main-1")
            }
            let journal = try [UInt8](Data(contentsOf: URL(fileURLWithPath: served.state + ".journal")))
            #expect(JournalLine.scan(journal).end == journal.count, "the journal does not end with its last line: it still had a reserve")
            served.process.kill()
            let restored = try await expectRestored(folder, acknowledged: 40)
            #expect(restored.last?.route == .string("40 \(page)"))
        }
    }

    @Test("a durable run whose state writes and journal compactions fail at random (renames, half the time): it goes on, and a restart after a SIGKILL has every change it acknowledged")
    func durableRandomRenames() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults, durable: true)
            defer { served.process.kill() }
            let control = try await served.connect()
            _ = try await control.open("main")
            try await faults.enable("posix/io/dir/rename", in: served.process.pid, errno: EIO, probability: 0.5)
            // Pushes for 600 ms: state writes (every 100 ms of changes) and the compactions
            // after them take turns with the journal's appends meanwhile.
            var acknowledged = 0
            let end = ContinuousClock.now + .milliseconds(600)
            while ContinuousClock.now < end {
                _ = try await control.send(.push(.integer(acknowledged + 1)), to: "main-1")
                acknowledged += 1
            }
            #expect(served.process.isRunning)
            control.close()
            served.process.kill()
            try await expectRestored(folder, acknowledged: acknowledged)
        }
    }

    @Test("a durable run whose writes fail at random (1 in 10; journal appends among them): it stops with status 74 at the first append that fails, and a restart has every change it acknowledged")
    func durableRandomWrites() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults, durable: true)
            defer { served.process.kill() }
            let control = try await served.connect()
            defer { control.close() }
            _ = try await control.open("main")
            // The loop ends by a failed append, not by its deadline: each push appends at
            // least once, so it is over within a few dozen pushes (120 in a row without one:
            // one chance in 300,000), however long a push takes on a loaded machine. (At 1 in
            // 50 it took 50 pushes on average, and under ThreadSanitizer beside the other
            // suites, with each append's fdatasync queued behind theirs, 30 s could pass
            // with none failing.)
            try await faults.enable("posix/io/rw/write", in: served.process.pid, errno: EIO, probability: 0.1)
            var acknowledged = 0
            let end = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < end, (try? await control.send(.push(.integer(acknowledged + 1)), to: "main-1")) != nil {
                acknowledged += 1
            }
            // Not stopped, it would still hold the socket and the state: no restart then.
            let status = await served.process.wait(timeout: .seconds(60))
            try #require(status == 74, "after \(acknowledged) pushes acknowledged: \(served.process.outputTail())")
            try await expectRestored(folder, acknowledged: acknowledged)
        }
    }

    /// Starts the coordinator again on `folder`'s state (no fault): main-1 has every one of
    /// the `acknowledged` pushes, at most the one in flight besides, and every file is whole.
    /// Answers main-1's path.
    @discardableResult
    func expectRestored(
        _ folder: TemporaryFolder, acknowledged: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [RouteStep<JSONValue>] {
        let again = try Served(in: folder, faults: nil, durable: true)
        defer { again.process.kill() }
        let restarted = try await again.connect()
        let path = try #require(try await restarted.state().instances.first { $0.id == "main-1" }, sourceLocation: sourceLocation).path
        let depth = path.count
        #expect(depth >= acknowledged && depth <= acknowledged + 1, "\(acknowledged) pushes acknowledged, \(depth) restored", sourceLocation: sourceLocation)
        // Stopped first: a write of its own under way would have its temporary file.
        try await restarted.shutdownCoordinator()
        restarted.close()
        #expect(await again.process.wait(timeout: .seconds(60)) == 0, "\(again.process.outputTail())", sourceLocation: sourceLocation)
        try expectWhole(folder, sourceLocation: sourceLocation)
        return path
    }

    @Test("renames failing half the time: every change acknowledged before a shutdown is in the state a restart reads")
    func randomRenames() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults)
            defer { served.process.kill() }
            let control = try await served.connect()
            _ = try await control.open("main")
            try await faults.enable("posix/io/dir/rename", in: served.process.pid, errno: EIO, probability: 0.5)
            for page in 1...30 {
                _ = try await control.send(.push(.integer(page)), to: "main-1")
            }
            try await control.shutdownCoordinator()
            control.close()
            #expect(await served.process.wait(timeout: .seconds(60)) == 0, "\(served.process.outputTail())")
            try expectWhole(folder)
            #expect(try served.depth(of: "main-1") == 30)
        }
    }

    @Test("session.save while the disk fails answers cannot_save and leaves no file behind; once the disk recovers, the same save works")
    func sessionSave() async throws {
        try await withTemporaryFolder { folder in
            let faults = try await FaultInjection.prepare(in: folder.path)
            let served = try Served(in: folder, faults: faults)
            defer { served.process.kill() }
            let control = try await served.connect()
            defer { control.close() }
            _ = try await control.open("main")
            try await faults.enable("posix/io/dir/rename", in: served.process.pid, errno: ENOSPC)
            #expect(await refusal { try await control.saveSession("morning") } == .cannotSave)
            #expect(try await control.sessions().isEmpty)
            try expectWhole(folder, stopped: false)

            try await faults.disable("posix/io/dir/rename", in: served.process.pid)
            try await control.saveSession("morning")
            #expect(try await control.sessions() == ["morning"])
            try await control.shutdownCoordinator()
            #expect(await served.process.wait(timeout: .seconds(60)) == 0, "\(served.process.outputTail())")
            try expectWhole(folder)
        }
    }
}
