import SceneCore
import SceneFlow
import SceneJSON
import Testing

/// The registry's rules, driven on the bookkeeping value itself: synchronous, with no
/// actor, clock or sleep. Each test opens what it needs with `open`, which does what the
/// registry does for a request (resolve, reserve, activate) and fails the test on refusal.
private struct Book {
    var book: RegistryBook

    init(_ scenes: [String: SceneFacts], immersive: ImmersivePolicy = .reject) {
        book = RegistryBook(scenes: scenes, immersivePolicy: immersive, requirements: RequirementGraph())
    }

    /// Opens `scene` as the registry would and answers the instance it opened or focused.
    @discardableResult
    mutating func open(_ scene: String, value: JSONValue? = nil) throws -> InstanceID {
        switch try book.openAction(scene, value: value).get() {
        case .join(let id), .focus(let id):
            book.focusVisible(id)
            return id
        case .open(let id, let replacing):
            if let replacing { _ = book.dismiss(replacing.id, reason: replacing.reason) }
            book.reserve(id, value: value)
            book.activate(id)
            return id
        }
    }

    /// Pushes `scene` from `parent` as the registry would.
    @discardableResult
    mutating func push(_ scene: String, from parent: InstanceID) throws -> InstanceID {
        let id = try book.resolvePush(scene, value: nil, from: parent).get()
        book.reserve(id, value: nil, pushedFrom: parent)
        book.activate(id)
        return id
    }

    /// The id a new instance of `scene` would get; nil when opening would not make one.
    func newInstance(_ scene: String) throws -> InstanceID? {
        guard case .new(let id, _) = try book.resolveOpen(scene, value: nil).get() else { return nil }
        return id
    }

    func rejection<T>(_ result: Result<T, RegistryRejection>) -> RegistryRejection? {
        if case .failure(let reason) = result { return reason }
        return nil
    }
}

private let window = SceneFacts(kind: .window, policy: .multiple(max: nil))
private let scenes: [String: SceneFacts] = [
    "main": SceneFacts(kind: .window, policy: .single),
    "notes": window,
    "limited": SceneFacts(kind: .window, policy: .multiple(max: 2)),
    "viewer": SceneFacts(kind: .window, policy: .perValue),
    "globe": SceneFacts(kind: .volume(size: VolumeSize(width: 1, height: 1, depth: 1)), policy: .single),
    "theatre": SceneFacts(kind: .immersive(style: .full), policy: .single),
    "portal": SceneFacts(kind: .immersive(style: .mixed), policy: .single),
]

@Suite("Opening: which instance a request opens or focuses")
struct RegistryBookOpenRules {
    @Test("a single scene opened again focuses its one instance")
    func single() throws {
        var book = Book(scenes)
        let first = try book.open("main")
        _ = try book.open("notes")
        #expect(try book.open("main") == first)
        #expect(book.book.focused == first)
    }

    @Test("a per-value scene needs a value and has one instance per value")
    func perValue() throws {
        var book = Book(scenes)
        #expect(book.rejection(book.book.resolveOpen("viewer", value: nil)) == .valueRequired(scene: "viewer"))
        let a = try book.open("viewer", value: "a")
        let b = try book.open("viewer", value: "b")
        #expect(a != b)
        #expect(try book.open("viewer", value: "a") == a)
    }

    @Test("a multiple scene with a maximum refuses one more")
    func limit() throws {
        var book = Book(scenes)
        try book.open("limited")
        try book.open("limited")
        #expect(book.rejection(book.book.resolveOpen("limited", value: nil)) == .instanceLimitReached(scene: "limited", max: 2))
    }

    @Test("instance numbers are never reused after a dismiss")
    func numbers() throws {
        var book = Book(scenes)
        let first = try book.open("notes")
        _ = book.book.dismiss(first, reason: .requested)
        #expect(try book.open("notes") == InstanceID(scene: "notes", number: 2))
    }

    @Test("an undeclared scene is refused unknown_scene")
    func unknown() {
        let book = Book(scenes)
        #expect(book.rejection(book.book.resolveOpen("nowhere", value: nil)) == .unknownScene("nowhere"))
    }
}

