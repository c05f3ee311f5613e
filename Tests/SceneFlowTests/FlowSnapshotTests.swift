import Foundation
import SceneFlow
import SceneJSON
import Testing

@Suite("Snapshots")
struct FlowSnapshotTests {
    @Test("a snapshot round-trips through JSON and restores the same state")
    func roundTrip() throws {
        var flow = FlowStore<JSONValue>()
        flow.send(.push(["screen": "list"]))
        flow.send(.sheet(["screen": "share", "id": 7]))
        flow.send(.cover("login"))
        let data = try JSONEncoder().encode(flow.snapshot)
        let decoded = try JSONDecoder().decode(FlowSnapshot<JSONValue>.self, from: data)
        let restored = try FlowStore(restoring: decoded)
        #expect(restored.path == flow.path)
        #expect(restored.queuedModals == [.cover("login")])
    }

    @Test("the snapshot's JSON shape is version, path and queuedModals")
    func shape() throws {
        let snapshot = FlowSnapshot<String>(path: [.push("a")])
        #expect(try encodeJSON(snapshot)
            == #"{"path":[{"route":"a","type":"push"}],"queuedModals":[],"version":1}"#)
    }

    @Test("restoring an invalid snapshot reports every problem and changes nothing")
    func invalidSnapshot() throws {
        var flow = FlowStore<String>(plan: FlowPlan(pushing: ["keep"]))
        var snapshot = FlowSnapshot<String>(path: [.sheet("a"), .push("b")], queuedModals: [.push("c")])
        snapshot.version = 9
        #expect(throws: FlowRestoreError(problems: [
            .unsupportedVersion(9), .invalidPath(.modalNotAtTail(index: 0)),
            .queuedStepNotModal(index: 0), .queueWithoutModal(count: 1),
        ])) {
            try flow.restore(snapshot)
        }
        #expect(flow.path == [.push("keep")])
    }

    @Test("a restore keeps the middleware chain and records the change")
    func restoreKeepsMiddleware() throws {
        var flow = FlowStore<String>()
        flow.addMiddleware(ClosureMiddleware<String>(name: "kept"))
        flow.recordsEvents = true
        try flow.restore(FlowSnapshot(path: [.push("a")]))
        #expect(flow.middlewareNames == ["kept"])
        #expect(flow.takeEvents() == [.pathChanged(old: [], new: [.push("a")])])
    }
}
