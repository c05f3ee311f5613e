import Dispatch
import Foundation
import Glibc
import SceneCore
import SceneFlow
package import SceneJSON
import SceneSocket
import SceneWire
import SceneSync

/// Where a state file's snapshot stands in the journal: the run that wrote it and the last
/// event of that run it includes.
public struct JournalMark: Codable, Hashable, Sendable {
    /// The id of the coordinator run that wrote the snapshot.
    public var run: String
    /// The number of the last event of that run the snapshot includes.
    public var seq: UInt64

    /// Creates a mark from its members.
    public init(run: String, seq: UInt64) {
        self.run = run
        self.seq = seq
    }
}

/// One line of a journal file: `{"run", "seq", "event"}`, then a newline.
package struct JournalLine: Hashable, Sendable {
    /// The id of the coordinator run that wrote it.
    package let run: String
    /// Its event's number.
    package let seq: UInt64
    /// The event, as the wire carries it.
    package let event: JSONValue
    /// The line as written, its newline included.
    package let bytes: [UInt8]

    /// The line of `event`, numbered `seq`, written by run `run`: what the journal appends.
    package static func write(run: String, seq: UInt64, event: JSONValue) -> [UInt8] {
        write(run: run, seq: seq, writing: event)
    }

    /// The line of the event `event` writes, numbered `seq`, written by run `run`.
    static func write(run: String, seq: UInt64, writing event: some WireWritable) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        JSONValue.append(#"{"run":"#, to: &bytes)
        JSONValue.writeQuoted(run, to: &bytes)
        JSONValue.append(#","seq":"#, to: &bytes)
        if let seq = Int(exactly: seq) { JSONValue.writeInteger(seq, to: &bytes) } else { bytes += "\(seq)".utf8 }
        JSONValue.append(#","event":"#, to: &bytes)
        event.write(to: &bytes)
        bytes += "}\n".utf8
        return bytes
    }

    /// The lines of a journal's bytes, in order. A line that is not a record — not JSON,
    /// or without a run, a number or an event (a last line cut short by a crash) — is
    /// skipped, and so are empty lines (the journal's reserve: see ``Journal``).
    package static func read(_ data: [UInt8]) -> [JournalLine] {
        var lines = scan(data).lines
        // A last line without its newline is read too, when it is a record.
        if let start = data.lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 }) ?? (data.isEmpty ? nil : 0),
            start < data.count, let line = record(data[start...])
        {
            lines.append(line)
        }
        return lines
    }

    /// The records of a journal's bytes that end with their newline, in order, and where
    /// the last of them ends: the offset just past its newline, 0 when there is none. What
    /// follows it is the journal's reserve, or what a crash cut short, or both.
    package static func scan(_ data: [UInt8]) -> (lines: [JournalLine], end: Int) {
        var lines: [JournalLine] = []
        var end = 0
        var start = 0
        while start < data.count, let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline > start, let line = record(data[start..<newline]) {
                lines.append(line)
                end = newline + 1
            }
            start = newline + 1
        }
        return (lines, end)
    }

    /// The record `line` (its newline not included) holds, if it is one.
    private static func record(_ line: ArraySlice<UInt8>) -> JournalLine? {
        guard let record = try? JSONParser.parse([UInt8](line)), let run = record["run"]?.stringValue,
            let seq = record["seq"]?.intValue.flatMap(UInt64.init(exactly:)), let event = record["event"]
        else { return nil }
        return JournalLine(run: run, seq: seq, event: event, bytes: [UInt8](line) + [UInt8(ascii: "\n")])
    }
}