@Suite("Immersive spaces: at most one open")
struct RegistryBookImmersiveRules {
    @Test("with policy reject, a second immersive space is refused immersive_space_busy")
    func reject() throws {
        var book = Book(scenes)
        let theatre = try book.open("theatre")
        #expect(book.rejection(book.book.resolveOpen("portal", value: nil)) == .immersiveSpaceBusy(open: theatre))
        #expect(book.book.immersive == theatre)
    }

    @Test("with policy replace, a second immersive space dismisses the open one first")
    func replace() throws {
        var book = Book(scenes, immersive: .replace)
        let theatre = try book.open("theatre")
        guard case .new(let portal, let replacing) = try book.book.resolveOpen("portal", value: nil).get() else {
            Issue.record("the portal must open")
            return
        }
        #expect(replacing == theatre)
        _ = try book.open("portal")
        #expect(book.book.immersive == portal)
        #expect(book.book.records[theatre] == nil)
    }

    @Test("the same immersive scene with another value is another space, and is busy")
    func anotherValue() throws {
        var book = Book(scenes)
        let theatre = try book.open("theatre", value: "hamlet")
        #expect(try book.open("theatre", value: "hamlet") == theatre)
        #expect(book.rejection(book.book.resolveOpen("theatre", value: "lear")) == .immersiveSpaceBusy(open: theatre))
    }

    @Test("an immersive space cannot take focus")
    func notFocusable() throws {
        var book = Book(scenes)
        let theatre = try book.open("theatre")
        #expect(book.rejection(book.book.focusRequest(theatre)) == .notFocusable(theatre))
    }
}

@Suite("Focus: the most recently focused window or volume")
struct RegistryBookFocusRules {
    @Test("an instance that becomes active takes focus, and says so once")
    func activation() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        #expect(book.book.takeEvents() == [.opened(main), .focused(main)])
    }

    @Test("dismissing the focused window passes focus to the one focused before it")
    func passOn() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let notes = try book.open("notes")
        _ = book.book.takeEvents()
        _ = book.book.dismiss(notes, reason: .requested)
        #expect(book.book.focused == main)
        #expect(book.book.takeEvents() == [.dismissed(notes, .requested), .focused(main)])
    }

    @Test("an instance still opening cannot be focused")
    func opening() throws {
        var book = Book(scenes)
        let id = try #require(try book.newInstance("notes"))
        book.book.reserve(id, value: nil)
        #expect(book.rejection(book.book.focusRequest(id)) == .instanceNotOpen(id))
    }

    @Test("focusing a window with a pushed window over it is refused covered_by_pushed_window")
    func covered() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let pushed = try book.push("notes", from: main)
        #expect(book.rejection(book.book.focusRequest(main)) == .coveredByPushedWindow(pushed))
    }
}

@Suite("Pushing a window in place of another")
struct RegistryBookPushRules {
    @Test("the window pushed from goes to the background and gives up focus")
    func parentHidden() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let pushed = try book.push("notes", from: main)
        #expect(book.book.records[main]?.phase == .background)
        #expect(book.book.focused == pushed)
    }

    @Test("dismissing the pushed window brings back its parent, active and focused")
    func parentBack() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let pushed = try book.push("notes", from: main)
        _ = book.book.dismiss(pushed, reason: .requested)
        #expect(book.book.records[main]?.phase == .active)
        #expect(book.book.focused == main)
    }

    @Test("dismissing a parent dismisses the window pushed from it first")
    func childFirst() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let pushed = try book.push("notes", from: main)
        #expect(book.book.dismiss(main, reason: .requested) == [pushed, main])
        #expect(book.book.records[pushed] == nil)
    }

    @Test("a push from a pushed window, from a covered one, or of a non-window is refused")
    func refusals() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let pushed = try book.push("notes", from: main)
        #expect(book.rejection(book.book.resolvePush("notes", value: nil, from: pushed)) == .pushFromPushedWindow(pushed))
        #expect(book.rejection(book.book.resolvePush("notes", value: nil, from: main)) == .coveredByPushedWindow(pushed))
        let other = try book.open("notes")
        #expect(book.rejection(book.book.resolvePush("globe", value: nil, from: other)) == .notAWindow("globe"))
    }

    @Test("a push whose target is already open is refused already_open")
    func alreadyOpen() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let notes = try book.open("notes")
        #expect(book.rejection(book.book.resolvePush("main", value: nil, from: notes)) == .alreadyOpen(main))
    }
}

