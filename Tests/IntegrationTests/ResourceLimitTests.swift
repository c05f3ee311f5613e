import Foundation
import Glibc
import SceneClient
import SceneJSON
import SceneTesting
import Testing

/// A real `scenectl serve` at its open-file limit (`ulimit -n`).
@Suite("At the open-file limit", .timeLimit(.minutes(5)))
struct ResourceLimitTests {
    /// What the server has sent each raw peer so far, and whether it then closed it.
    final class Inbox {
        var bytes: [Int: [UInt8]] = [:]
        var closed: Set<Int> = []

        /// Reads what `client` (peer `index`) has waiting, without blocking; whether the
        /// server has closed it (end of file, or a reset).
        func closedByServer(_ client: RawClient, _ index: Int) -> Bool {
            if closed.contains(index) { return true }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let got = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if got > 0 {
                    bytes[index, default: []] += chunk[..<got]
                    continue
                }
                if got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closed.insert(index) }
                return closed.contains(index)
            }
        }
    }

    /// The CPU time `pid` has used (user and system), in seconds.
    func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // After the command's name in parentheses: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// How many descriptors `pid` has open.
    func openDescriptors(_ pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    @Test("at its open-file limit the coordinator keeps descriptors free: new peers hear too_many_connections, the connections it has are served without a spin, spawns fail launch_failed however many, and it takes peers again once some close")
    func openFileLimit() async throws {
        try await withTemporaryFolder { folder in
            let manifest = folder.file("limits.json")
            try #"{"app": "limits", "scenes": [{"id": "main", "kind": "window"}, {"id": "proc", "kind": "window", "launch": {"command": ["sleep", "60"], "timeout": 10}}]}"#
                .write(toFile: manifest, atomically: true, encoding: .utf8)
            let socket = folder.file("limits.sock")
            let limit = 48
            let serve = try ChildProcess(
                ["-c", "ulimit -n \(limit) && exec \"$0\" serve --manifest \"$1\" --socket \"$2\"", scenectlPath(), manifest, socket],
                executable: "/bin/sh")
            defer { serve.kill() }
            var first: SceneConnection?
            _ = await eventually {
                first = try? await SceneConnection.connect(path: socket, client: "limits", timeout: 30)
                return first != nil
            }
            let control = try #require(first, "the coordinator did not start")
            defer { control.close() }

            // 100 peers, more than 48 descriptors hold: those it cannot take are answered
            // too_many_connections and closed.
            let inbox = Inbox()
            let burst = ContinuousClock.now
            let peers = try (0..<100).map { _ in try RawClient(path: socket) }
            defer { peers.forEach { $0.close() } }
            let turnedAway = await eventually(.seconds(30)) {
                peers.indices.filter { inbox.closedByServer(peers[$0], $0) }.count > 50
            }
            #expect(turnedAway, "100 peers connected and no more than 50 were turned away: is the limit in force?")
            // Each of them was told why (none was closed unanswered, out of descriptors).
            let unanswered = inbox.closed.filter { !String(decoding: inbox.bytes[$0] ?? [], as: UTF8.self).contains("too_many_connections") }
            #expect(unanswered.isEmpty, "\(unanswered.count) of \(inbox.closed.count) peers turned away read no too_many_connections")
            // The refusals are logged, at most a line a second (the first at once, then one
            // that counts the rest), not a line each.
            func refusalLines() -> Int {
                serve.errorsSoFar.split(separator: "\n")
                    .filter { $0.contains("refused a connection") }.count
            }
            #expect(await eventually { refusalLines() >= 1 }, "no refusal was logged: \(serve.errorTail())")
            let seconds = (ContinuousClock.now - burst) / .seconds(1)
            #expect(Double(refusalLines()) <= 2 + seconds, "\(refusalLines()) lines for \(inbox.closed.count) refusals in \(seconds) s")
            // The headroom (16 by default) is left free, less what the runtime opened since.
            let open = try openDescriptors(serve.pid)
            #expect(limit - open >= 8, "the coordinator has \(open) of its \(limit) descriptors open")

            // It serves the connections it has, and does not spin meanwhile (20 more peers
            // turned away).
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
            // Twenty pings and twenty peers turned away cost it a few milliseconds; a spin
            // takes what a core it shares gives it.
            #expect(used < 0.3, "the coordinator used \(used) s of CPU in 2 s at its limit: it spins")

            // A spawn that would take the descriptors it keeps free fails launch_failed,
            // answered; so do many in a row, each going through the runtime's shared
            // threads, which open files of their own (a coordinator with no descriptor
            // free was ended by them).
            let spawns = ContinuousClock.now
            var refused = 0
            while ContinuousClock.now - spawns < .seconds(2) {
                let reason = await refusal { _ = try await control.open("proc") }
                #expect(reason == .launchFailed, "the coordinator's log: \(serve.errorTail())")
                guard reason == .launchFailed else { break }
                refused += 1
            }
            #expect(refused > 0)
            #expect(serve.isRunning, "the coordinator's log: \(serve.errorTail())")
            #expect(try await control.state().instances.isEmpty)

            // Connections closed: a new client is served.
            peers.forEach { $0.close() }
            waiting.forEach { $0.close() }
            var later: SceneConnection?
            _ = await eventually {
                later = try? await SceneConnection.connect(path: socket, client: "limits-later", timeout: 5)
                return later != nil
            }
            let again = try #require(later, "no connection was taken once others closed")
            defer { again.close() }
            #expect(try await again.open("main").instance.id == "main-1")
        }
    }
}
