import SceneCore
import SceneJSON
import Testing

private let session = InstanceID(scene: "session", number: 1)
private let editor = InstanceID(scene: "editor", number: 1)
private let preview = InstanceID(scene: "preview", number: 1)

/// `session` ← `editor` ← `preview` (each requires the one before), each open once, the
/// last still opening when `previewOpening`.
private func chain(previewOpening: Bool = false) throws -> RegistryBook {
    let graph = RequirementGraph([
        .init(id: "session", requires: []), .init(id: "editor", requires: ["session"]), .init(id: "preview", requires: ["editor"]),
    ])
    let window = SceneFacts(kind: .window, policy: .multiple(max: nil))
    var book = RegistryBook(
        scenes: ["session": window, "editor": window, "preview": window], immersivePolicy: .reject, requirements: graph)
    for scene in ["session", "editor", "preview"] {
        guard case .new(let id, _) = try book.resolveOpen(scene, value: nil).get() else { continue }
        book.reserve(id, value: nil)
        if !(scene == "preview" && previewOpening) { book.activate(id) }
    }
    return book
}

@Suite("Who is asked before a close, and whose refusal counts")
struct ClosingRulesTests {
    @Test("dismissing an instance asks it and those that go with it; one closing itself only them; one still opening is never asked")
    func asked() throws {
        let book = try chain()
        #expect(book.askedToDismiss(session, closingItself: false) == [session, preview, editor])
        #expect(book.askedToDismiss(session, closingItself: true) == [preview, editor])
        let opening = try chain(previewOpening: true)
        #expect(opening.askable(opening.askedToDismiss(session, closingItself: false)) == [session, editor])
        #expect(book.askedToDismiss(InstanceID(scene: "session", number: 9), closingItself: false).isEmpty)
    }

    @Test(
        "an instance's own refusal keeps it; else the first refusal among those that would go with it",
        arguments: [
            ([String](), nil as String?), (["session-1"], "session-1"), (["editor-1"], "editor-1"),
            (["preview-1", "editor-1"], "editor-1"), (["session-1", "editor-1"], "session-1"),
        ])
    func vetoOfOne(refused: [String], veto: String?) throws {
        #expect(try chain().veto(dismissing: session, refused: refused.compactMap(InstanceID.init))?.description == veto)
    }

    @Test("in a scene's dismissal, a target's own refusal keeps only it and so its dependents; a dependent's refusal fails it whole")
    func vetoOfScene() throws {
        let book = try chain()
        #expect(book.veto(dismissingScene: [session], refused: [session]) == nil)
        #expect(book.veto(dismissingScene: [session], refused: [session, preview]) == nil)
        #expect(book.veto(dismissingScene: [session], refused: [preview]) == preview)
        #expect(book.veto(dismissingScene: [session], refused: []) == nil)
        #expect(book.vetoed(dismissingScene: [session, InstanceID(scene: "session", number: 9)], refused: [session]) == [session])
    }

    @Test("with two targets of a scene, one refusing keeps only it, and its dependents stay because it does")
    func vetoOfOneTarget() throws {
        let graph = RequirementGraph([.init(id: "doc", requires: []), .init(id: "view", requires: ["doc"])])
        let window = SceneFacts(kind: .window, policy: .multiple(max: nil))
        var book = RegistryBook(scenes: ["doc": window, "view": window], immersivePolicy: .reject, requirements: graph)
        for scene in ["doc", "doc", "view"] {
            guard case .new(let id, _) = try book.resolveOpen(scene, value: nil).get() else { continue }
            book.reserve(id, value: nil)
            book.activate(id)
        }
        let docs = [InstanceID(scene: "doc", number: 1), InstanceID(scene: "doc", number: 2)]
        let view = InstanceID(scene: "view", number: 1)
        #expect(book.veto(dismissingScene: docs, refused: [docs[0], view]) == nil)
        #expect(book.veto(dismissingScene: docs, refused: [view]) == view)
    }

    @Test("a session load asks everything open, and any refusal fails it, the first by id")
    func sessionLoad() throws {
        let book = try chain()
        #expect(book.askedToLoadSession == [editor, preview, session])
        #expect(book.veto(loadingSession: [session, editor]) == editor)
        #expect(book.veto(loadingSession: []) == nil)
    }

    @Test("rounds ask the new ones each time, stop when a round would ask nobody, and give up on those still new after the limit")
    func rounds() {
        let ids = (1...20).map { InstanceID(scene: "w", number: $0) }
        var rounds = CloseRounds()
        #expect(rounds.next(Array(ids.prefix(2))) == .ask(Array(ids.prefix(2))))
        #expect(rounds.next(Array(ids.prefix(2))) == .done)
        for number in 3...(CloseRounds.limit + 1) {
            #expect(rounds.next(Array(ids.prefix(number))) == .ask([ids[number - 1]]))
        }
        #expect(rounds.round == CloseRounds.limit)
        #expect(rounds.next(Array(ids.prefix(CloseRounds.limit + 3))) == .giveUp(Array(ids[(CloseRounds.limit + 1)..<(CloseRounds.limit + 3)])))
    }
}