/// The write-ahead journal of a durable coordinator (`--durable`): every registry event,
/// one JSON line each (`{"run", "seq", "event"}`, the event as the wire carries it),
/// appended as it is emitted. Event numbers go on from one run to the next, so a line's
/// number names its event across restarts. ``GroupCommit`` makes the lines durable
/// (`fdatasync`) on a writer thread before the answers to the requests that caused them are
/// sent (and before subscribers are sent the events). A state-file write compacts it: what
/// the snapshot includes is dropped, except the last `keep` events, which stay for
/// subscribers that resume after a restart (`since`).
///
/// The file ends in a reserve: empty lines (newline bytes) written ahead of the records, so
/// that a group of lines overwrites bytes the file already has, and `fdatasync` then writes
/// the data alone. Appending instead changes the file's size and its block map with every
/// group, and each sync writes those to the file system's own journal too (on this project's
/// machines an overwrite and its sync took ~135 µs, an append and its sync ~220–300 µs). A
/// reader skips empty lines, so the file stays a file of JSON lines; the next start cuts it
/// back to its last record, and the reserve grows again with the first write.
final class Journal: Sendable {
    let path: String
    /// This coordinator run's id.
    let run: String
    /// The number of the last event the file held when it was opened (0 when none): on
    /// disk already.
    let openedThrough: UInt64
    /// The number this run's events are numbered after: the last the file held, or the
    /// state's mark when that is further (the numbers between are skipped).
    let numberedAfter: UInt64

    private struct State {
        var fd: Int32
        /// Where the next line goes: just past the last line written.
        var end: Int
        /// The file's length: its lines, then the reserve up to here.
        var size: Int
        /// Lines of the loop turn under way, not handed to the writer yet.
        var turn: [UInt8] = []
        /// Lines of finished turns, handed to the writer, and the last event among them.
        var sealed: [UInt8] = []
        var sealedThrough: UInt64 = 0
        /// Whether the writer is writing (or about to): it takes what is sealed until
        /// nothing is, so one that is writing needs no second start.
        var writing = false
        /// Told the number of the last event on disk after each write (on the writer).
        var synced: (@Sendable (UInt64) -> Void)?
        /// Every line since the last compaction, with its event number.
        var lines: [(seq: UInt64, bytes: [UInt8])] = []
        /// Compactions queued on the writer: the write loop lets them run between two writes.
        var compactionsWaiting = 0
        var last: UInt64 = 0
    }

    private let state: Locked<State>
    /// Writes, syncs and compactions, one at a time, in order.
    let writer = DispatchQueue(label: "scene-coordinator.journal")

    /// How many of the events a snapshot includes a compaction keeps: the coordinator's
    /// history limit.
    let keep: Int
    /// The id of the line of runs that number their events on from one another.
    let origin: String

    init(path: String, keep: Int = 0, origin: String = SceneToken.make().text, marked: UInt64 = 0) throws(SocketError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SocketError("open \(path)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            let error = SocketError("read \(path)")
            close(fd)
            throw error
        }
        let contents = [UInt8](data)
        // The lines already there (since the last compaction) stay until the next one. The
        // file is cut after the last of them: the reserve goes, and so does a line cut short
        // by a crash, so the next line starts a line of its own.
        let (records, end) = JournalLine.scan(contents)
        guard end == contents.count || ftruncate(fd, off_t(end)) == 0, lseek(fd, off_t(end), SEEK_SET) == off_t(end) else {
            let error = SocketError("cut \(path) after its last line")
            close(fd)
            throw error
        }
        self.path = path
        self.keep = max(0, keep)
        self.origin = origin
        self.run = SceneToken.make().text
        var state = State(fd: fd, end: end, size: end)
        for line in records {
            state.lines.append((line.seq, line.bytes))
            state.last = max(state.last, line.seq)
        }
        self.openedThrough = state.last
        self.numberedAfter = max(state.last, marked)
        self.state = Locked(state)
    }

