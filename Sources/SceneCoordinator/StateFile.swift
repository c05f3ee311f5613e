import Foundation
import Glibc
public import SceneCore
import SceneFlow
public import SceneJSON
public import SceneSocket

/// What a coordinator keeps in its state file: the registry's snapshot and the process
/// groups it spawned.
public struct CoordinatorState: Codable, Hashable, Sendable {
    /// Always `"scene-coordinator-state"`.
    public var format: String
    /// The file format's version; 1 is the only one read.
    public var version: Int
    /// The registry's snapshot when the file was written.
    public var snapshot: RegistrySnapshot<JSONValue>
    /// The scene processes running when the file was written.
    public var processes: [RecordedProcess]
    /// With `--durable`: the last journal event the snapshot includes.
    public var journal: JournalMark?
    /// With `--durable`: the id of the line of runs whose events are numbered on from one
    /// another (the `origin` a `subscribe` answers); kept across restarts.
    public var origin: String?
    /// The kernel's boot id when it was written: recorded processes are looked for only
    /// within the same boot.
    public var boot: String?
    /// The attach tokens still good when it was written (their hashes, never a secret).
    public var tokens: [AttachToken]?

    /// The value of ``format`` that marks a file as a coordinator's state.
    public static let formatName = "scene-coordinator-state"

    /// A version-1 state of this boot, from its contents.
    public init(
        snapshot: RegistrySnapshot<JSONValue>, processes: [RecordedProcess], journal: JournalMark? = nil, origin: String? = nil,
        tokens: [AttachToken]? = nil
    ) {
        self.format = Self.formatName
        self.version = 1
        self.snapshot = snapshot
        self.processes = processes
        self.journal = journal
        self.origin = origin
        self.boot = CoordinatorState.currentBoot
        self.tokens = tokens
    }

    /// This boot's id (`/proc/sys/kernel/random/boot_id`).
    public static var currentBoot: String? {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The journal that goes with the state file at `path`.
    public static func journalPath(for path: String) -> String { path + ".journal" }

    /// The registry as it was when the coordinator that wrote `state` (which may be nil:
    /// no file yet) and its journal stopped: the snapshot, with the journal's events that
    /// the snapshot does not include applied. Without a journal it is the snapshot.
    /// `reopenLimit`: the registry's, to which what can be reopened is trimmed as each dismissal
    /// is replayed, as the registry trims it.
    public static func recovered(
        _ state: CoordinatorState?, statePath: String, app: String, reopenLimit: Int = 20
    ) -> RegistrySnapshot<JSONValue>? {
        let events = Journal.unapplied(at: journalPath(for: statePath), after: state?.journal)
        let base = state?.snapshot
        guard !events.isEmpty else { return base }
        let empty = RegistrySnapshot<JSONValue>(
            app: app, instances: [], focusOrder: [], immersive: nil, pendingLink: nil, authenticated: false, counters: [:])
        return (base ?? empty).applying(events, reopenLimit: reopenLimit)
    }
}

/// Why a state file cannot be used.
public struct StateFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The state file's path.
    public let path: String
    /// What is wrong with it, one problem each.
    public let problems: [String]

    /// Creates the error from its members.
    public init(path: String, problems: [String]) {
        self.path = path
        self.problems = problems
    }

    public var description: String {
        "\(path) is not a usable state file:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// Reading and writing the state file: a temporary file, fsync, then rename, so the file
/// is always either the old state or the new one.
public enum StateFile {
    /// The state in `path`; nil when there is no file.
    ///
    /// - Throws: ``StateFileError`` with every problem when the file cannot be read, is
    ///   not JSON, or does not have the state's shape.
    public static func read(_ path: String) throws(StateFileError) -> CoordinatorState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StateFileError(path: path, problems: ["cannot read it: \(error.localizedDescription)"])
        }
        return try decode([UInt8](data), path: path)
    }

