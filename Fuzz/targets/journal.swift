// Fuzz target: a journal file, torn lines included. Reading answers the lines that are
// records and skips the rest; the cut made when a journal is opened falls after a whole
// record; each record read is written back the same; a good line after whatever the file
// holds is always read (a torn tail never swallows the next line); and the events replay
// onto a snapshot without a crash.
import SceneCoordinator
import SceneCore
import SceneJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = bytes(data, size)
    let lines = JournalLine.read(input)
    for line in lines {
        precondition(line.bytes.last == UInt8(ascii: "\n"), "a journal line read without its newline")
        precondition(JournalLine.read(line.bytes) == [line], "a journal line was not read back as it was")
        let written = JournalLine.write(run: line.run, seq: line.seq, event: line.event)
        let back = JournalLine.read(written).map { [$0.run, "\($0.seq)", $0.event.description] }
        let expected = [line.run, "\(line.seq)", line.event.description]
        precondition(back == [expected], "a journal line was not written back the same: \(back)")
    }
    // Where a journal opened on these bytes is cut: just past a record's newline, and every
    // record before it is one that reading answers too.
    let (whole, end) = JournalLine.scan(input)
    precondition(end <= input.count && (end == 0 || input[end - 1] == UInt8(ascii: "\n")), "a journal cut in the middle of a line")
    precondition(Array(lines.prefix(whole.count)) == whole, "scanning and reading disagree on the records")
    precondition(JournalLine.read(Array(input[..<end])) == whole, "the records before the cut are not those scanned")
    let good = JournalLine.write(run: "next", seq: 7, event: ["seq": 7, "type": "scene.focused", "instance": "main-1"])
    let after = JournalLine.read(input + [UInt8(ascii: "\n")] + good)
    precondition(after.last?.run == "next" && after.last?.seq == 7, "a good line after the file's bytes was not read")
    precondition(after.count == lines.count + 1, "a good line after the file's bytes changed how the rest was read")
    // Replayed onto an empty snapshot of the demo app: whatever the events say.
    let empty = RegistrySnapshot<JSONValue>(
        app: "demo", instances: [], focusOrder: [], immersive: nil, pendingLink: nil, authenticated: false, counters: [:])
    let replayed = empty.applying(lines.map(\.event), reopenLimit: 20)
    precondition(replayed.app == "demo", "a replay changed the app")
    return 0
}
