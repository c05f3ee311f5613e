import SceneCore
import SceneFlow
import SceneJSON
import Testing

private let window = SceneFacts(kind: .window, policy: .multiple(max: nil))
private let facts: [String: SceneFacts] = [
    "main": SceneFacts(kind: .window, policy: .single),
    "notes": window,
    "viewer": SceneFacts(kind: .window, policy: .perValue),
    "theatre": SceneFacts(kind: .immersive(style: .full), policy: .single),
    "portal": SceneFacts(kind: .immersive(style: .mixed), policy: .single),
    "session": window,
    "editor": window,
]

/// A bookkeeping value of `facts` (the editor requires the session) with `open` opened
/// and `opening` reserved but not yet active, in that order.
private func book(open: [String] = [], opening: [String] = [], immersive: ImmersivePolicy = .reject) throws -> RegistryBook {
    var book = RegistryBook(
        scenes: facts, immersivePolicy: immersive,
        requirements: RequirementGraph([.init(id: "session", requires: []), .init(id: "editor", requires: ["session"])]))
    for (scene, active) in open.map({ ($0, true) }) + opening.map({ ($0, false) }) {
        guard case .new(let id, _) = try book.resolveOpen(scene, value: scene == "viewer" ? "a" : nil).get() else { continue }
        book.reserve(id, value: scene == "viewer" ? "a" : nil)
        if active { book.activate(id) }
    }
    return book
}

private func rejection<T>(_ result: Result<T, RegistryRejection>) -> RegistryRejection? {
    if case .failure(let reason) = result { return reason }
    return nil
}

@Suite("What an open does: join, focus or open, and what it replaces")
struct OpenActionRules {
    @Test(
        "an instance the policy reuses is joined while it opens and focused once open; else a new one opens",
        arguments: [
            ([String](), [String](), "main", OpenAction.open(InstanceID(scene: "main", number: 1), replacing: nil)),
            (["main"], [], "main", .focus(InstanceID(scene: "main", number: 1))),
            ([], ["main"], "main", .join(InstanceID(scene: "main", number: 1))),
            (["notes"], [], "notes", .open(InstanceID(scene: "notes", number: 2), replacing: nil)),
            ([], ["viewer"], "viewer", .join(InstanceID(scene: "viewer", number: 1))),
        ])
    func action(open: [String], opening: [String], scene: String, expected: OpenAction) throws {
        let value: JSONValue? = scene == "viewer" ? "a" : nil
        #expect(try book(open: open, opening: opening).openAction(scene, value: value).get() == expected)
    }

    @Test("under replace, another immersive space replaces the open one with its dependents; the same scene keeps them")
    func replacement() throws {
        let other = try book(open: ["theatre"], immersive: .replace).openAction("portal", value: nil).get()
        #expect(other == .open(InstanceID(scene: "portal", number: 1), replacing: Replacement(id("theatre-1"), takesDependents: true)))
        let same = try book(open: ["theatre"], immersive: .replace).openAction("theatre", value: "other").get()
        #expect(same == .open(InstanceID(scene: "theatre", number: 2), replacing: Replacement(id("theatre-1"), takesDependents: false)))
        #expect(Replacement(id("theatre-1"), takesDependents: true).reason == .replaced)
    }

    @Test("an open is refused as its resolution is")
    func refused() throws {
        #expect(rejection(try book().openAction("nowhere", value: nil)) == .unknownScene("nowhere"))
        #expect(rejection(try book(open: ["theatre"]).openAction("portal", value: nil)) == .immersiveSpaceBusy(open: id("theatre-1")))
    }
}

@Suite("Opening what a scene requires: each in turn, and none gone")
struct RequirementActionRules {
    @Test(
        "a required scene that is up needs nothing; one still opening is joined; one with no instance opens",
        arguments: [
            ([String](), [String](), RequirementAction.open),
            (["session"], [], .up),
            ([], ["session"], .join(InstanceID(scene: "session", number: 1))),
        ])
    func action(open: [String], opening: [String], expected: RequirementAction) throws {
        #expect(try book(open: open, opening: opening).requirementAction("session") == expected)
    }

    @Test("once every requirement had its turn, one that is not up fails the open, named")
    func gone() throws {
        #expect(try book(open: ["session"]).goneRequirement(of: "editor") == nil)
        #expect(try book().goneRequirement(of: "editor") == "session")
        #expect(try book(opening: ["session"]).goneRequirement(of: "editor") == "session")
        #expect(try book().goneRequirement(of: "notes") == nil)
    }
}