@Suite("Phases an instance reports, and disconnection")
struct RegistryBookPhaseRules {
    @Test("only active, inactive and background can be reported")
    func reportable() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        #expect(book.rejection(book.book.report(main, .opening)) == .invalidPhase(.opening))
        #expect(book.rejection(book.book.report(main, .inactive)) == nil)
    }

    @Test("a window covered by a pushed window stays in the background: it may report only background until the pushed one goes")
    func covered() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let pushed = try book.push("notes", from: main)
        #expect(book.rejection(book.book.report(main, .inactive)) == .coveredByPushedWindow(pushed))
        #expect(book.rejection(book.book.report(main, .active)) == .coveredByPushedWindow(pushed))
        #expect(book.rejection(book.book.report(main, .background)) == nil)
        #expect(book.book.records[main]?.phase == .background)
    }

    @Test("a disconnected instance keeps its phase; the last one set meanwhile is the one it comes back to")
    func disconnected() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        book.book.disconnect(main)
        #expect(book.book.records[main]?.phase == .disconnected)
        book.book.setPhase(main, .inactive)
        #expect(book.book.records[main]?.phase == .disconnected)
        book.book.reconnect(main)
        #expect(book.book.records[main]?.phase == .inactive)
    }

    @Test("the app is active when any instance is, else inactive when any is, else background")
    func aggregate() throws {
        var book = Book(scenes)
        let main = try book.open("main")
        let notes = try book.open("notes")
        _ = try book.book.report(main, .background).get()
        #expect(book.book.aggregatePhase == .active)
        _ = try book.book.report(notes, .inactive).get()
        #expect(book.book.aggregatePhase == .inactive)
        _ = try book.book.report(notes, .background).get()
        #expect(book.book.aggregatePhase == .background)
    }
}

@Suite("Which instance a deep link lands in")
struct RegistryBookLinkLandingRules {
    @Test("a link to a multiple scene lands in its most recently focused instance")
    func multiple() throws {
        var book = Book(scenes)
        let first = try book.open("notes")
        _ = try book.open("notes")
        book.book.focusVisible(first)
        #expect(try book.book.resolveLanding("notes", value: nil).get() == .existing(first))
    }

    @Test("a link to a per-value scene lands in the instance with its value, else in a new one")
    func perValue() throws {
        var book = Book(scenes)
        let a = try book.open("viewer", value: "a")
        _ = try book.open("viewer", value: "b")
        #expect(try book.book.resolveLanding("viewer", value: "a").get() == .existing(a))
        #expect(try book.book.resolveLanding("viewer", value: "c").get() == .new)
    }

    @Test("a link to a scene with no open instance opens one")
    func none() throws {
        let book = Book(scenes)
        #expect(try book.book.resolveLanding("notes", value: nil).get() == .new)
        #expect(try book.book.resolveLanding("main", value: nil).get() == .new)
    }

    @Test("a link is refused as opening would refuse it")
    func refused() throws {
        var book = Book(scenes)
        let theatre = try book.open("theatre")
        #expect(book.rejection(book.book.resolveLanding("portal", value: nil)) == .immersiveSpaceBusy(open: theatre))
        #expect(book.rejection(book.book.resolveLanding("nowhere", value: nil)) == .unknownScene("nowhere"))
    }
}

@Suite("Dismissing by scene: which instances, and why")
struct RegistryBookDismissRules {
    @Test("a dismiss by scene targets its open instances by number, or only those with the value")
    func targets() throws {
        var book = Book(scenes)
        let a = try book.open("viewer", value: "a")
        let b = try book.open("viewer", value: "b")
        #expect(try book.book.dismissTargets("viewer", value: nil).get() == [a, b])
        #expect(try book.book.dismissTargets("viewer", value: "b").get() == [b])
    }

    @Test("a dismiss by scene with nothing open is refused not_open; an undeclared scene unknown_scene")
    func refused() throws {
        var book = Book(scenes)
        try book.open("viewer", value: "a")
        #expect(book.rejection(book.book.dismissTargets("notes", value: nil)) == .notOpen("notes"))
        #expect(book.rejection(book.book.dismissTargets("viewer", value: "z")) == .notOpen("viewer with value \"z\""))
        #expect(book.rejection(book.book.dismissTargets("nowhere", value: nil)) == .unknownScene("nowhere"))
    }

