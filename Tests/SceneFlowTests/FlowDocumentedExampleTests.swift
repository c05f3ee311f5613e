import SceneFlow
import Testing

/// The README's SceneFlow example, kept here so the documentation cannot drift.
@Suite("README example")
struct ReadmeExampleTests {
    enum Screen: Hashable, Codable, Sendable { case library, album(Int), share, login }

    @Test("the README's intents answer what the README says they answer")
    func readmeExample() {
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