@Suite("Where a call to a scene goes")
struct ActivationTargetRules {
    @Test(
        "the most recent instance; one still opening is joined only when the scene is activatable; none opens one only then",
        arguments: [
            ([String](), [String](), true, Result<InstanceChoice, RegistryRejection>.success(.new)),
            ([], [], false, .failure(.notOpen("notes"))),
            (["notes"], [], false, .success(.existing(InstanceID(scene: "notes", number: 1)))),
            (["notes"], [], true, .success(.existing(InstanceID(scene: "notes", number: 1)))),
            ([], ["notes"], true, .success(.join(InstanceID(scene: "notes", number: 1)))),
            ([], ["notes"], false, .success(.existing(InstanceID(scene: "notes", number: 1)))),
        ])
    func target(open: [String], opening: [String], activatable: Bool, expected: Result<InstanceChoice, RegistryRejection>) throws {
        #expect(try book(open: open, opening: opening).activationTarget(of: "notes", activatable: activatable) == expected)
    }

    @Test("a call to an undeclared scene is refused unknown_scene")
    func unknown() throws {
        #expect(try book().activationTarget(of: "nowhere", activatable: true) == .failure(.unknownScene("nowhere")))
    }
}

@Suite("The immersive space: its dismissal and its style")
struct ImmersiveRules {
    @Test("immersive.dismiss takes the space requested, or cancelled while it opens; with none, nothing_to_dismiss")
    func dismissal() throws {
        #expect(try book(open: ["theatre"]).immersiveDismissal == .success(Removal(id("theatre-1"), .requested)))
        #expect(try book(opening: ["theatre"]).immersiveDismissal == .success(Removal(id("theatre-1"), .cancelled)))
        #expect(try book(open: ["main"]).immersiveDismissal == .failure(.nothingToDismiss))
    }

    @Test("a style change applies to an open space only, not one still opening")
    func openSpace() throws {
        #expect(try book(open: ["theatre"]).openImmersive == .success(id("theatre-1")))
        #expect(try book(opening: ["theatre"]).openImmersive == .failure(.notOpen("an immersive space")))
        #expect(try book().openImmersive == .failure(.notOpen("an immersive space")))
    }

    @Test("a style the scene allows changes it unless it is the current one; another is style_not_allowed")
    func style() {
        let space = SceneDeclaration<JSONValue>(
            id: "space", kind: .immersive(style: .full), geometry: SceneGeometry(styles: [.mixed, .full]))
        let instance = id("space-1")
        #expect(space.styleChange(to: .mixed, from: .full, of: instance) == .success(true))
        #expect(space.styleChange(to: .full, from: .full, of: instance) == .success(false))
        #expect(space.styleChange(to: .progressive, from: .full, of: instance)
            == .failure(.styleNotAllowed(instance, style: .progressive, allowed: space.allowedStyles)))
    }
}

@Suite("Where a deep link lands: joined, shown, or opened")
struct LandingActionRules {
    @Test(
        "a link waits for its instance still opening, shows its plan in an open one, or opens a new one",
        arguments: [
            ([String](), [String](), "main", InstanceChoice.new),
            (["main"], [], "main", .existing(InstanceID(scene: "main", number: 1))),
            ([], ["main"], "main", .join(InstanceID(scene: "main", number: 1))),
            (["notes", "notes"], [], "notes", .existing(InstanceID(scene: "notes", number: 2))),
        ])
    func landing(open: [String], opening: [String], scene: String, expected: InstanceChoice) throws {
        #expect(try book(open: open, opening: opening).resolveLanding(scene, value: nil).get() == expected)
    }
}

@Suite("What backs an instance: the end of its launch, its process's hello and end")
struct BackingRules {
    @Test("a launch that ends activates an opening instance, or cancels it with the launcher's reason")
    func launchEnd() throws {
        let opening = try book(opening: ["notes"])
        let notes = id("notes-1")
        #expect(opening.launchEnd(notes, .success(())) == .activate)
        #expect(opening.launchEnd(notes, .failure(.launchTimeout(notes, seconds: 1))) == .cancel(.launchTimeout(notes, seconds: 1)))
    }

