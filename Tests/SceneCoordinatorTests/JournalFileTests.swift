import Foundation
import SceneCore
import SceneJSON
import Testing

@testable import SceneCoordinator

/// The journal's file: records, then a reserve of empty lines that the next records
/// overwrite; cut back to its last record when it is opened again.
@Suite("The journal's file")
struct JournalFileTests {
    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "journal-file-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func focused(_ seq: UInt64) -> SequencedEvent<JSONValue> {
        SequencedEvent(seq: seq, event: .focused(InstanceID("main-\(seq)")!))
    }

    /// Records `seqs` and writes them to disk as the group commit does.
    private func write(_ seqs: ClosedRange<UInt64>, to journal: Journal) {
        for seq in seqs { journal.record(focused(seq)) }
        if journal.seal() { journal.writer.sync { journal.writeSealed() } }
    }

    private func line(_ seq: UInt64, run: String = "a") -> [UInt8] {
        JournalLine.write(run: run, seq: seq, event: ["seq": .integer(Int(seq)), "type": "scene.focused", "instance": .string("main-\(seq)")])
    }

    @Test("scan finds the records that end with their newline and where the last ends; empty lines and a torn tail are not records")
    func scanFindsTheEnd() {
        let records = line(1) + line(2)
        let torn = Array(line(3).dropLast(9))
        let reserve = [UInt8](repeating: UInt8(ascii: "\n"), count: 100)
        for (data, end) in [
            (records, records.count),
            (records + reserve, records.count),
            (records + torn, records.count),
            (records + torn + reserve, records.count),
            (reserve + records + reserve, reserve.count + records.count),
            (torn + reserve, 0),
            ([], 0),
        ] {
            let scanned = JournalLine.scan(data)
            #expect(scanned.end == end)
            #expect(scanned.lines.map(\.seq) == (end == 0 ? [] : [1, 2]))
            #expect(JournalLine.read(data).map(\.seq) == scanned.lines.map(\.seq))
        }
        // A last record without its newline is read, as before, though it does not count
        // as written whole.
        let unterminated = records + line(3).dropLast()
        #expect(JournalLine.scan(unterminated).end == records.count)
        #expect(JournalLine.read(unterminated).map(\.seq) == [1, 2, 3])
    }

    @Test("written lines are followed by a reserve of empty lines; what reads the file reads only the records")
    func reserveFollowsTheLines() throws {
        try withFolder { folder in
            let path = folder + "/state.json.journal"
            let journal = try Journal(path: path)
            write(1...3, to: journal)
            let file = try bytes(path)
            let written = Journal.records(at: path)
            #expect(written.map(\.seq) == [1, 2, 3])
            let lines = written.flatMap(\.bytes)
            #expect(Array(file.prefix(lines.count)) == lines)
            #expect(file.count >= lines.count + Journal.reserveLength)
            #expect(file.dropFirst(lines.count).allSatisfy { $0 == UInt8(ascii: "\n") })
            // The next group overwrites the reserve right after the last line.
            write(4...5, to: journal)
            let more = Journal.records(at: path)
            #expect(more.map(\.seq) == [1, 2, 3, 4, 5])
            #expect(Array(try bytes(path).prefix(more.flatMap(\.bytes).count)) == more.flatMap(\.bytes))
            #expect(try bytes(path).count == file.count, "a group that fits in the reserve changed the file's length")
        }
    }

    @Test("opened again, the journal is cut after its last record (reserve and torn tail gone) and goes on right after it")
    func reopenCutsAndGoesOn() throws {
        try withFolder { folder in
            let path = folder + "/state.json.journal"
            // What a crash in the middle of a write leaves: records, the start of one more,
            // and the reserve after it.
            let records = line(1, run: "old") + line(2, run: "old")
            let torn = Array(line(3, run: "old").dropLast(20))
            try Data(records + torn + [UInt8](repeating: UInt8(ascii: "\n"), count: 4096)).write(to: URL(fileURLWithPath: path))
            let journal = try Journal(path: path)
            #expect(journal.openedThrough == 2)
            #expect(try bytes(path) == records)
            write(3...4, to: journal)
            let after = Journal.records(at: path)
            #expect(after.map(\.seq) == [1, 2, 3, 4])
            #expect(after.map(\.run) == ["old", "old", journal.run, journal.run])
            #expect(Array(try bytes(path).prefix(after.flatMap(\.bytes).count)) == after.flatMap(\.bytes))
        }
    }

    @Test("a compaction's new file holds the kept lines alone, and the next lines follow them")
    func compactionThenWrite() async throws {
        let folder = NSTemporaryDirectory() + "journal-file-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.json.journal"
        let journal = try Journal(path: path, keep: 2)
        write(1...6, to: journal)
        await journal.compact(through: 6)
        #expect(Journal.records(at: path).map(\.seq) == [5, 6])
        write(7...7, to: journal)
        let after = Journal.records(at: path)
        #expect(after.map(\.seq) == [5, 6, 7])
        #expect(Array(try bytes(path).prefix(after.flatMap(\.bytes).count)) == after.flatMap(\.bytes))
    }
}