    /// The lines of the journal at `path`, in file order; a line that is not a record (a
    /// last line cut short by a crash) is skipped.
    static func records(at path: String) -> [JournalLine] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return JournalLine.read([UInt8](data))
    }

    /// The number of the oldest event recorded since the last compaction.
    var oldestRecorded: UInt64? { state.withLock { $0.lines.first?.seq } }

    /// The events recorded since the last compaction (from earlier runs too) numbered
    /// after `seq` and before `end`, as the wire carries them, in order.
    func events(after seq: UInt64, before end: UInt64 = .max) -> [JSONValue] {
        let lines = state.withLock { state in state.lines.filter { $0.seq > seq && $0.seq < end } }
        return lines.compactMap { line in (try? JSONParser.parse(Array(line.bytes.dropLast())))?["event"] }
    }

    deinit {
        _ = state.withLock { close($0.fd) }
    }

    /// Appends `event` (called as the registry emits it, in order).
    func record(_ event: SequencedEvent<JSONValue>) {
        let bytes = JournalLine.write(run: run, seq: event.seq, writing: EventParams(event))
        state.withLock { state in
            state.turn += bytes
            state.lines.append((event.seq, bytes))
            state.last = event.seq
        }
    }

    /// The number of the last event recorded, by this run or, before its first, by the
    /// runs whose lines the file still holds.
    var lastRecorded: UInt64 { state.withLock { $0.last } }

    /// Who hears, on the writer thread, the number of the last event on disk after each
    /// write.
    func whenSynced(_ body: @escaping @Sendable (UInt64) -> Void) {
        state.withLock { $0.synced = body }
    }

    /// Hands the lines of the turn that ends to the writer, to go to disk together with
    /// the other turns sealed before the writer takes them. Answers whether the writer
    /// must be started (``writeSealed()``): it is not writing.
    func seal() -> Bool {
        state.withLock { state in
            guard !state.turn.isEmpty else { return false }
            state.sealed += state.turn
            state.turn.removeAll(keepingCapacity: true)
            state.sealedThrough = state.last
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
    }

    /// Writes and syncs (`fdatasync`) what is sealed, then what was sealed meanwhile, until
    /// nothing is left; after each sync, tells ``whenSynced(_:)``'s listener. Blocks: call
    /// on ``writer``. Under load the writer never waits to be started again: one sync
    /// follows another, each taking every turn that ended during the one before.
    ///
    /// A journal that cannot be written stops the coordinator: the change is applied in
    /// memory but cannot be made durable, and acknowledging it would break the promise of
    /// `--durable` (exit status 74, EX_IOERR).
    func writeSealed() {
        while true {
            let taken = state.withLock { state -> (fd: Int32, end: Int, size: Int, bytes: [UInt8], through: UInt64, synced: (@Sendable (UInt64) -> Void)?)? in
                guard !state.sealed.isEmpty else {
                    state.writing = false
                    return nil
                }
                // A compaction waits on the writer: it goes first, then writing goes on
                // (still `writing`, so no second writer is started meanwhile).
                guard state.compactionsWaiting == 0 else {
                    writer.async { self.writeSealed() }
                    return nil
                }
                defer { state.sealed = [] }
                return (state.fd, state.end, state.size, state.sealed, state.sealedThrough, state.synced)
            }
            guard let taken else { return }
            let end = taken.end + taken.bytes.count
            // Only the writer moves `end` and `size`, and a compaction (which replaces them)
            // runs on the writer too: no one changes them between the lock and here.
            let size = end > taken.size ? Journal.reserve(taken.fd, from: taken.size, through: end) : taken.size
            guard DurableFile.writeAll(taken.fd, taken.bytes) else { fail("write") }
            if fdatasync(taken.fd) != 0 { fail("fdatasync") }
            state.withLock { state in
                state.end = end
                state.size = max(size, end)
            }
            taken.synced?(taken.through)
        }
    }

    /// How far the reserve reaches past the lines that need it: a mebibyte, about 4,000
    /// lines of a busy coordinator.
    static let reserveLength = 1 << 20

    /// Writes the reserve from `size` (the file's length) to past `needed`, and syncs it
    /// with the file's new length; answers the file's length then. A reserve that cannot be
    /// written (a full disk) is given up: lines are appended then, and each sync writes the
    /// new length too.
    private static func reserve(_ fd: Int32, from size: Int, through needed: Int) -> Int {
        let newlines = [UInt8](repeating: UInt8(ascii: "\n"), count: 64 << 10)
        let target = needed + reserveLength
        var length = size
        while length < target {
            let count = min(newlines.count, target - length)
            let written = newlines.withUnsafeBytes { pwrite(fd, $0.baseAddress, count, off_t(length)) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            length += written
        }
        // The lines' own sync (fdatasync) makes whatever it needs durable, this one or not.
        _ = fsync(fd)
        return length
    }

    /// Stops the process, status 74 (EX_IOERR), from the writer's thread. `_exit`, not
    /// `exit`: the loop's thread is still running, and the process's exit handlers and
    /// destructors must not run beside it (one waiting on it would keep the process alive,
    /// its socket and state held, instead of stopped). Nothing is left to flush: the log
    /// is written straight to its descriptor, and what is durable is already on disk.
    private func fail(_ call: String) -> Never {
        Log.error("cannot \(call) the journal \(path): \(SocketError(call)); stopping rather than acknowledge what is not durable")
        _exit(74)
    }

    /// Drops the lines a snapshot up to `seq` includes, but for the last ``keep`` lines of
    /// the file: the rest is rewritten to a new file (temporary, fsync, rename), which
    /// appends continue in. With lines to keep, the file is rewritten only once it can drop
    /// as many as it keeps, so that it holds between `keep` and twice as many lines and a
    /// busy coordinator does not rewrite them at every state write.
    func compact(through seq: UInt64) async {
        state.withLock { $0.compactionsWaiting += 1 }
        await withCheckedContinuation { continuation in
            writer.async {
                self.state.withLock { $0.compactionsWaiting -= 1 }
                self.rewrite(keepingAfter: seq)
                continuation.resume()
            }
        }
    }

    /// Whether the writer is writing, or about to.
    var isWriting: Bool { state.withLock { $0.writing } }

    private func rewrite(keepingAfter seq: UInt64) {
        // The lines kept are written and made durable without the lock, so the loop goes on
        // recording meanwhile (lines are only ever appended while this runs: compactions and
        // writes take turns on the writer).
        let plan = state.withLock { state -> (drop: Int, count: Int, bytes: [UInt8])? in
            let included = state.lines.prefix { $0.seq <= seq }.count
            let drop = min(included, state.lines.count - keep)
            guard drop > 0, keep == 0 || drop >= keep else { return nil }
            return (drop, state.lines.count, state.lines[drop...].flatMap(\.bytes))
        }
        guard let plan else { return }
        let replacement: DurableFile.Replacement
        do {
            replacement = try DurableFile.Replacement(path, writing: plan.bytes)
        } catch {
            Log.error("cannot compact the journal: \(error)")
            return
        }
        // Holding the lock for the switch keeps appends out of the gap between files.
        let durable = state.withLock { state -> (through: UInt64, synced: (@Sendable (UInt64) -> Void)?)? in
            let fd: Int32
            do {
                fd = try replacement.commit(adding: state.lines[plan.count...].flatMap(\.bytes))
            } catch {
                Log.error("cannot compact the journal: \(error)")
                return nil
            }
            state.lines.removeFirst(plan.drop)
            close(state.fd)
            state.fd = fd
            // The new file holds its lines alone, and its offset is past the last: the
            // next write grows its reserve.
            let length = Int(lseek(fd, 0, SEEK_CUR))
            state.end = length
            state.size = length
            // Every line recorded is on disk now, sealed or not: none is written again.
            state.turn.removeAll()
            state.sealed.removeAll()
            return (state.last, state.synced)
        }
        guard let durable else { return }
        replacement.syncFolder()
        durable.synced?(durable.through)
    }

    /// The mark a snapshot up to `seq` of this run has.
    func mark(_ seq: UInt64) -> JournalMark { JournalMark(run: run, seq: seq) }

    // MARK: Replay

    /// The mark of the highest-numbered line of the journal at `path` (its run and
    /// number): a snapshot with it includes the whole journal. (Of a journal written when
    /// each run numbered from 1, the lines of runs after the mark's are still read as not
    /// included, until a compaction drops them.) Nil when the journal has no line.
    static func lastMark(at path: String) -> JournalMark? {
        var highest: JournalMark?
        for record in records(at: path) where record.seq >= highest?.seq ?? 0 {
            highest = JournalMark(run: record.run, seq: record.seq)
        }
        return highest
    }

    /// The events in the journal at `path` that a snapshot with `mark` does not include, in
    /// order: the lines numbered after the mark (numbers go on across runs), and every line
    /// of the runs that came after the mark's run (started on this state, they wrote no
    /// state file yet; so journals whose runs numbered from 1 each are read as before).
    /// Without a mark, every line. The lines a compaction kept for resuming subscribers,
    /// and a last line cut short by a crash, are skipped.
    static func unapplied(at path: String, after mark: JournalMark?) -> [JSONValue] {
        var events: [JSONValue] = []
        var reachedMarkRun = mark == nil
        for record in records(at: path) {
            if let mark, record.run == mark.run {
                reachedMarkRun = true
                guard record.seq > mark.seq else { continue }
            } else if let mark, !reachedMarkRun, record.seq <= mark.seq {
                continue
            }
            events.append(record.event)
        }
        return events
    }
}
