import Foundation
import Glibc
import SceneSocket
import Synchronization

/// Why a system tool a test helper needs could not be installed, started or run.
public struct ToolFailure: Error, CustomStringConvertible {
    /// What went wrong, with the tool's own words when it printed any.
    public let description: String

    /// A failure described by `description`.
    public init(description: String) {
        self.description = description
    }
}

/// A process of its own, started without Foundation (whose waits block a thread on a run
/// loop): output and errors to a log file (or `output` and `errors`), reaped when it is
/// killed or waited for.
final class Child: Sendable {
    let pid: Int32
    /// Its exit status once reaped (128 + the signal for a signal).
    private let status = Mutex<Int32?>(nil)

    convenience init(_ executable: String, _ arguments: [String], log: String, environment: [String: String] = [:]) throws(ToolFailure) {
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ToolFailure(description: "cannot open \(log)") }
        defer { close(fd) }
        try self.init(executable, arguments, output: fd, errors: fd, environment: environment)
    }

    /// Starts `executable` with this process's environment, `DEBIAN_FRONTEND=noninteractive`
    /// and `environment` added.
    init(_ executable: String, _ arguments: [String], output: Int32, errors: Int32, environment: [String: String] = [:]) throws(ToolFailure) {
        var merged = ProcessInfo.processInfo.environment
        merged["DEBIAN_FRONTEND"] = "noninteractive"
        merged.merge(environment) { $1 }
        do {
            pid = try Processes.spawn(executable, arguments: arguments, environment: merged, output: output, errors: errors)
        } catch {
            throw ToolFailure(description: "cannot start \(executable): \(error)")
        }
    }

    deinit { kill() }

    /// Whether it still runs (reaps it once it ended).
    var isRunning: Bool { reap() == nil }

    /// Waits for it to end, blocking this thread (not holding the lock, so a ``kill()`` from
    /// elsewhere still gets through); its exit status.
    func wait() -> Int32 {
        if let status = reap() { return status }
        var raw: Int32 = 0
        var reaped: Int32
        repeat { reaped = waitpid(pid, &raw, 0) } while reaped < 0 && errno == EINTR
        return status.withLock { status in
            if status == nil, reaped == pid { status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f) }
            return status ?? -1
        }
    }

    /// Waits for it to end without blocking a thread (it is polled); its exit status.
    func finished(poll: Duration = .milliseconds(20)) async -> Int32 {
        while true {
            if let status = reap() { return status }
            try? await Task.sleep(for: poll)
        }
    }

    /// SIGKILL, then reaped.
    func kill() {
        guard isRunning else { return }
        Glibc.kill(pid, SIGKILL)
        _ = wait()
    }

    /// Its status once it has ended (reaped now if it just did); nil while it runs.
    private func reap() -> Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var reaped: Int32
            repeat { reaped = waitpid(pid, &raw, WNOHANG) } while reaped < 0 && errno == EINTR
            guard reaped == pid else { return nil }
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            return status
        }
    }
}

/// Installs OS packages that a test helper needs (with `apt-get`, through `sudo` when not
/// root), one install at a time in this process, so helpers that start together do not
/// race for the package manager's lock; another process's install is waited for.
enum SystemPackages {
    private static let queue = InstallQueue()

    /// Installs `packages` unless `present` says what they provide is there already (asked
    /// again once the installs before this one are done).
    static func ensure(_ packages: [String], present: @escaping @Sendable () async -> Bool) async throws(ToolFailure) {
        guard !(await present()) else { return }
        do {
            try await queue.run {
                guard !(await present()) else { return }
                try await install(packages)
                guard await present() else {
                    throw ToolFailure(description: "\(packages.joined(separator: ", ")) installed, but what they provide is still missing")
                }
            }
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure(description: "installing \(packages.joined(separator: ", ")): \(error)")
        }
    }

    private static func install(_ packages: [String]) async throws(ToolFailure) {
        // The package lists may be empty on a fresh machine: then they are fetched first.
        let install = ["install", "-y", "-q"] + packages
        if (try? await aptGet(install)) == nil {
            try await aptGet(["update", "-q"])
            try await aptGet(install)
        }
    }

    private static func aptGet(_ arguments: [String]) async throws(ToolFailure) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("scene-testing-apt-\(getpid()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        // Another process's apt-get holds the lock for a while: wait for it rather than fail.
        let command = ["/usr/bin/apt-get", "-o", "DPkg::Lock::Timeout=600"] + arguments
        // Not root: sudo, which must not ask for a password (-n): a test cannot type one.
        let (executable, rest) = getuid() == 0 ? (command[0], Array(command.dropFirst())) : ("/usr/bin/sudo", ["-n"] + command)
        let child = try Child(executable, rest, log: log)
        let status = await child.finished(poll: .milliseconds(100))
        guard status == 0 else {
            let output = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(2000)
            throw ToolFailure(description: "apt-get \(arguments.joined(separator: " ")): exit \(status): \(output)")
        }
    }
}

/// Runs one body at a time, in the order they came.
private actor InstallQueue {
    private var last: Task<Void, any Error>?

    func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let previous = last
        let task = Task {
            _ = await previous?.result
            try await body()
        }
        last = task
        try await task.value
    }
}
