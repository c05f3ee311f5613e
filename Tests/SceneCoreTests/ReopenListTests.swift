import SceneCore
import SceneFlow
import SceneJSON
import Testing

private func gone(_ id: String, path: [String] = []) -> InstanceSnapshot<JSONValue> {
    InstanceSnapshot(
        id: InstanceID(id)!, value: nil, phase: .active, flow: FlowSnapshot(path: path.map { .push(.string($0)) }, queuedModals: []),
        pushedFrom: InstanceID("main-1"), style: .mixed)
}

private func ids(_ list: [InstanceSnapshot<JSONValue>]) -> [String] { list.map(\.id.description) }

@Suite("What scene.reopen can bring back, as a value: kept, limited, taken, announced")
struct ReopenListTests {
    @Test(
        "a dismissal keeps the instance only when it was shown and is no cancellation",
        arguments: [
            (ScenePhase.active, DismissReason.requested, true), (.background, .parentDismissed, true),
            (.disconnected, .processExited, true), (.active, .cancelled, false), (.opening, .requested, false),
        ])
    func keeps(phase: ScenePhase, reason: DismissReason, kept: Bool) {
        #expect(ReopenList<JSONValue>.keeps(phase: phase, reason: reason) == kept)
    }

    @Test("a kept entry is closed, pushed from nothing and of no style, with its path; the oldest go past the limit")
    func keptAndLimited() {
        var list = ReopenList<JSONValue>(limit: 2)
        list.keep(gone("a-1", path: ["x"]))
        list.keep(gone("b-1"))
        list.keep(gone("c-1"))
        #expect(ids(list.entries) == ["b-1", "c-1"])
        let first = list.entries[0]
        #expect(first.phase == .closed && first.pushedFrom == nil && first.style == nil)
        var none = ReopenList<JSONValue>(limit: 0)
        none.keep(gone("a-1"))
        #expect(none.entries.isEmpty)
        #expect(ids(ReopenList(limit: 2, entries: [gone("a-1"), gone("b-1"), gone("c-1")]).entries) == ["b-1", "c-1"])
    }

    @Test("a reopen takes the latest entry of its scene, or of all; a taken one keeps its place and cannot be taken again")
    func take() throws {
        var list = ReopenList<JSONValue>(limit: 5)
        for id in ["a-1", "b-1", "a-2"] { list.keep(gone(id)) }
        #expect(try list.take(scene: "a").get().id.description == "a-2")
        #expect(try list.take(scene: "a").get().id.description == "a-1")
        #expect(list.take(scene: "a") == .failure(.nothingToReopen(scene: "a")))
        #expect(try list.take(scene: nil).get().id.description == "b-1")
        #expect(list.take(scene: nil) == .failure(.nothingToReopen(scene: nil)))
        #expect(ids(list.entries) == ["a-1", "b-1", "a-2"])
        #expect(list.reopenable.isEmpty)
    }

    @Test("a taken entry leaves with the event that announces its reopen; refused before, it is back in play where it was")
    func announcedOrReleased() throws {
        var list = ReopenList<JSONValue>(limit: 5)
        for id in ["a-1", "b-1"] { list.keep(gone(id)) }
        let a = try list.take(scene: "a").get().id
        list.release(a)
        #expect(ids(list.reopenable) == ["a-1", "b-1"])
        let again = try list.take(scene: "a").get().id
        list.reopening(InstanceID("a-3")!, from: again)
        #expect(list.announceOpened(InstanceID("a-3")!) == again)
        #expect(ids(list.entries) == ["b-1"])
        list.release(again)
        #expect(ids(list.entries) == ["b-1"])
        #expect(list.announceOpened(InstanceID("a-3")!) == nil)
    }

    @Test("an instance gone before its reopen was announced is never announced; its entry stays taken until released")
    func forgotten() throws {
        var list = ReopenList<JSONValue>(limit: 5)
        list.keep(gone("a-1"))
        let entry = try list.take(scene: "a").get().id
        list.reopening(InstanceID("a-2")!, from: entry)
        list.forget(InstanceID("a-2")!)
        #expect(list.announceOpened(InstanceID("a-2")!) == nil)
        #expect(list.reopenable.isEmpty)
        list.release(entry)
        #expect(ids(list.reopenable) == ["a-1"])
    }

    @Test("a replay takes out the entry an event names, or the latest of its scene when the event names none")
    func replay() {
        var list = ReopenList<JSONValue>(limit: 5)
        for id in ["a-1", "b-1", "a-2"] { list.keep(gone(id)) }
        list.replayTaken(InstanceID("a-1"), scene: "a")
        #expect(ids(list.entries) == ["b-1", "a-2"])
        list.replayTaken(nil, scene: "a")
        #expect(ids(list.entries) == ["b-1"])
        list.replayTaken(InstanceID("z-9"), scene: "z")
        #expect(ids(list.entries) == ["b-1"])
        // An entry named but no longer kept takes nothing, not the scene's latest.
        list.keep(gone("a-3"))
        list.replayTaken(InstanceID("a-9"), scene: "a")
        #expect(ids(list.entries) == ["b-1", "a-3"])
    }
}
