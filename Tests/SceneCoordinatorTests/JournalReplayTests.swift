import Foundation
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneWire
import Testing

private func id(_ text: String) -> InstanceID { InstanceID(text)! }

@Suite("A journal's events replayed onto a snapshot")
struct JournalReplayTests {
    @Test("replaying flow.changed and flow.queued restores each instance's path and queued modals")
    func queuesReplayed() async throws {
        let registry = try SceneRegistry<JSONValue>(manifest: .demo)
        _ = try await registry.open("notes")
        let before = await registry.snapshot()
        let events = Locked<[JSONValue]>([])
        registry.observeEvents { event in events.withLock { $0.append(WireCodec.eventParams(event)) } }
        let notes = try #require(await registry.instance(InstanceID(scene: "notes", number: 1)))
        _ = try await notes.batch([.push("a"), .sheet("share"), .cover("login")])
        _ = try await notes.send(.sheet("help"))
        _ = try await registry.open("main")
        let after = await registry.snapshot()
        #expect(after.instances.first { $0.id.scene == "notes" }?.flow.queuedModals == [.cover("login"), .sheet("help")])
        #expect(before.applying(events.withLock { $0 }) == after)
    }
}

extension JournalReplayTests {
    @Test("replaying dismissals and reopens keeps what can be reopened as the registry keeps it")
    func reopenableReplayed() async throws {
        let registry = try SceneRegistry<JSONValue>(manifest: .demo)
        let before = await registry.snapshot()
        let events = Locked<[JSONValue]>([])
        registry.observeEvents { event in events.withLock { $0.append(WireCodec.eventParams(event)) } }
        let viewer = try await registry.open("viewer", value: "3").instance.id
        _ = try await registry.withInstance(viewer, for: "flow.send") { instance throws(RegistryRejection) in try instance.send(.push("page")) }
        let notes = try await registry.open("notes").instance.id
        _ = try await registry.dismiss(viewer)
        _ = try await registry.dismiss(notes)
        _ = try await registry.reopen("viewer")
        let middle = await registry.snapshot()
        #expect(middle.closed?.map(\.id) == [notes])
        #expect(before.applying(events.withLock { $0 }).closed == middle.closed)
        // A scene opened with no value is reopened, and replayed, as well.
        _ = try await registry.reopen("notes")
        let after = await registry.snapshot()
        #expect(after.closed == nil)
        #expect(before.applying(events.withLock { $0 }).closed == nil)
    }

    @Test("a replayed reopen takes the entry its event names, not its scene's latest, and none the snapshot no longer holds")
    func reopenTakesNamedEntry() async throws {
        let registry = try SceneRegistry<JSONValue>(manifest: .demo)
        for _ in 0..<3 { _ = try await registry.open("notes") }
        _ = try await registry.dismiss(id("notes-1"))
        _ = try await registry.dismiss(id("notes-3"))
        let snapshot = await registry.snapshot()
        #expect(snapshot.closed?.map(\.id) == [id("notes-1"), id("notes-3")])
        let focused: JSONValue = ["seq": 9, "type": "scene.focused", "instance": "notes-2", "reopened": true, "reopenedFrom": "notes-1"]
        #expect(snapshot.applying([focused]).closed?.map(\.id) == [id("notes-3")])
        #expect(snapshot.applying([focused, focused]).closed?.map(\.id) == [id("notes-3")])
    }

