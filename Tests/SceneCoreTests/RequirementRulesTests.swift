import SceneCore
import SceneFlow
import SceneJSON
import Testing

/// Scenes for the requirement tables: each `"id requires a b"`, `"id single"`,
/// `"id immersive"` or `"id pervalue"` (words after the id in any order).
private func graphScenes(_ lines: [String]) -> [RequirementGraph.Scene] {
    lines.map { line in
        let words = line.split(separator: " ").map(String.init)
        let requires = words.firstIndex(of: "requires").map { Array(words[($0 + 1)...]) } ?? []
        return RequirementGraph.Scene(
            id: words[0], requires: requires, isImmersive: words.contains("immersive"), isPerValue: words.contains("pervalue"))
    }
}

/// A bookkeeping value over `scenes` (``graphScenes(_:)``), with what `setup` opens: each
/// `"scene"` opens an instance, `"scene opening"` reserves one still opening, and
/// `"scene from ID"` pushes one from instance ID.
private func world(_ scenes: [String], _ setup: [String]) throws -> RegistryBook {
    let graph = graphScenes(scenes)
    var facts: [String: SceneFacts] = [:]
    for (line, scene) in zip(scenes, graph) {
        let kind: SceneKind = scene.isImmersive ? .immersive(style: .full) : .window
        let policy: InstancePolicy = line.contains(" single") ? .single : scene.isPerValue ? .perValue : .multiple(max: nil)
        facts[scene.id] = SceneFacts(kind: kind, policy: policy)
    }
    var book = RegistryBook(scenes: facts, immersivePolicy: .reject, requirements: RequirementGraph(graph))
    for step in setup {
        let words = step.split(separator: " ").map(String.init)
        if words.count == 3, words[1] == "from", let parent = InstanceID(words[2]) {
            let id = try book.resolvePush(words[0], value: nil, from: parent).get()
            book.reserve(id, value: nil, pushedFrom: parent)
            book.activate(id)
            continue
        }
        guard case .new(let id, _) = try book.resolveOpen(words[0], value: nil).get() else { continue }
        book.reserve(id, value: nil)
        if words.last != "opening" { book.activate(id) }
    }
    return book
}

/// One row: the scenes, what is open, what leaves, and the removal plan that must follow
/// (each `"id reason"`, in order).
struct RemovalCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let scenes: [String]
    let open: [String]
    let leaving: [String]
    let removals: [String]

    var testDescription: String { rule }
}

private let chain = ["session single", "editor requires session", "preview requires editor", "main single"]

let removalTable: [RemovalCase] = [
    RemovalCase(
        rule: "the dependents of a required scene's last instance go with it, each before what it requires",
        scenes: chain, open: ["session", "editor", "preview"], leaving: ["session-1"],
        removals: ["preview-1 requirement_dismissed", "editor-1 requirement_dismissed"]),
    RemovalCase(
        rule: "a required scene that keeps an instance takes nobody with the one that goes",
        scenes: ["base", "user requires base"], open: ["base", "base", "user"], leaving: ["base-1"], removals: []),
    RemovalCase(
        rule: "all of a required scene's instances leaving at once take its dependents",
        scenes: ["base", "user requires base"], open: ["base", "base", "user"], leaving: ["base-1", "base-2"],
        removals: ["user-1 requirement_dismissed"]),
    RemovalCase(
        rule: "a dependent still opening goes cancelled",
        scenes: chain, open: ["session", "editor", "preview opening"], leaving: ["session-1"],
        removals: ["preview-1 cancelled", "editor-1 requirement_dismissed"]),
    RemovalCase(
        rule: "a scene that requires two emptied scenes goes once, before both",
        scenes: ["doc single", "editor requires doc", "inspector requires doc", "toolbar requires editor inspector"],
        open: ["doc", "editor", "inspector", "toolbar"], leaving: ["doc-1"],
        removals: ["toolbar-1 requirement_dismissed", "editor-1 requirement_dismissed", "inspector-1 requirement_dismissed"]),
    RemovalCase(
        rule: "a scene goes before every scene it requires, also one reached by a shorter chain",
        scenes: ["base single", "beta requires base", "zeta requires base beta"], open: ["base", "beta", "zeta"],
        leaving: ["base-1"], removals: ["zeta-1 requirement_dismissed", "beta-1 requirement_dismissed"]),
    RemovalCase(
        rule: "what requires the scene of a window pushed from a dependent goes before that dependent",
        scenes: ["s single", "d requires s", "p", "y requires p"], open: ["s", "d", "p from d-1", "y"], leaving: ["s-1"],
        removals: ["y-1 requirement_dismissed", "d-1 requirement_dismissed"]),
    RemovalCase(
        rule: "a window pushed from a leaving instance leaves with it, and empties its scene",
        scenes: ["main single", "p", "y requires p"], open: ["main", "p from main-1", "y"], leaving: ["main-1"],
        removals: ["y-1 requirement_dismissed"]),
    RemovalCase(
        rule: "with no scene requiring another, nothing goes with a removal",
        scenes: ["a", "b"], open: ["a", "b"], leaving: ["a-1"], removals: []),
]