    @Test("a launch that ends after its instance was dismissed stops what started, and nothing else; an open instance's is nothing")
    func launchEndAfterward() throws {
        let empty = try book()
        #expect(empty.launchEnd(id("notes-1"), .success(())) == .stop)
        #expect(empty.launchEnd(id("notes-1"), .failure(.cancelled(id("notes-1")))) == .nothing)
        #expect(try book(open: ["notes"]).launchEnd(id("notes-1"), .success(())) == .nothing)
    }

    @Test("a hello activates an opening instance, brings back a disconnected one, and changes nothing else; not_open for none")
    func attachment() throws {
        let notes = id("notes-1")
        #expect(try book(opening: ["notes"]).attachment(notes) == .success(.activate))
        var disconnected = try book(open: ["notes"])
        disconnected.disconnect(notes)
        #expect(disconnected.attachment(notes) == .success(.reconnect))
        #expect(try book(open: ["notes"]).attachment(notes) == .success(.nothing))
        #expect(try book().attachment(notes) == .failure(.instanceNotOpen(notes)))
    }

    @Test("a process's end disconnects an instance past its opening only")
    func disconnects() throws {
        #expect(try book(open: ["notes"]).disconnects(id("notes-1")))
        #expect(try !book(opening: ["notes"]).disconnects(id("notes-1")))
        #expect(try !book().disconnects(id("notes-1")))
    }
}

@Suite("Who answers a close question")
struct AnswerableRules {
    @Test("with a close policy every askable instance is asked; without one, only those something backs")
    func answerable() throws {
        let book = try book(open: ["main", "notes"], opening: ["viewer"])
        let all = [id("main-1"), id("notes-1"), id("viewer-1")]
        #expect(book.answerable(all, closePolicy: true) { _ in false } == [id("main-1"), id("notes-1")])
        #expect(book.answerable(all, closePolicy: false) { $0.scene == "notes" } == [id("notes-1")])
        #expect(book.answerable(all, closePolicy: false) { _ in true } == [id("main-1"), id("notes-1")])
    }
}

@Suite("Routes: the scopes they bubble through, and who decides in each")
struct RouteScopeRules {
    @Test("the chain is the asking instance, then each window it was pushed from, innermost first")
    func chain() throws {
        var book = try book(open: ["main"])
        #expect(book.scopeChain(from: id("main-1")) == [id("main-1")])
        let pushed = try book.resolvePush("notes", value: nil, from: id("main-1")).get()
        book.reserve(pushed, value: nil, pushedFrom: id("main-1"))
        book.activate(pushed)
        #expect(book.scopeChain(from: pushed) == [pushed, id("main-1")])
    }

    @Test("a scope's code is asked only when its scene decides and something backs the instance",
          arguments: [(true, true, true), (true, false, false), (false, true, false), (false, false, false)])
    func asks(decides: Bool, backed: Bool, asked: Bool) {
        #expect(RegistryBook.asksScene(decides: decides, backed: backed) == asked)
    }

    @Test("the code's decision stands; with none, the scope rules decide")
    func decided() {
        let rules = [ScopeRule<JSONValue>(when: RoutePredicate { $0 == "settings" }, .present(.sheet))]
        #expect(RegistryBook.scopeAction(for: "settings", decided: .reject("no"), in: rules) == .reject("no"))
        #expect(RegistryBook.scopeAction(for: "settings", decided: nil, in: rules) == .present(.sheet))
        #expect(RegistryBook.scopeAction(for: "other", decided: nil, in: rules) == .pass)
    }
}

@Suite("Close questions in order, a program closing its own instance, a path shaped while opening")
struct CloseAskerRules {
    @Test("the close policy first, then what backs the instance; nobody when neither is there",
          arguments: [(true, true, [CloseAsker.closePolicy, .backing]), (true, false, [.closePolicy]), (false, true, [.backing]), (false, false, [])])
    func askers(policy: Bool, backed: Bool, askers: [CloseAsker]) {
        #expect(RegistryBook.closeAskers(closePolicy: policy, backed: backed) == askers)
    }

    @Test("a program's dismiss of its own instance is that instance closing itself; of another, or in no scene's program, not")
    func closesItself() {
        #expect(ProgramStep<JSONValue>.closesItself(id("main-1"), by: id("main-1")))
        #expect(!ProgramStep<JSONValue>.closesItself(id("main-1"), by: id("main-2")))
        #expect(!ProgramStep<JSONValue>.closesItself(id("main-1"), by: nil))
    }

