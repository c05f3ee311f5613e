import Foundation
import Glibc
import SceneSocket
import SceneSync

/// What every thread of this process is doing: the witness a test records when a wait runs
/// out, so that a hang explains itself.
///
/// A wait that runs out has one of two causes, and a dump tells them apart at a glance:
/// every thread of Swift's cooperative pool busy or blocked (the pool is starved, and the
/// dump names what holds it), or the pool idle while the awaited work never ran (a
/// resumption was lost, and nothing will wake the waiter).
///
/// - With `gdb` on the `PATH`, a backtrace of every thread (`thread apply all bt`), taken
///   by attaching to this process in batch mode; Swift names are demangled when
///   `swift-demangle` is on the `PATH` too.
/// - Otherwise, or when `gdb` cannot attach, each thread's name, scheduler state and the
///   kernel function it sleeps in, from `/proc/self/task`.
/// - `SCENE_THREAD_DUMPS=0` in the environment turns dumps off
///   (``record(because:reuse:)`` then only says so).
public enum ThreadDump {
    /// Takes a dump now and returns it as text.
    ///
    /// - The caller's thread is never blocked: the helper process is awaited by polling.
    /// - `gdb` is given `timeout`; one that takes longer is killed and the `/proc` summary
    ///   is given instead.
    /// - While `gdb` is attached, every thread of the process is stopped (for a few
    ///   seconds in a large process): the tests running beside the one whose wait ran out
    ///   lose that much real time.
    /// - One dump is taken at a time in a process (a process has one tracer at a time):
    ///   a capture asked for while another runs is taken after it.
    public static func capture(timeout: Duration = .seconds(60)) async -> String {
        await capture(of: getpid(), timeout: timeout)
    }

    /// ``capture(timeout:)`` of process `pid`: this one, or one of its children (the
    /// kernel may keep a debugger from attaching to others: then their `/proc` view).
    package static func capture(of pid: Int32, timeout: Duration = .seconds(60)) async -> String {
        let mine = latestCapture.withLock { latest -> Task<String, Never> in
            let previous = latest
            let capture = Task {
                _ = await previous?.value
                if let backtraces = await backtraces(of: pid, timeout: timeout) { return backtraces }
                return "(no gdb on the PATH, or it could not attach: the kernel's view of each thread)\n" + kernelView(of: pid)
            }
            latest = capture
            return capture
        }
        return await mine.value
    }

    /// The capture asked for last: the next one starts once it is done.
    private static let latestCapture = Locked<Task<String, Never>?>(nil)

    /// Takes a dump (or reuses one taken in the last `reuse`), writes it to a file in the
    /// temporary folder, says on standard error where it is, with a one-line summary of
    /// each thread, and returns the file's path.
    ///
    /// - One dump is taken at a time: waits that run out together (they often do, when
    ///   the same cause held them all) share it.
    /// - Meant for a test's own wait that has run out: a test then reports the path with
    ///   its failure.
    @discardableResult
    public static func record(because reason: String, reuse: Duration = .seconds(30)) async -> String {
        guard ProcessInfo.processInfo.environment["SCENE_THREAD_DUMPS"] != "0" else {
            return "(thread dumps are off: SCENE_THREAD_DUMPS=0)"
        }
        return await Recorder.shared.record(because: reason, reuse: reuse)
    }

    /// The shortest wait whose running out is worth a dump: a shorter one is a test's
    /// deliberate check that nothing comes, not a guard against a hang.
    public static let worthwhileAfter: Duration = .seconds(5)

    /// ``record(because:reuse:)`` when a wait of `waited` has run out and is at least
    /// ``worthwhileAfter``, as a clause to add to the failure ("; every thread's
    /// backtrace: PATH"); an empty string otherwise.
    package static func clause(afterWaiting waited: Duration, for reason: String) async -> String {
        guard waited >= worthwhileAfter else { return "" }
        return "; every thread's backtrace: " + (await record(because: reason))
    }

    // MARK: Taking one

