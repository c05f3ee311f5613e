import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneWire
import SceneTesting
import Testing

/// A private temporary folder with a short path (socket paths are limited to 107 bytes).
/// Use it through ``withTemporaryFolder(_:)``, which removes it when the body returns.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/sct-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SocketError("mkdtemp") }
        path = String(cString: made)
    }

    /// A folder that exists already (whose owner removes it).
    init(existing path: String) {
        self.path = path
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` with a fresh temporary folder and removes the folder afterwards, whatever
/// happens.
func withTemporaryFolder<T>(_ body: (TemporaryFolder) async throws -> T) async throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    return try await body(folder)
}

/// Runs `body` with `coordinator`, then stops it (awaiting its end), whether `body`
/// returned or threw.
func stopping<R, T>(_ coordinator: Coordinator<R>, _ body: (Coordinator<R>) async throws -> T) async throws -> T {
    do {
        let result = try await body(coordinator)
        await coordinator.stop()
        return result
    } catch {
        await coordinator.stop()
        throw error
    }
}

/// A coordinator serving the demo manifest on a socket in its own folder: a
/// ``TestCoordinator`` with no control client of its own (these tests count connections).
/// Use it through ``withServer(manifest:configure:_:)``.
final class TestServer: Sendable {
    let test: TestCoordinator
    /// The server's temporary folder (its socket is in `run/` inside it).
    var folder: TemporaryFolder { TemporaryFolder(existing: test.folder) }
    var coordinator: Coordinator<JSONValue> { test.coordinator }
    var path: String { test.socketPath }

    init(_ test: TestCoordinator) {
        self.test = test
    }

    func connect(client: String = "tests") async throws -> SceneConnection {
        try await test.connect(client: client)
    }
}

/// Runs `body` against a fresh coordinator; stops it and removes its folder afterwards.
func withServer<T>(
    manifest: Manifest = .demo, configure: (inout CoordinatorConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> T
) async throws -> T {
    try await TestCoordinator.run(manifest: manifest, connectsControl: false, configure: { configuration in
        let folder = URL(fileURLWithPath: configuration.socketPath).deletingLastPathComponent().path
        configuration.socketPath = "\(folder)/run/demo.sock"
        configure(&configuration)
    }) { test in
        try await body(TestServer(test))
    }
}

/// A socket client that writes raw bytes and reads raw frames, with timeouts: for feeding
/// the server exactly what a test wants, malformed or not. It never blocks a thread: the
/// socket is non-blocking and waits are short sleeps against a deadline.
final class RawClient {
    private(set) var fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
            raw[min(bytes.count, raw.count - 1)] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = SocketError("connect")
            Glibc.close(fd)
            throw error
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Writes every byte, waiting (bounded) while the socket is full.
    func write(_ bytes: [UInt8], timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                guard ContinuousClock.now < deadline else { throw SocketError("send", code: ETIMEDOUT) }
                try await Task.sleep(for: .milliseconds(1))
            } else {
                throw SocketError("send")
            }
        }
    }

    func writeFrame(_ text: String) async throws { try await write(FrameDecoder.frame(Array(text.utf8))) }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until at least `count` bytes are buffered; false on EOF, throws on timeout.
    /// Polls ever less often while nothing comes (1 ms, doubling up to 16 ms), so that
    /// many waiting clients do not keep the cooperative pool busy.
    private func fill(_ count: Int, deadline: ContinuousClock.Instant) async throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var pause = Duration.milliseconds(1)
        while buffer.count < count {
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got > 0 {
                buffer += chunk[..<got]
                pause = .milliseconds(1)
            } else if got == 0 {
                return false
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                guard ContinuousClock.now < deadline else { throw SocketError("recv", code: ETIMEDOUT) }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(16))
            } else if errno == ECONNRESET {
                return false
            } else {
                throw SocketError("recv")
            }
        }
        return true
    }

    /// The next frame's payload, or nil when the server closed the connection first.
    /// Throws when nothing comes within `timeout`.
    func readFrame(timeout: Duration = .seconds(60)) async throws -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        guard try await fill(4, deadline: deadline) else { return nil }
        let length = Int(buffer[0]) << 24 | Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
        guard try await fill(4 + length, deadline: deadline) else { return nil }
        let payload = Array(buffer[4..<(4 + length)])
        buffer.removeFirst(4 + length)
        return payload
    }

    /// The next message as JSON; records an issue when the server closes instead, and a
    /// thread dump with the error when nothing comes within `timeout`.
    func readMessage(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let frame: [UInt8]?
        do {
            frame = try await readFrame(timeout: timeout)
        } catch let error as SocketError where error.code == ETIMEDOUT {
            let dump = await ThreadDump.clause(afterWaiting: timeout, for: "an answer at \(sourceLocation)")
            Issue.record("no answer within \(timeout)\(dump)", sourceLocation: sourceLocation)
            throw error
        }
        guard let payload = frame else {
            Issue.record("the server closed the connection instead of answering", sourceLocation: sourceLocation)
            return .null
        }
        return try JSONParser.parse(payload)
    }

    /// Whether the server closes the connection within `timeout`, reading and dropping
    /// whatever comes first.
    func closesWithin(_ timeout: Duration = .seconds(60)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        do {
            while true {
                buffer.removeAll()
                if try await !fill(1, deadline: deadline) { return true }
            }
        } catch let error as SocketError where error.code == ETIMEDOUT {
            return false
        }
    }

    /// Says hello as a control client and checks the answer.
    func hello() async throws {
        try await writeFrame(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"raw"}}"#)
        let answer = try await readMessage()
        #expect(answer["result"]?["protocol"] == 1)
    }
}

/// The scenectl executable that `swift test` built next to the test bundle.
func scenectlPath() -> String {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    // The test bundle may be a directory (…xctest/…); walk up to the build folder.
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("scenectl").path), folder.path != "/" {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("scenectl").path
}

/// A child process, started with `posix_spawn` (not Foundation's `Process`, whose
/// `run()` on Linux copies 256 bytes of each `/proc/self/fd` entry's name and so can read
/// past the end of its buffer — a crash when the test process has many descriptors open).
/// The child gets no descriptor of the tests beyond 0, 1 and 2. Use long-running ones
/// through ``withChild(_:_:)``, which kills the process when the body returns.
///
/// Its standard output and error are read as they come, by a thread of their own
/// (``OutputDrain``): a child that writes more than a pipe holds (a coordinator's log over
/// a long test) never blocks on a pipe nobody reads.
final class ChildProcess {
    let pid: pid_t
    private let drain: OutputDrain
    private var status: Int32?
    /// How much of standard output ``readOutput(until:timeout:)`` has returned.
    private var consumed = 0

    /// Starts `executable` (scenectl when nil) with `arguments`, the tests' environment
    /// plus `environment`, and standard output and error captured.
    init(_ arguments: [String], environment: [String: String] = [:], executable: String? = nil, captureOutput: Bool = true) throws {
        var merged = ProcessInfo.processInfo.environment
        // A coordinator it starts ends with this test process, even if the runner dies.
        merged["SCENE_EXIT_WITH_PARENT"] = "1"
        merged.merge(environment) { _, new in new }
        let output = try Processes.pipe(), errors = try Processes.pipe()
        defer {
            close(output.write)
            close(errors.write)
        }
        do {
            pid = try Processes.spawn(
                executable ?? scenectlPath(), arguments: arguments, environment: merged,
                output: captureOutput ? output.write : -1, errors: captureOutput ? errors.write : -1)
        } catch {
            close(output.read)
            close(errors.read)
            throw error
        }
        drain = OutputDrain(output: output.read, errors: errors.read)
    }

    deinit {
        kill()
        drain.stop()
    }

    /// Whether it still runs (reaps it once it has ended).
    var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = raw
        return false
    }

    /// Its exit code, or 128 + the signal that ended it; nil while it runs.
    var terminationStatus: Int32? {
        guard !isRunning, let raw = status else { return nil }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// Waits (bounded) for the process to exit; returns its status, or nil on timeout.
    func wait(timeout: Duration = .seconds(120)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return terminationStatus
    }

    /// What it wrote to standard output that ``readOutput(until:timeout:)`` has not
    /// returned, to the end: it waits (at most 60 s) for the output to be closed, so call it
    /// once the process ended.
    var standardOutput: String {
        let bytes = drain.output(waitingForEnd: .seconds(60))
        defer { consumed = bytes.count }
        return String(decoding: bytes[min(consumed, bytes.count)...], as: UTF8.self)
    }

    /// The last `limit` bytes it wrote to standard output so far, without waiting for the
    /// end: for a failing expectation's message while the process may still run.
    func outputTail(_ limit: Int = 4096) -> String {
        let bytes = drain.outputSoFar().0
        return String(decoding: bytes.suffix(limit), as: UTF8.self)
    }

    /// The last `limit` bytes it wrote to standard error so far, and how it ended if it has:
    /// for a failing expectation's message while the process may still run.
    func errorTail(_ limit: Int = 4096) -> String {
        let bytes = drain.errorsSoFar()
        let ended = terminationStatus.map { "ended with status \($0)" } ?? "still runs"
        return "[\(ended)] " + String(decoding: bytes.suffix(limit), as: UTF8.self)
    }

    /// What it wrote to standard error so far, without waiting for the end.
    var errorsSoFar: String { String(decoding: drain.errorsSoFar(), as: UTF8.self) }

    /// Everything it wrote to standard error, to the end (waiting as ``standardOutput`` does).
    var standardError: String { String(decoding: drain.errors(waitingForEnd: .seconds(60)), as: UTF8.self) }

    /// Reads standard output until it contains `marker` (bounded, never blocking a
    /// thread); returns what was read, up to and including the marker's line.
    func readOutput(until marker: String, timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        let wanted = Array(marker.utf8)
        while true {
            let (bytes, ended) = drain.outputSoFar()
            let pending = bytes[min(consumed, bytes.count)...]
            if let found = pending.firstRange(of: wanted) {
                let end = pending[found.upperBound...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? pending.endIndex
                consumed = end
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            if ended || ContinuousClock.now >= deadline {
                let text = String(decoding: pending, as: UTF8.self)
                Issue.record("\"\(marker)\" did not appear in the output within \(timeout): \(text)")
                return text
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Sends `signal` while it runs.
    func signal(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
    }

    /// Kills the process (if it still runs) and reaps it.
    func kill() {
        guard status == nil else { return }
        Glibc.kill(pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        status = raw
    }
}

/// A child's standard output and error, read as they come by a thread of its own until
/// both are closed (or ``stop()``), which then closes them: the child never blocks on a
/// full pipe, and the tests read what it wrote from here.
final class OutputDrain: Sendable {
    private struct Stream {
        var bytes: [UInt8] = []
        var ended = false
    }

    private struct State {
        var output = Stream()
        var errors = Stream()
        var stopped = false
    }

    private let state = Locked(State())

    /// Starts reading `output` and `errors`, which it owns from now on.
    init(output: Int32, errors: Int32) {
        let state = self.state
        let thread = Thread { Self.read(output, errors, into: state) }
        thread.name = "child-output"
        thread.start()
    }

    /// Stops reading within 50 ms; the descriptors are closed then.
    func stop() { state.withLock { $0.stopped = true } }

    /// Standard output so far, and whether it was closed.
    func outputSoFar() -> ([UInt8], ended: Bool) { state.withLock { ($0.output.bytes, $0.output.ended) } }

    /// Standard error so far.
    func errorsSoFar() -> [UInt8] { state.withLock { $0.errors.bytes } }

    /// Standard output once it is closed, or what there is after `timeout`.
    func output(waitingForEnd timeout: Duration) -> [UInt8] { waitForEnd(timeout, \.output) }

    /// Standard error once it is closed, or what there is after `timeout`.
    func errors(waitingForEnd timeout: Duration) -> [UInt8] { waitForEnd(timeout, \.errors) }

    private func waitForEnd(_ timeout: Duration, _ stream: KeyPath<State, Stream>) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (bytes, ended) = state.withLock { ($0[keyPath: stream].bytes, $0[keyPath: stream].ended) }
            if ended || ContinuousClock.now >= deadline { return bytes }
            usleep(1000)
        }
    }

    private static func read(_ output: Int32, _ errors: Int32, into state: Locked<State>) {
        var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        var chunk = [UInt8](repeating: 0, count: 65536)
        while fds.contains(where: { $0.fd >= 0 }), !state.withLock({ $0.stopped }) {
            // A descriptor of -1 is left out by poll; the timeout lets a stop be seen.
            guard poll(&fds, nfds_t(fds.count), 50) > 0 else { continue }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let got = chunk.withUnsafeMutableBytes { Glibc.read(fds[index].fd, $0.baseAddress, $0.count) }
                if got < 0, errno == EINTR || errno == EAGAIN { continue }
                let stream: WritableKeyPath<State, Stream> = index == 0 ? \.output : \.errors
                state.withLock { state in
                    if got > 0 { state[keyPath: stream].bytes += chunk[..<got] } else { state[keyPath: stream].ended = true }
                }
                if got <= 0 {
                    close(fds[index].fd)
                    fds[index].fd = -1
                }
            }
        }
        for entry in fds where entry.fd >= 0 { close(entry.fd) }
        state.withLock { state in
            state.output.ended = true
            state.errors.ended = true
        }
    }
}

/// Runs `body` with a started child process and kills it afterwards, whatever happens.
func withChild<T>(
    _ arguments: [String], environment: [String: String] = [:], _ body: (ChildProcess) async throws -> T
) async throws -> T {
    let child = try ChildProcess(arguments, environment: environment)
    defer { child.kill() }
    return try await body(child)
}

/// Runs `scenectl ARGUMENTS` to completion (bounded) and returns its exit code and output.
func scenectl(_ arguments: [String], environment: [String: String] = [:]) async throws -> (code: Int32, out: String, err: String) {
    let child = try ChildProcess(arguments, environment: environment)
    defer { child.kill() }
    let code = await child.wait()
    return (code ?? -1, child.standardOutput, child.standardError)
}

/// Closes `connection` once `timeout` has passed, unless cancelled first: a test that reads
/// the connection's events then ends, and fails, instead of waiting forever.
func deadline(_ timeout: Duration = .seconds(60), closing connection: SceneConnection) -> Task<Void, Never> {
    Task {
        guard (try? await Task.sleep(for: timeout)) != nil else { return }
        connection.close()
    }
}