    /// The state a state file's bytes hold (`path` names the file in the error).
    ///
    /// - Throws: ``StateFileError`` with every problem when the bytes are not JSON, or do
    ///   not have the state's shape.
    public static func decode(_ bytes: [UInt8], path: String) throws(StateFileError) -> CoordinatorState {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw StateFileError(path: path, problems: ["not valid JSON: \(error)"])
        }
        guard json["format"] == .string(CoordinatorState.formatName) else {
            throw StateFileError(path: path, problems: ["format: expected \"\(CoordinatorState.formatName)\""])
        }
        guard json["version"] == .integer(1) else {
            throw StateFileError(path: path, problems: ["version: \(json["version"]?.description ?? "missing") is not supported (expected 1)"])
        }
        do {
            return try json.decoded(as: CoordinatorState.self)
        } catch let error as DecodingError {
            throw StateFileError(path: path, problems: [describe(error)])
        } catch {
            throw StateFileError(path: path, problems: ["\(error)"])
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key]).map(\.stringValue).joined(separator: ".") + ": missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    /// Writes `state` to `path` atomically and durably: a temporary file in the same
    /// folder, fsync, rename, fsync of the folder.
    public static func write(_ state: CoordinatorState, to path: String) throws(SocketError) {
        close(try DurableFile.replace(path, with: encode(state)))
    }

    /// The bytes of a state file holding `state`: what ``write(_:to:)`` writes.
    public static func encode(_ state: CoordinatorState) -> [UInt8] {
        Array((((try? JSONValue.encoded(state)) ?? .null).description + "\n").utf8)
    }

    /// Ends what is left of the process groups `state` recorded, when it was written in
    /// this boot: every process in such a group that started no earlier than the group's
    /// leader did (the leader itself has usually died with the coordinator; what it started
    /// may not have). Returns the groups it ended processes of.
    @discardableResult
    public static func endLeftovers(of state: CoordinatorState) -> [RecordedProcess] {
        guard let boot = state.boot, boot == CoordinatorState.currentBoot else { return [] }
        return endLeftovers(state.processes)
    }

    /// Ends what is left of `processes`' groups (see ``endLeftovers(of:)``).
    @discardableResult
    public static func endLeftovers(_ processes: [RecordedProcess]) -> [RecordedProcess] {
        let recorded = Dictionary(processes.filter { $0.pid > 1 }.map { ($0.pid, $0) }, uniquingKeysWith: { first, _ in first })
        guard !recorded.isEmpty else { return [] }
        var ended: [Int32: RecordedProcess] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(), let (group, started) = groupAndStart(of: pid),
                let process = recorded[group], let leaderStarted = process.started, started >= leaderStarted
            else { continue }
            kill(pid, SIGKILL)
            ended[group] = process
        }
        return ended.values.sorted { $0.pid < $1.pid }
    }

    /// The process group (field 5) and start time (field 22) of `/proc/<pid>/stat`.
    private static func groupAndStart(of pid: Int32) -> (Int32, UInt64)? {
        guard let fields = RecordedProcess.statFields(of: pid), let group = Int32(fields[2]), let started = UInt64(fields[19]) else {
            return nil
        }
        return (group, started)
    }
}

extension StateFile {
    /// Takes the lock that makes one coordinator the only user of the state file at
    /// `path` (`flock` on `path.lock`), for the rest of this process's life.
    ///
    /// - Throws: ``StateFileError`` when another process holds it.
    public static func claim(_ path: String) throws(StateFileError) {
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateFileError(path: path, problems: ["cannot open \(path).lock: \(SocketError("open").message)"]) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw StateFileError(path: path, problems: ["another coordinator is using this state file"])
        }
        // Deliberately kept open: the lock lasts as long as this process.
        removeLeftovers(of: path)
    }

    /// Removes the temporary files a coordinator killed in the middle of a write left
    /// beside the state file, its journal and its sessions (`NAME.tmp-PID-N`): whoever holds
    /// the lock is the only writer of these files.
    static func removeLeftovers(of path: String) {
        let manager = FileManager.default
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var removed = 0
        for entry in (try? manager.contentsOfDirectory(atPath: folder)) ?? []
        where entry.hasPrefix("\(name).tmp-") || entry.hasPrefix("\(name).journal.tmp-") {
            if (try? manager.removeItem(atPath: "\(folder)/\(entry)")) != nil { removed += 1 }
        }
        let sessions = "\(path).sessions"
        for entry in (try? manager.contentsOfDirectory(atPath: sessions)) ?? [] where entry.contains(".json.tmp-") {
            if (try? manager.removeItem(atPath: "\(sessions)/\(entry)")) != nil { removed += 1 }
        }
        if removed > 0 { Log.info("removed \(removed) temporary file\(removed == 1 ? "" : "s") a stopped write left beside \(path)") }
    }

    /// Replaces the state at `path` with `state`, marked as including every line of its
    /// journal: what the journal held is in `state` now (or was left out on purpose), and
    /// is never applied again. The lines stay in the journal, for subscribers that resume
    /// across the restart, until a compaction drops them.
    public static func fold(_ state: CoordinatorState, into path: String) throws(SocketError) {
        var folded = state
        folded.journal = Journal.lastMark(at: CoordinatorState.journalPath(for: path)) ?? state.journal
        try write(folded, to: path)
    }
}

