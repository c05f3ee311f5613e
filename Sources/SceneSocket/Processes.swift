import CSceneSystem
import Glibc

/// Blocking process tools for short-lived helpers (benchmarks, tests, tools) and for
/// reading what the kernel says about a process. The coordinator's own scene processes go
/// through ``SpawnedProcess`` instead.
public enum Processes {
    /// A pipe whose two ends are close-on-exec.
    public static func pipe() throws(SocketError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard scene_pipe(&ends) == 0 else { throw SocketError("pipe2") }
        return (ends[0], ends[1])
    }

    /// Starts `path` with `arguments` and exactly `environment` as an ordinary child: same
    /// process group, no parent-death signal, no signal blocked, every disposition at its
    /// default, standard output and error on `output` and `errors` (inherited when -1),
    /// and no other descriptor of this process beyond 0, 1 and 2. Returns its pid.
    public static func spawn(
        _ path: String, arguments: [String], environment: [String: String], output: Int32 = -1, errors: Int32 = -1
    ) throws(SocketError) -> Int32 {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let pid = scene_spawn_plain(path, argv, envp, output, errors)
        guard pid > 0 else { throw SocketError("posix_spawn(\(path))") }
        return pid
    }

    /// Lets a debugger this process starts attach to it (for a thread dump), where the
    /// kernel restricts tracing to a process's own descendants; harmless where it does not.
    package static func allowTracing() {
        _ = scene_allow_tracing()
    }

    /// Writes every byte of `bytes` to `fd`, retrying after signals; `false` (with `errno`
    /// set) when a write fails.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Everything readable from `fd` until its end, blocking (the descriptor is made
    /// blocking first).
    public static func readToEnd(_ fd: Int32) -> [UInt8] {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got > 0 {
                data += chunk[..<got]
            } else if got < 0, errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }

    /// The fields of `/proc/<pid>/stat` from field 3 on (index 0 is field 3); nil when the
    /// process does not exist.
    public static func statFields(of pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // The command name (field 2) may hold spaces and parentheses: it ends at the last ")".
        return text[text.index(after: close)...].split(separator: " ")
    }
}
