import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneWire
import Testing

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