    /// Takes dumps for waits that ran out, shares one among waits that run out together,
    /// and writes each to a file of its own.
    package final class Recorder: Sendable {
        static let shared = Recorder(folder: ThreadDump.folder) { await ThreadDump.capture() }

        private struct State {
            var latest: (taken: ContinuousClock.Instant, dump: Task<String, Never>)?
            var count = 0
        }

        private let state = Locked(State())
        private let folder: String
        private let take: @Sendable () async -> String

        /// A recorder that writes what `take` gives into files in `folder`.
        package init(folder: String, take: @escaping @Sendable () async -> String) {
            self.folder = folder
            self.take = take
        }

        /// ``ThreadDump/record(because:reuse:)``.
        package func record(because reason: String, reuse: Duration) async -> String {
            let (taking, isNew) = dump(reuse: reuse)
            let path = await taking.value
            let line = "thread dump for \"\(reason)\": \(path)" + (isNew ? "" : " (taken moments before, for another wait)")
            FileHandle.standardError.write(Data((line + "\n").utf8))
            return path
        }

        /// The dump to wait for, and whether it is a new one.
        private func dump(reuse: Duration) -> (Task<String, Never>, Bool) {
            state.withLock { state in
                if let latest = state.latest, ContinuousClock.now - latest.taken < reuse { return (latest.dump, false) }
                state.count += 1
                let number = state.count
                let dump = Task { await self.write(number: number) }
                state.latest = (ContinuousClock.now, dump)
                return (dump, true)
            }
        }

        private func write(number: Int) async -> String {
            let text = await take()
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = "\(folder)/\(getpid())-\(number).txt"
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            } catch {
                return "(the dump could not be written to \(file): \(error))"
            }
            FileHandle.standardError.write(Data(ThreadDump.summary(of: text).utf8))
            return file
        }
    }

    // MARK: Backtraces from gdb

    /// A folder of this process's own for its recorded dumps (made with `mkdtemp`, mode
    /// 0700, on the first one): no other user can put a file, or a link, in the way.
    private static let folder: String = {
        var template = Array("\(FileManager.default.temporaryDirectory.path)/scene-thread-dumps.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return FileManager.default.temporaryDirectory.path }
        return String(cString: made)
    }()

    /// Every thread's backtrace, or nil when gdb is missing or gives none.
    private static func backtraces(of pid: Int32, timeout: Duration) async -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"]
        guard let gdb = SpawnedProcess.executable("gdb", path: path) else { return nil }
        // Where tracing is kept to a process's descendants, this process allows its own.
        if pid == getpid() { Processes.allowTracing() }
        // Named at random and made only if new (`run`): no other user can guess the name
        // or put a link in its place.
        let scratch = FileManager.default.temporaryDirectory.path
        let raw = "\(scratch)/scene-gdb-\(pid)-\(UInt64.random(in: 0...UInt64.max)).txt"
        defer { unlink(raw) }
        let arguments = [
            "-p", "\(pid)", "-batch", "-nx", "-q", "-iex", "set complaints 0", "-ex", "set print frame-arguments none",
            "-ex", "set print thread-events off", "-ex", "thread apply all bt",
        ]
        guard await run(gdb, arguments, output: raw, quiet: true, tracing: pid, timeout: timeout),
            let whole = try? String(contentsOfFile: raw, encoding: .utf8), let first = whole.range(of: "\nThread ")
        else { return nil }
        // What gdb says before the first thread is about itself (threads and symbols it found).
        let text = "Thread " + whole[first.upperBound...]
        guard let demangler = SpawnedProcess.executable("swift-demangle", path: path),
            (try? Data(text.utf8).write(to: URL(fileURLWithPath: raw))) != nil
        else { return text }
        let demangled = "\(scratch)/scene-gdb-\(pid)-\(UInt64.random(in: 0...UInt64.max)).demangled.txt"
        defer { unlink(demangled) }
        guard await run(demangler, ["--simplified"], input: raw, output: demangled, timeout: timeout),
            let readable = try? String(contentsOfFile: demangled, encoding: .utf8), !readable.isEmpty
        else { return text }
        return readable
    }

    /// Runs `executable` with `arguments`, standard input from `input` (else none),
    /// standard output into `output` and standard error there too, or away when `quiet`;
    /// true when it exited 0 within `timeout`.
    ///
    /// - The time limit is kept by a shell outside this process (`timeout -s KILL`): a
    ///   debugger attached to this process stops every thread of it, a waiting task's
    ///   too. After it, a traced process (`tracing`) is sent SIGCONT, in case a debugger
    ///   killed while attached left it stopped.
    private static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, output: String, quiet: Bool = false,
        tracing traced: Int32? = nil, timeout: Duration
    ) async -> Bool {
        let out = open(output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard out >= 0 else { return false }
        defer { close(out) }
        let errors = quiet ? open("/dev/null", O_WRONLY | O_CLOEXEC) : out
        defer { if quiet, errors >= 0 { close(errors) } }
        var environment = ProcessInfo.processInfo.environment
        environment["SCENE_DUMP_INPUT"] = input ?? "/dev/null"
        environment["SCENE_DUMP_SECONDS"] = "\(max(1, timeout.components.seconds))"
        environment["SCENE_DUMP_TRACEE"] = traced.map { "\($0)" } ?? ""
        let script = #"""
            timeout -s KILL "$SCENE_DUMP_SECONDS" "$@" < "$SCENE_DUMP_INPUT"
            status=$?
            if [ -n "$SCENE_DUMP_TRACEE" ]; then kill -CONT "$SCENE_DUMP_TRACEE" 2>/dev/null; fi
            exit $status
            """#
        let pid: Int32
        do {
            pid = try Processes.spawn(
                "/bin/sh", arguments: ["-c", script, "sh", executable] + arguments, environment: environment, output: out,
                errors: errors)
        } catch {
            return false
        }
        // A second guard, for a shell that does not end when its helper does.
        let deadline = ContinuousClock.now + timeout + .seconds(10)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 {
                if errno == EINTR { continue }
                return false
            }
            if ContinuousClock.now >= deadline || Task.isCancelled {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                return false
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return status & 0x7f == 0 && (status >> 8) & 0xff == 0
    }

    // MARK: The kernel's view

    /// Each thread's id, name, state and wait channel, from `/proc/PID/task`.
    private static func kernelView(of pid: Int32) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var lines: [String] = []
        for task in tasks.sorted(by: { (Int($0) ?? 0) < (Int($1) ?? 0) }) {
            let folder = "/proc/\(pid)/task/\(task)"
            func read(_ name: String) -> String {
                ((try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let state = Processes.statFields(of: Int32(task) ?? 0).flatMap { $0.first.map(String.init) } ?? "?"
            lines.append("thread \(task) \"\(read("comm"))\" state \(state) waiting in \(read("wchan"))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per thread: its name, the function it is in, and the first three frames
    /// below that are not the system's own machinery (names that begin with `_`, the
    /// futex and thread plumbing).
    static func summary(of dump: String) -> String {
        var lines: [String] = []
        for block in ("\n" + dump).components(separatedBy: "\nThread ").dropFirst() {
            let rows = block.split(separator: "\n")
            guard let head = rows.first else { continue }
            let name = head.split(separator: "\"").dropFirst().first.map(String.init) ?? "?"
            let frames = rows.dropFirst().compactMap(function(inFrame:))
            guard let top = frames.first else { continue }
            let telling = frames.dropFirst().filter { !$0.hasPrefix("_") && !plumbing.contains($0) }.prefix(3)
            lines.append("  \(name): \(top)" + (telling.isEmpty ? "" : " … " + telling.joined(separator: " < ")))
        }
        if lines.isEmpty { return dump }
        return "\(lines.count) threads:\n" + lines.joined(separator: "\n") + "\n"
    }

    /// Frames of the C library's and the kernel's waiting and threading machinery.
    private static let plumbing: Set<String> = [
        "do_futex_wait", "syscall", "clone3", "clone", "start_thread", "epoll_wait", "do_system", "nanosleep",
    ]

    /// The function a gdb frame line names (`#3  0x… in FUNCTION (ARGS) at FILE:LINE`),
    /// or nil for a line that is not a frame.
    static func function(inFrame row: Substring) -> String? {
        guard row.hasPrefix("#"), let space = row.firstIndex(of: " ") else { return nil }
        var text = row[space...].drop { $0 == " " }
        if text.hasPrefix("0x"), let range = text.range(of: " in ") { text = text[range.upperBound...] }
        for marker in [" at ", " from "] {
            if let range = text.range(of: marker, options: .backwards) { text = text[..<range.lowerBound] }
        }
        // The argument list is the last parenthesised group.
        if text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) { text = text[..<open.lowerBound] }
        return String(text)
    }
}