/// Writes the state file (its coordinator's loop decides when: within 100 ms of a change,
/// changes coalesced), off the loop.
actor StateWriter {
    let path: String
    private let registry: any ServedRegistry
    private let running: @Sendable () async -> Running?
    /// The tokens last written, kept when the loop can no longer be asked.
    private var tokens: [AttachToken] = []
    let journal: Journal?
    private var finished = false
    /// The event number of the newest snapshot written: an older one never overwrites it.
    private var written: UInt64 = 0
    /// Failed writes in a row (0 once one succeeds), and whether a retry is scheduled.
    private var failures = 0
    private var retrying = false

    /// A state and the number of the last event its snapshot includes.
    /// What runs on the loop that the file records: the processes and the attach tokens.
    struct Running: Sendable {
        var processes: [RecordedProcess]
        var tokens: [AttachToken]
    }

    struct Taken: Sendable {
        var state: CoordinatorState
        let seq: UInt64
    }

    init(
        path: String, registry: any ServedRegistry, journal: Journal?, tokens: [AttachToken],
        running: @escaping @Sendable () async -> Running?
    ) {
        self.path = path
        self.registry = registry
        self.journal = journal
        self.tokens = tokens
        self.running = running
    }

    /// The state now: the snapshot with its journal mark, the processes (or `processes`)
    /// and the attach tokens.
    func current(processes given: [RecordedProcess]? = nil) async -> Taken {
        let (snapshot, seq) = await registry.snapshotWithSequence()
        let now = await running()
        if let now { tokens = now.tokens }
        let processes = given ?? now?.processes ?? []
        let state = CoordinatorState(
            snapshot: snapshot, processes: processes, journal: journal?.mark(seq), origin: journal?.origin,
            tokens: tokens.isEmpty ? nil : tokens)
        return Taken(state: state, seq: seq)
    }

    /// Writes the state as it is now, unless the last write is done.
    func writeNow() async {
        guard !finished else { return }
        let state = await current()
        guard !finished else { return }
        await store(state)
    }

    /// Writes `taken` and stops writing anything later. A failed write is tried again after
    /// a pause that doubles from 0.1 s to 1 s, for up to 10 s: the last state is the one a
    /// restart reads, unless the disk fails for all that time.
    func finish(with taken: Taken) async {
        finished = true
        let deadline = ContinuousClock.now + .seconds(10)
        var pause = Duration.milliseconds(100)
        while !(await store(taken)) {
            guard ContinuousClock.now + pause < deadline else {
                Log.error("the last state was not written to \(path); a restart reads the one written before it")
                return
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(1))
        }
    }

    /// Writes nothing more, and drops a retry scheduled: the coordinator stops.
    func stop() {
        finished = true
    }

    /// Writes `taken`; later changes still write.
    func write(_ taken: Taken) async {
        await store(taken)
    }

    /// Writes the file, then drops from the journal what the file now holds. A snapshot
    /// older than one already written is not written (two writes can overtake each other).
    /// A write that fails (a full or failing disk) is logged, and the state as it is then
    /// is written again after a pause that doubles with each failure in a row (0.25 s to
    /// 8 s), until one succeeds: the file catches up once the disk recovers, whether or not
    /// anything changes meanwhile. The file is never left half-written: each write is a new
    /// file renamed over the old one.
    /// Whether `taken` is on disk (or an as new one is) once it returns.
    @discardableResult
    private func store(_ taken: Taken) async -> Bool {
        guard taken.seq >= written else { return true }
        let state = taken.state
        do {
            try StateFile.write(state, to: path)
        } catch {
            failures += 1
            Log.error("cannot write the state file \(path) (\(failures == 1 ? "" : "\(failures) times in a row; ")the last one written stays): \(error)")
            retry()
            return false
        }
        written = taken.seq
        if failures > 0 {
            Log.warn("the state file \(path) is written again, after \(failures) failed write\(failures == 1 ? "" : "s")")
            failures = 0
        }
        if let journal, let mark = state.journal, mark.run == journal.run { await journal.compact(through: mark.seq) }
        return true
    }

    /// Writes the state again after a pause, unless a retry is scheduled already or the
    /// last write is done (shutdown writes on its own).
    private func retry() {
        guard !retrying, !finished else { return }
        retrying = true
        let pause = Duration.milliseconds(250 << min(failures - 1, 5))
        Task {
            try? await Task.sleep(for: pause)
            await self.retried()
        }
    }

    private func retried() async {
        retrying = false
        guard !finished else { return }
        await writeNow()
    }
}
