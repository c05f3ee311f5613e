import CSceneSystem
import Glibc

/// What to start: a command, its environment and working directory.
public struct SpawnRequest: Hashable, Sendable {
    /// The executable (searched in `PATH` when it has no slash) and its arguments.
    public var command: [String]
    /// The whole environment of the new process.
    public var environment: [String: String]
    /// The working directory; the spawner's own when nil.
    public var workingDirectory: String?

    /// Creates a request from its members.
    public init(command: [String], environment: [String: String], workingDirectory: String? = nil) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
    }
}

/// How a process ended: its exit code, or the signal that ended it.
public enum ProcessEnd: Hashable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// This signal ended it.
    case signalled(Int32)

    /// Exit code 0.
    public var isSuccess: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): return "exited with status \(code)"
        case .signalled(let signal): return "killed by signal \(signal)"
        }
    }
}

/// A child process started on an event loop and watched there through a pidfd.
///
/// - Started by ``spawn(_:loop:onExit:)`` on the loop thread, whose life it is tied to:
///   the child gets SIGKILL if that thread ends (`PR_SET_PDEATHSIG`), and the loop
///   kills and reaps it when it stops.
/// - It leads its own process group; every descriptor of the spawner above 2 is closed
///   at exec.
/// - `onExit` runs on the loop thread once the child has ended and been reaped.
public final class SpawnedProcess: LoopHandler {
    /// The child's pid, which is also its process group id.
    public let pid: Int32
    /// How it ended, once it has.
    public private(set) var end: ProcessEnd?
    let loop: EventLoop
    private var pidfd: Int32
    private var token: UInt64 = 0
    private var onExit: ((ProcessEnd) -> Void)?

    private init(pid: Int32, pidfd: Int32, loop: EventLoop, onExit: @escaping (ProcessEnd) -> Void) {
        self.pid = pid
        self.pidfd = pidfd
        self.loop = loop
        self.onExit = onExit
    }

    /// Starts `request` (on the loop thread).
    ///
    /// - Throws: ``SocketError`` naming the call that failed (`exec` when the command
    ///   cannot be run, with its errno: `ENOENT`, `EACCES`, …).
    public static func spawn(_ request: SpawnRequest, loop: EventLoop, onExit: @escaping (ProcessEnd) -> Void)
        throws(SocketError) -> SpawnedProcess
    {
        precondition(loop.inEventLoop, "processes are spawned on their loop's thread")
        guard let name = request.command.first, !name.isEmpty else { throw SocketError("exec", code: ENOENT) }
        // Searched in the new environment's PATH, not the spawner's.
        guard let file = executable(name, path: request.environment["PATH"]) else { throw SocketError("exec \(name)", code: ENOENT) }
        let arguments = request.command.map { strdup($0) } + [nil]
        let environment = request.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            environment.forEach { free($0) }
        }
        let pid = arguments.withUnsafeBufferPointer { argv in
            environment.withUnsafeBufferPointer { envp in
                scene_spawn(file, argv.baseAddress, envp.baseAddress, request.workingDirectory)
            }
        }
        guard pid > 0 else { throw SocketError("exec") }
        let pidfd = scene_pidfd_open(pid)
        guard pidfd >= 0 else {
            let error = SocketError("pidfd_open")
            Glibc.kill(-pid, SIGKILL)
            var code: Int32 = 0
            var signal: Int32 = 0
            _ = scene_reap(pid, 1, &code, &signal)
            throw error
        }
        let process = SpawnedProcess(pid: pid, pidfd: pidfd, loop: loop, onExit: onExit)
        do {
            process.token = try loop.register(pidfd, events: UInt32(SCENE_EPOLLIN), handler: process)
        } catch {
            // The caller hears of this failure from the throw, not from onExit too.
            process.onExit = nil
            process.killGroup(SIGKILL)
            process.reap(blocking: true)
            throw error
        }
        return process
    }

    /// `name` when it has a slash, else the first executable file of that name in `path`.
    package static func executable(_ name: String, path: String?) -> String? {
        if name.contains("/") { return name }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = "\(folder.isEmpty ? "." : String(folder))/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Sends `signal` to the child's whole process group, while it has not been reaped.
    public func killGroup(_ signal: Int32) {
        guard end == nil else { return }
        Glibc.kill(-pid, signal)
    }

    func handle(events: UInt32) {
        reap(blocking: false)
    }

    func loopDidStop() {
        // The loop's thread is ending, and the kernel would kill the child with it anyway.
        killGroup(SIGKILL)
        reap(blocking: true)
    }

    private func reap(blocking: Bool) {
        guard end == nil else { return }
        var code: Int32 = 0
        var signal: Int32 = 0
        let ended: ProcessEnd
        switch scene_reap(pid, blocking ? 1 : 0, &code, &signal) {
        case 1:
            ended = signal != 0 ? .signalled(signal) : .exited(code)
        case 0:
            return
        default:
            // Reaped by someone else (ECHILD): it has ended, how is unknown. The pidfd
            // stays readable, so it must be let go of here or the loop would spin.
            ended = .exited(-1)
        }
        end = ended
        if token != 0 { loop.deregister(pidfd, token: token) }
        Glibc.close(pidfd)
        pidfd = -1
        let callback = onExit
        onExit = nil
        callback?(ended)
    }
}
