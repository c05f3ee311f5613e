import SceneCore
import SceneFlow
import SceneJSON
import Testing

private func saved(_ id: String, pushedFrom: String? = nil) -> InstanceSnapshot<JSONValue> {
    InstanceSnapshot(
        id: InstanceID(id)!, value: nil, phase: .active, flow: FlowSnapshot(path: [], queuedModals: []),
        pushedFrom: pushedFrom.flatMap(InstanceID.init))
}

private func session(_ instances: [InstanceSnapshot<JSONValue>]) -> RegistrySnapshot<JSONValue> {
    RegistrySnapshot(
        app: "plan", instances: instances, focusOrder: [], immersive: nil, pendingLink: nil, authenticated: false, counters: [:])
}

/// A bookkeeping value of `scenes` (id → what it requires) with `open` opened.
private func book(_ scenes: [String: [String]], open: [String] = []) throws -> RegistryBook {
    var book = RegistryBook(
        scenes: scenes.mapValues { _ in SceneFacts(kind: .window, policy: .multiple(max: nil)) }, immersivePolicy: .reject,
        requirements: RequirementGraph(scenes.keys.sorted().map { RequirementGraph.Scene(id: $0, requires: scenes[$0]!) }))
    for scene in open {
        guard case .new(let id, _) = try book.resolveOpen(scene, value: nil).get() else { continue }
        book.reserve(id, value: nil)
        book.activate(id)
    }
    return book
}

@Suite("Loading a session, as a plan: what closes and what opens, in which order")
struct SessionPlanTests {
    @Test("everything open closes, each instance before what it requires")
    func closing() throws {
        let over = try book(["alpha": [], "zeta": ["alpha"], "other": []], open: ["alpha", "zeta", "other"])
        #expect(SessionPlan(loading: session([]), over: over).closing.map(\.description) == ["other-1", "zeta-1", "alpha-1"])
    }

    @Test("windows open before those pushed from them; required scenes before those requiring them; else in saved order")
    func openingOrder() throws {
        let scenes: [String: [String]] = ["main": [], "editor": ["session"], "session": [], "notes": [], "detail": []]
        let plan = SessionPlan(
            loading: session([
                saved("detail-4", pushedFrom: "notes-2"), saved("editor-1"), saved("notes-2"), saved("session-3"), saved("main-5"),
            ]), over: try book(scenes))
        #expect(plan.opening.map(\.id.description) == ["notes-2", "session-3", "main-5", "editor-1", "detail-4"])
    }

    @Test("a saved instance of a scene no longer declared is left out")
    func undeclared() throws {
        let plan = SessionPlan(loading: session([saved("gone-1"), saved("main-1")]), over: try book(["main": []]))
        #expect(plan.opening.map(\.id.description) == ["main-1"])
    }
}

@Suite("The style a restored or reloaded immersive space keeps")
struct KeptStyleTests {
    private let space = SceneDeclaration<JSONValue>(
        id: "space", kind: .immersive(style: .full), geometry: SceneGeometry(styles: [.mixed, .full]))

    @Test(
        "a saved style is kept when it is a change the scene still allows; otherwise the space follows its declaration",
        arguments: [
            (ImmersionStyle.mixed as ImmersionStyle?, ImmersionStyle.mixed as ImmersionStyle?),
            (.full, nil), (.progressive, nil), (nil, nil),
        ])
    func kept(saved: ImmersionStyle?, kept: ImmersionStyle?) {
        #expect(space.styleToKeep(saved) == kept)
    }

    @Test("a scene that is no immersive space keeps no style")
    func window() {
        #expect(SceneDeclaration<JSONValue>(id: "w", kind: .window).styleToKeep(.mixed) == nil)
    }
}