    @Test("a replay keeps what can be reopened within the registry's limit as the registry does, a reopen under way counting its entry")
    func replayTrimsAsTheRegistry() async throws {
        let manifest = try Manifest.load(from: Data(#"""
            {"app": "r", "scenes": [
              {"id": "base", "kind": "window", "instances": "single"},
              {"id": "doc", "kind": "window", "requires": ["base"]},
              {"id": "note", "kind": "window"}]}
            """#.utf8))
        let registry = try SceneRegistry<JSONValue>(manifest: manifest, reopenLimit: 3)
        let before = await registry.snapshot()
        let events = Locked<[JSONValue]>([])
        registry.observeEvents { event in events.withLock { $0.append(WireCodec.eventParams(event)) } }
        _ = try await registry.dismiss(try await registry.open("note").instance.id)
        _ = try await registry.open("doc")
        _ = try await registry.dismiss(id("base-1"))  // doc-1 goes first: [note-1, doc-1, base-1]
        // The reopen of doc-1 waits (base opens first), its entry taken but counted ...
        let reopening = await registry.beginReopen("doc")
        // ... so this dismissal drops note-1, the oldest, as the replay does.
        _ = try await registry.dismiss(try await registry.open("note").instance.id)
        #expect(await registry.reopenable.map(\.id) == [id("base-1"), id("note-2")])
        #expect(before.applying(events.withLock { $0 }, reopenLimit: 3) == (await registry.snapshot()))
        _ = try await registry.finish(reopening).get()
        #expect(await registry.reopenable.map(\.id) == [id("base-1"), id("note-2")])
        #expect(before.applying(events.withLock { $0 }, reopenLimit: 3) == (await registry.snapshot()))
    }

    @Test("replaying a push takes the window it was pushed from out of the focus order, until the pushed window goes")
    func pushReplayed() async throws {
        let registry = try SceneRegistry<JSONValue>(manifest: .demo)
        let before = await registry.snapshot()
        let events = Locked<[JSONValue]>([])
        registry.observeEvents { event in events.withLock { $0.append(WireCodec.eventParams(event)) } }
        let main = try await registry.open("main").instance.id
        let notes = try await registry.push("notes", from: main).id
        _ = try await registry.open("viewer", value: "1")
        #expect(await registry.snapshot().focusOrder.contains(main) == false)
        #expect(before.applying(events.withLock { $0 }) == (await registry.snapshot()))
        _ = try await registry.dismiss(notes)
        #expect(before.applying(events.withLock { $0 }) == (await registry.snapshot()))
    }

    @Test("a reopen that only focuses an open instance takes its entry in the replay too")
    func focusingReopenReplayed() async throws {
        let registry = try SceneRegistry<JSONValue>(manifest: .demo)
        let main = try await registry.open("main").instance.id
        let before = await registry.snapshot()
        let events = Locked<[JSONValue]>([])
        registry.observeEvents { event in events.withLock { $0.append(WireCodec.eventParams(event)) } }
        _ = try await registry.dismiss(main)
        _ = try await registry.open("main")
        #expect(await registry.reopenable.count == 1)
        #expect(try await registry.reopen("main").name == "focused")
        #expect(await registry.reopenable.isEmpty)
        let replayed = before.applying(events.withLock { $0 })
        #expect(replayed.closed == nil)
        #expect(replayed == (await registry.snapshot()))

        // Found under a pushed window, the window on top takes focus: the replay follows.
        let second = try await registry.mostRecentInstance(of: "main")
        _ = try await registry.dismiss(second)
        let third = try await registry.open("main").instance.id
        _ = try await registry.push("notes", from: third)
        _ = try await registry.open("viewer", value: "1")
        _ = try await registry.reopen("main")
        #expect(await registry.focused?.scene == "notes")
        #expect(before.applying(events.withLock { $0 }) == (await registry.snapshot()))
    }
}

@Suite("Folding a journal into the state file")
struct JournalFoldTests {
    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fold-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private let empty = RegistrySnapshot<JSONValue>(
        app: "demo", instances: [], focusOrder: [], immersive: nil, pendingLink: nil, authenticated: false, counters: [:])

    @Test("a folded state is marked as including the journal's highest-numbered line, and the lines stay")
    func marksHighest() throws {
        try withFolder { folder in
            let path = "\(folder)/state.json"
            // An older run numbered further than a later one that started again from 1.
            let lines = [#"{"run":"a","seq":40,"event":{"seq":40,"type":"scene.focused","instance":"main-1"}}"#,
                         #"{"run":"b","seq":3,"event":{"seq":3,"type":"scene.focused","instance":"main-1"}}"#]
            try (lines.joined(separator: "\n") + "\n").write(toFile: path + ".journal", atomically: true, encoding: .utf8)
            try StateFile.fold(CoordinatorState(snapshot: empty, processes: []), into: path)
            #expect(try StateFile.read(path)?.journal == JournalMark(run: "a", seq: 40))
            #expect(FileManager.default.fileExists(atPath: path + ".journal"))
        }
    }

    @Test("folding with no journal line keeps the mark the state had, so numbering goes on from it")
    func keepsMark() throws {
        try withFolder { folder in
            let path = "\(folder)/state.json"
            try "".write(toFile: path + ".journal", atomically: true, encoding: .utf8)
            let mark = JournalMark(run: "a", seq: 57)
            try StateFile.fold(CoordinatorState(snapshot: empty, processes: [], journal: mark, origin: "line-1"), into: path)
            let state = try StateFile.read(path)
            #expect(state?.journal == mark)
            #expect(state?.origin == "line-1")
        }
    }
}
