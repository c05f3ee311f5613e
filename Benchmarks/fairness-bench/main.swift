// fairness-bench: one connection cannot starve the rest. A control client pings, one
// request at a time, while another connection floods the coordinator three ways in turn:
// a scene emitting a signal as fast as it can (reading its answers), a control client
// pipelining pings without ever reading an answer, and a subscriber that never reads while
// a third client changes paths as fast as it can (events for it pile up). Reported: the
// ping's p50, p99 and longest wait in each case, against the same pings with nothing else
// running, in the same run.
//
// Run with `swift build -c release && swift run -c release fairness-bench [--seconds S]`.
// The coordinator is the release `scenectl serve` in its own process.
import BenchSupport
import Foundation
import Glibc
import SceneClient
import SceneJSON
import SceneSocket
import Synchronization

let duration = Duration.milliseconds(Int64(option("--seconds", default: 3) * 1000))
let manifest = #"""
    {"app": "fair", "scenes": [
      {"id": "main", "kind": "window", "instances": "single"},
      {"id": "noisy", "kind": "window", "attach": {}, "interface": {"signals": {"tick": {"payload": {"type": "object"}}}}}]}
    """#
let coordinator = try ServedCoordinator(name: "fairness-bench", manifest: manifest)
defer { coordinator.stop() }
let socket = coordinator.socket
let probe = try await SceneConnection.connect(path: socket, client: "fairness-probe", timeout: 30)
let control = try await SceneConnection.connect(path: socket, client: "fairness-control", timeout: 30)
_ = try await control.open("main")
print("fairness-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; coordinator: scenectl serve (release); \(seconds(duration)) s per case")

/// A blocking socket of its own, for loads that write and read on threads of their own.
final class RawPeer: @unchecked Sendable {
    // Unchecked: `fd` is set once; its writer and reader are one thread each.
    let fd: Int32

    init(_ path: String) async throws {
        fd = try await SocketConnection.connectDescriptor(path: path)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    }

    /// Sends one frame; false once the connection is gone.
    @discardableResult
    func send(_ json: String) -> Bool {
        let bytes = FrameDecoder.frame(Array(json.utf8))
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads one frame's payload; nil once the connection is gone.
    func read() -> [UInt8]? {
        guard let header = exactly(4) else { return nil }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        return exactly(length)
    }

    private func exactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    func close() { Glibc.close(fd) }
}

/// A load's threads: each runs its body until the load stops or the body returns false,
/// and counts its turns; ``finish()`` waits for them to end.
final class Load: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let turns = Atomic<Int>(0)
    private let threads = DispatchGroup()

    /// Runs `body` on a thread of its own.
    func loop(_ body: @escaping @Sendable () -> Bool) {
        threads.enter()
        Thread.detachNewThread {
            while !self.stopped.load(ordering: .relaxed), body() {
                self.turns.add(1, ordering: .relaxed)
            }
            self.threads.leave()
        }
    }

    /// Stops the threads, with `peer`'s connection shut down so none stays blocked on it,
    /// and waits for them: closing the descriptor after, the caller knows no thread uses it.
    func finish(_ peer: RawPeer) {
        stopped.store(true, ordering: .relaxed)
        shutdown(peer.fd, Int32(SHUT_RDWR))
        threads.wait()
    }

    var count: Int { turns.load(ordering: .relaxed) }
}

/// Pings on the probe connection, one at a time, for the case's duration: the waits (ms).
func pings() async throws -> [Double] {
    var waits: [Double] = []
    let clock = ContinuousClock()
    let end = clock.now + duration
    while clock.now < end {
        let start = clock.now
        try await probe.ping()
        waits.append(seconds(clock.now - start) * 1e3)
    }
    return waits
}

struct Case {
    let name: String
    let waits: [Double]
    var p99: Double { percentile(waits, 0.99) }
}

var cases: [Case] = []
cases.append(Case(name: "nothing else", waits: try await pings()))

// A scene emitting a signal as fast as the socket takes it, reading its answers.
do {
    let token = try await control.issueToken(scene: "noisy", uses: 1).token
    let peer = try await RawPeer(socket)
    peer.send(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"scene","client":"noisy","token":"\#(token)"}}"#)
    _ = peer.read()
    let writer = Load(), reader = Load()
    writer.loop { peer.send(#"{"jsonrpc":"2.0","id":1,"method":"scene.emit","params":{"signal":"tick","payload":{}}}"#) }
    reader.loop { peer.read() != nil }
    cases.append(Case(name: "a scene emitting signals flat out", waits: try await pings()))
    writer.finish(peer)
    reader.finish(peer)
    peer.close()
    print("  (the scene sent \(writer.count) scene.emit, read \(reader.count) answers)")
}

// A control client pipelining pings and never reading an answer.
do {
    let peer = try await RawPeer(socket)
    peer.send(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"pipeliner"}}"#)
    let writer = Load()
    writer.loop { peer.send(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#) }
    cases.append(Case(name: "a client pipelining pings, never reading", waits: try await pings()))
    writer.finish(peer)
    peer.close()
    print("  (the pipelining client sent \(writer.count) pings before its connection was full or closed)")
}

// A subscriber that never reads, while another client changes paths flat out.
do {
    let peer = try await RawPeer(socket)
    peer.send(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"deaf"}}"#)
    peer.send(#"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{}}"#)
    let driver = try await SceneConnection.connect(path: socket, client: "fairness-driver", timeout: 30)
    let changing = Task {
        var changes = 0
        while !Task.isCancelled {
            _ = try? await driver.send(.push("page"), to: "main-1")
            _ = try? await driver.send(.pop, to: "main-1")
            changes += 2
        }
        return changes
    }
    cases.append(Case(name: "a subscriber never reading, paths changing", waits: try await pings()))
    changing.cancel()
    print("  (the driver made \(await changing.value) path changes)")
    driver.close()
    peer.close()
}

print("ping on another connection (ms; one at a time)          count      p50      p99  longest")
for item in cases {
    print("  \(padded(item.name, 46)) \(String(format: "%7d %8.3f %8.3f %8.3f", item.waits.count, percentile(item.waits, 0.5), item.p99, item.waits.max() ?? 0))")
}
let quiet = cases[0]
for item in cases.dropFirst() {
    print("aim: ping p99 on another connection while \(item.name) ≤ 50 ms | \(String(format: "%.2f ms (%.1fx the %.2f ms with nothing else)", item.p99, item.p99 / quiet.p99, quiet.p99)) | \(item.p99 <= 50 ? "yes" : "no")")
}
