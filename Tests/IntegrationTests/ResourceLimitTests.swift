import Foundation
import Glibc
import SceneClient
import SceneJSON
import SceneTesting
import Testing

/// A real `scenectl serve` at its open-file limit (`ulimit -n`).
@Suite("At the open-file limit", .timeLimit(.minutes(5)))
struct ResourceLimitTests {
    /// Whether the server closed `client`'s connection (end of file, or a reset).
    func closedByServer(_ client: RawClient) -> Bool {
        var byte: UInt8 = 0
        let got = recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT))
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// The CPU time `pid` has used (user and system), in seconds.
    func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // After the command's name in parentheses: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test("out of descriptors, the coordinator turns new peers away without spinning, serves the connections it has, fails a spawn with launch_failed, and takes peers again once descriptors are free")
    func openFileLimit() async throws {
        try await withTemporaryFolder { folder in
            let manifest = folder.file("limits.json")
            try #"{"app": "limits", "scenes": [{"id": "main", "kind": "window"}, {"id": "proc", "kind": "window", "launch": {"command": ["sleep", "60"], "timeout": 10}}]}"#
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            let socket = folder.file("limits.sock")
            let serve = try ChildProcess(
                ["-c", "ulimit -n 48 && exec \"$0\" serve --manifest \"$1\" --socket \"$2\"", scenectlPath(), manifest, socket],
                executable: "/bin/sh")
            defer { serve.kill() }
            var first: SceneConnection?
            _ = await eventually {
                first = try? await SceneConnection.connect(path: socket, client: "limits", timeout: 30)
                return first != nil
            }
            let control = try #require(first, "the coordinator did not start")
            defer { control.close() }

            // Peers until the coordinator turns them away: its descriptors are all in use.
            // 100 peers, more than 48 descriptors hold: those it cannot take are closed.
            let peers = try (0..<100).map { _ in try RawClient(path: socket) }
            defer { peers.forEach { $0.close() } }
            let turnedAway = await eventually(.seconds(30)) { peers.contains { closedByServer($0) } }
            #expect(turnedAway, "100 peers connected and none was turned away: is the limit in force?")

            // It serves the connections it has, and does not spin on accept meanwhile.
            try await control.ping()
            let before = try cpuSeconds(serve.pid)
            let waiting = (0..<20).compactMap { _ in try? RawClient(path: socket) }
            defer { waiting.forEach { $0.close() } }
            let window = ContinuousClock.now
            while ContinuousClock.now - window < .seconds(2) {
                try await control.ping()
                try await Task.sleep(for: .milliseconds(100))
            }
            let used = try cpuSeconds(serve.pid) - before
            // Twenty pings and twenty peers turned away cost it a few milliseconds; a spin on
            // accept takes what a core it shares gives it.
            #expect(used < 0.3, "the coordinator used \(used) s of CPU in 2 s at its limit: it spins")

            // A spawn that finds no descriptor fails launch_failed, answered.
            #expect(await refusal { _ = try await control.open("proc") } == .launchFailed)
            #expect(try await control.state().instances.isEmpty)

            // Descriptors free again: a new client is served.
            peers.forEach { $0.close() }
            waiting.forEach { $0.close() }
            var later: SceneConnection?
            _ = await eventually {
                later = try? await SceneConnection.connect(path: socket, client: "limits-later", timeout: 5)
                return later != nil
            }
            let again = try #require(later, "no connection was taken once descriptors were free")
            defer { again.close() }
            #expect(try await again.open("main").instance.id == "main-1")
        }
    }
}