    @Test("an intent a behaviour sends while its instance opens shapes the path it opens with; once open, it is a change")
    func presets() throws {
        #expect(try book(opening: ["notes"]).presetsPath(of: id("notes-1")))
        #expect(try !book(open: ["notes"]).presetsPath(of: id("notes-1")))
    }
}

@Suite("What declarations and behaviours must be")
struct DeclarationRulesTests {
    private typealias Declaration = SceneDeclaration<JSONValue>

    @Test("each broken rule is one problem, in order: missing behaviours, then each declaration's, stray behaviours, requirements")
    func problems() {
        let declarations: [Declaration] = [
            Declaration(id: "tools", kind: .window, hosting: .inProcess),
            Declaration(id: "main", kind: .window),
            Declaration(id: "main", kind: .window),
            Declaration(id: "ghost", kind: .window, activatable: true),
            Declaration(id: "viewer", kind: .window, instances: .perValue, hosting: .inProcess, activatable: true),
            Declaration(id: "bad id", kind: .window),
            Declaration(id: "loop", kind: .window, requires: ["loop"]),
        ]
        let problems = DeclarationRules.problems(declarations, behaviors: ["viewer", "main", "nowhere"])
        #expect(problems.count == 8)
        #expect(problems[0].contains("\"tools\" runs in process"))
        #expect(problems[1].contains("duplicate scene id \"main\""))
        #expect(problems[2].contains("\"ghost\" is virtual"))
        #expect(problems[3].contains("\"viewer\" opens one instance per value"))
        #expect(problems[4].contains("scene id \"bad id\" must be"))
        #expect(problems[5].contains("\"main\", which is not declared to run in process"))
        #expect(problems[6].contains("\"nowhere\", which is not declared"))
        #expect(problems[7].contains("loop"))
    }

    @Test("declarations that keep every rule have no problem")
    func none() {
        let declarations = [Declaration(id: "tools", kind: .window, hosting: .inProcess), Declaration(id: "main", kind: .window)]
        #expect(DeclarationRules.problems(declarations, behaviors: ["tools"]).isEmpty)
    }
}

@Suite("What declarations made in Swift must agree on: groups, placements, restarts")
struct DeclarationAgreementRules {
    private typealias Declaration = SceneDeclaration<JSONValue>
    private let pair = SupervisionGroup(id: "pair", strategy: .oneForAll, scenes: ["a", "b"])

    private func declaration(_ id: String, group: SupervisionGroup? = nil) -> Declaration {
        Declaration(id: id, kind: .window, hosting: .inProcess, group: group)
    }

    @Test("a group and the scenes that name it agree; a group lists only declared scenes with code")
    func groups() {
        #expect(DeclarationRules.problems([declaration("a", group: pair), declaration("b", group: pair)], behaviors: ["a", "b"]).isEmpty)
        let onlyOne = DeclarationRules.problems([declaration("a", group: pair), declaration("b")], behaviors: ["a", "b"])
        #expect(onlyOne == [#"group "pair" lists "b", which does not name it"#])
        let stranger = SupervisionGroup(id: "pair", strategy: .oneForAll, scenes: ["b"])
        let unlisted = DeclarationRules.problems([declaration("a", group: stranger), declaration("b", group: stranger)], behaviors: ["a", "b"])
        #expect(unlisted == [#"scene "a" names group "pair", which does not list it"#])
        let virtual = Declaration(id: "b", kind: .window, group: pair)
        #expect(DeclarationRules.problems([declaration("a", group: pair), virtual], behaviors: ["a"]).contains(
            #"group "pair" lists "b", which has no code to supervise (no launch, not in process)"#))
        #expect(DeclarationRules.problems([declaration("a", group: pair)], behaviors: ["a"]) == [#"group "pair" lists "b", which is not declared"#])
    }

    @Test("a placement names a declared scene; a virtual scene has no restart policy of its own")
    func placementAndRestart() {
        let placed = Declaration(id: "a", kind: .window, geometry: SceneGeometry(placement: .relative(to: "nowhere", position: .leading)))
        #expect(DeclarationRules.problems([placed], behaviors: []) == [#"scene "a" is placed relative to "nowhere", which is not declared"#])
        let restarting = Declaration(id: "a", kind: .window, restart: RestartPolicy(mode: .permanent))
        #expect(DeclarationRules.problems([restarting], behaviors: []) == [#"scene "a" is virtual: it has no code to restart"#])
    }
}