    @Test("an instance dismissed while opening is cancelled; an open one is requested")
    func reason() throws {
        var book = Book(scenes)
        let open = try book.open("notes")
        let opening = try #require(try book.newInstance("notes"))
        book.book.reserve(opening, value: nil)
        #expect(book.book.dismissReason(open) == .requested)
        #expect(book.book.dismissReason(opening) == .cancelled)
        #expect(book.book.dismissReason(InstanceID(scene: "notes", number: 9)) == nil)
    }
}

@Suite("Routes that bubble up, and presenting them")
struct RegistryBookRouteRules {
    private let id = InstanceID(scene: "main", number: 1)

    @Test("a sheet whose route is shown or queued as a modal is refused presentation_busy")
    func busy() {
        var flow = FlowStore<String>()
        flow.send(.sheet("share"))
        flow.send(.cover("login"))
        #expect(RegistryBook.presentationProblem("share", as: .sheet, in: flow, of: id) == .presentationBusy(id))
        #expect(RegistryBook.presentationProblem("login", as: .cover, in: flow, of: id) == .presentationBusy(id))
        #expect(RegistryBook.presentationProblem("help", as: .sheet, in: flow, of: id) == nil)
    }

    @Test("a push over a modal is refused by the flow's own rule, and the flow is unchanged")
    func pushOverModal() {
        var flow = FlowStore<String>()
        flow.send(.sheet("share"))
        let before = flow.path
        #expect(RegistryBook.presentationProblem("page", as: .push, in: flow, of: id) == .flow(.pushBlockedByModalTail))
        #expect(flow.path == before)
    }

    @Test("the first scope rule that matches decides; with none the route passes")
    func scope() {
        let rules: [ScopeRule<String>] = [
            ScopeRule(when: RoutePredicate { $0.hasPrefix("admin") }, .reject("admins only")),
            ScopeRule(when: RoutePredicate { $0.hasPrefix("a") }, .present(.sheet)),
        ]
        #expect(RegistryBook.scopeAction(for: "admin/users", in: rules) == .reject("admins only"))
        #expect(RegistryBook.scopeAction(for: "about", in: rules) == .present(.sheet))
        #expect(RegistryBook.scopeAction(for: "zebra", in: rules) == .pass)
    }

    @Test("a per-value scene that claims a route opens with the route itself as its value; other scenes with none")
    func claimValue() throws {
        #expect(try RegistryBook.claimValue(for: ["doc": 7] as JSONValue, policy: .perValue).get() == ["doc": 7])
        #expect(try RegistryBook.claimValue(for: ["doc": 7] as JSONValue, policy: .single).get() == nil)
    }

    @Test("a claimed route is checked against the open instance it would land in; not against one still opening")
    func openTarget() throws {
        var book = Book(scenes)
        #expect(try book.book.openTarget("main", value: nil).get() == nil)
        let opening = try #require(try book.newInstance("main"))
        book.book.reserve(opening, value: nil)
        #expect(try book.book.openTarget("main", value: nil).get() == nil)
        book.book.activate(opening)
        #expect(try book.book.openTarget("main", value: nil).get() == opening)
    }

    @Test("a route that passes goes to the first declaration, in order, with a matching claim")
    func claims() {
        let declarations: [SceneDeclaration<String>] = [
            SceneDeclaration(id: "first", kind: .window, claims: [SceneClaim(when: RoutePredicate { $0 == "x" }, present: .push)]),
            SceneDeclaration(id: "second", kind: .window, claims: [SceneClaim(when: .always, present: .sheet)]),
            SceneDeclaration(id: "third", kind: .window, claims: [SceneClaim(when: .always, present: .cover)]),
        ]
        #expect(RegistryBook.claim(for: "x", in: declarations)?.scene.id == "first")
        #expect(RegistryBook.claim(for: "y", in: declarations)?.scene.id == "second")
        #expect(RegistryBook.claim(for: "y", in: declarations)?.claim.present == .sheet)
        #expect(RegistryBook.claim(for: "y", in: Array(declarations.prefix(1))) == nil)
    }
}