/// One row of the removal order: the scenes, what is open, and the order `ids` go in.
struct OrderCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let scenes: [String]
    let open: [String]
    let ids: [String]
    let order: [String]

    var testDescription: String { rule }
}

let orderTable: [OrderCase] = [
    OrderCase(
        rule: "with no requirements, by id", scenes: ["a", "b"], open: ["b", "a", "a"], ids: ["b-1", "a-2", "a-1"],
        order: ["a-1", "a-2", "b-1"]),
    OrderCase(
        rule: "each before what it requires, whatever order it was given in", scenes: chain,
        open: ["session", "editor", "preview", "main"], ids: ["session-1", "main-1", "editor-1", "preview-1"],
        order: ["main-1", "preview-1", "editor-1", "session-1"]),
    OrderCase(
        rule: "an instance stands with its pushed windows: it goes before the scenes theirs require",
        scenes: ["window single", "editor requires account", "account single"], open: ["account", "window", "editor from window-1"],
        ids: ["account-1", "window-1"], order: ["window-1", "account-1"]),
]

@Suite("Requirement rules on the bookkeeping: who goes with a removal, and in which order")
struct RequirementRulesTests {
    @Test(arguments: removalTable)
    func dependents(_ row: RemovalCase) throws {
        let book = try world(row.scenes, row.open)
        let plan = book.dependentRemovals(leaving: row.leaving.compactMap(InstanceID.init))
        #expect(plan.map { "\($0.id) \($0.reason.rawValue)" } == row.removals)
    }

    @Test(arguments: orderTable)
    func removalOrder(_ row: OrderCase) throws {
        let book = try world(row.scenes, row.open)
        #expect(book.inRemovalOrder(row.ids.compactMap(InstanceID.init)).map(\.description) == row.order)
    }

    @Test("a scene is up once an instance is past its opening; the missing requirements are those not up, in declared order")
    func missing() throws {
        let scenes = ["a", "b", "c", "user requires c a b"]
        #expect(try world(scenes, []).missingRequirements(of: "user") == ["c", "a", "b"])
        let book = try world(scenes, ["a", "b opening"])
        #expect(book.isUp("a") && !book.isUp("b") && !book.isUp("c"))
        #expect(book.missingRequirements(of: "user") == ["c", "b"])
        #expect(book.missingRequirements(of: "a").isEmpty)
    }
}

/// One row of the checks: the scenes, and each problem found, as a registry says it.
struct ProblemCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let scenes: [String]
    let problems: [String]

    var testDescription: String { rule }
}

let problemTable: [ProblemCase] = [
    ProblemCase(rule: "requirements of declared scenes, without a cycle, are fine", scenes: chain, problems: []),
    ProblemCase(rule: "a scene may not require itself", scenes: ["a requires a"], problems: ["scene \"a\" requires itself"]),
    ProblemCase(
        rule: "a scene may not require an undeclared one", scenes: ["a requires b"],
        problems: ["scene \"a\" requires \"b\", which is not declared"]),
    ProblemCase(
        rule: "a scene may not require one of one instance per value", scenes: ["a requires v", "v pervalue"],
        problems: ["scene \"a\" requires \"v\", which opens one instance per value: nothing says which value to open it with"]),
    ProblemCase(
        rule: "a cycle is named, around from its first scene", scenes: ["a requires b", "b requires c", "c requires a"],
        problems: ["the scenes require each other in a cycle: a → b → c → a"]),
    ProblemCase(
        rule: "an immersive space may not require another, even through a window",
        scenes: ["a immersive requires w", "w requires b", "b immersive"],
        problems: ["immersive space \"a\" requires immersive space \"b\": only one is open at a time"]),
    ProblemCase(
        rule: "a scene may not require two immersive spaces",
        scenes: ["w requires a v", "v requires b", "a immersive", "b immersive"],
        problems: ["scene \"w\" requires immersive spaces \"a\" and \"b\": only one is open at a time"]),
]

@Suite("Requirement rules on the declarations: what may require what")
struct RequirementGraphTests {
    @Test(arguments: problemTable)
    func problems(_ row: ProblemCase) {
        #expect(RequirementGraph.problems(graphScenes(row.scenes)).map(\.description) == row.problems)
    }

    @Test("the graph knows each scene's requirements through others, who requires it, and how deep its requirements go")
    func closureAndDepth() {
        let graph = RequirementGraph(graphScenes(["base", "beta requires base", "zeta requires base beta", "lone"]))
        #expect(graph.closure["zeta"] == ["base", "beta"])
        #expect(graph.closure["base"] == nil)
        #expect(graph.requiredBy["base"] == ["beta", "zeta"])
        #expect([graph.depth(of: "base"), graph.depth(of: "beta"), graph.depth(of: "zeta"), graph.depth(of: "lone")] == [0, 1, 2, 0])
        #expect(!graph.isEmpty && RequirementGraph(graphScenes(["a", "b"])).isEmpty)
    }
}
