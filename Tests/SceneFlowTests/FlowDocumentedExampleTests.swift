import SceneFlow
import Testing

/// Runs the example of SceneFlow's overview as written: the catalog page
/// Sources/SceneFlow/SceneFlow.docc/SceneFlow.md shows it, with each answer in a comment,
/// so the documentation cannot drift.
@Suite("The documented flow example runs as written")
struct FlowDocumentedExampleTests {
    enum Screen: Hashable, Codable, Sendable { case library, album(Int), share, login }

    @Test("the overview's intents answer what its comments say they answer")
    func documentedExample() {
        var flow = FlowStore<Screen>()
        #expect(flow.send(.push(.library)) == .changed(old: [], new: [.push(.library)]))
        flow.send(.push(.album(7)))
        flow.send(.sheet(.share))
        #expect(flow.send(.push(.library)) == .rejected(.pushBlockedByModalTail))
        #expect(flow.send(.cover(.login)) == .queued(.cover(.login)))
        flow.send(.dismiss)
        #expect(flow.modal == .cover(.login))
        flow.send(.dismissAll)
        #expect(flow.send(.popCount(5)) == .rejected(.insufficientDepth(requested: 5, available: 2)))
        #expect(flow.path == [.push(.library), .push(.album(7))])
        #expect("\(flow.path)" == "[push(library), push(album(7))]")
    }
}
