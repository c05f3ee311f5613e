import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneTesting
import Testing

@Suite("Routes bubble from the innermost context")
struct RouteBubblingTests {
    /// The demo app with notes-1 pushed from main-1.
    private func pushedNotes() async throws -> SceneRegistry<JSONValue> {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.push("notes", from: id("main-1"))
        return registry
    }

    @Test("a route from a pushed window reaches the scope of the window it was pushed from, which presents it there")
    func originPresents() async throws {
        let registry = try await pushedNotes()
        let outcome = try await registry.route(["screen": "settings"], from: id("notes-1"))
        #expect(outcome.kind == .presented)
        #expect(outcome.instance.id == id("main-1"))
        #expect(outcome.instance.path == [.sheet(["screen": "settings"])])
        #expect(outcome.via == [.scope(id("notes-1")), .scope(id("main-1"))])
    }

    @Test("an origin's reject rule refuses a route asked from a window pushed from it")
    func originRejects() async throws {
        let registry = try await pushedNotes()
        let reason = await rejection { try await registry.route(["screen": "admin"], from: id("notes-1")) }
        #expect(reason == .routeRejected(detail: "not_allowed_here"))
    }

    @Test("past every scope the claims decide; via lists the scopes, then the scenes whose claims were offered it")
    func claimsAfterScopes() async throws {
        let registry = try await pushedNotes()
        let outcome = try await registry.route(["screen": "globe"], from: id("notes-1"))
        #expect(outcome.kind == .opened)
        #expect(outcome.via == [.scope(id("notes-1")), .scope(id("main-1")), .claims("globe")])
        #expect(outcome.via.map(\.description) == ["notes-1", "main-1", "globe"])
    }
}

/// A scene whose code decides routes: it records what it saw and answers what the test set.
private actor Decider: SceneBehavior {
    typealias R = Screen
    let seen: Locked<[(Screen, [RouteStep<Screen>])]>
    let answer: Locked<ScopeAction?>
    let hangs: Bool

    init(seen: Locked<[(Screen, [RouteStep<Screen>])]>, answer: Locked<ScopeAction?>, hangs: Bool = false) {
        self.seen = seen
        self.answer = answer
        self.hangs = hangs
    }

    func decide(_ route: Screen, path: [RouteStep<Screen>]) async -> ScopeAction? {
        seen.withLock { $0.append((route, path)) }
        if hangs { try? await Task.sleep(for: .seconds(3600)) }
        return answer.withLock { $0 }
    }
}

@Suite("Scenes that decide routes at run time")
struct DecidingSceneTests {
    /// A registry whose in-process scene `a` decides, with scope rule: push everything.
    private func registry(_ decider: Decider, time: (any TimeSource)? = nil) throws -> SceneRegistry<Screen> {
        try SceneRegistry<Screen>(
            app: "deciding",
            declarations: [
                SceneDeclaration(
                    id: "a", kind: .window, scope: [ScopeRule(when: .always, .present(.push))], hosting: .inProcess,
                    decides: true),
            ],
            behaviors: ["a": { _ in decider }], time: time)
    }

    @Test("the scene's decision comes before its scope rules, and sees the route and the instance's path")
    func decisionFirst() async throws {
        let seen = Locked<[(Screen, [RouteStep<Screen>])]>([])
        let answer = Locked<ScopeAction?>(.present(.sheet))
        // On a clock that never moves, the decision is awaited however late it comes.
        let registry = try registry(Decider(seen: seen, answer: answer), time: LoopClock.manual())
        let a = try await registry.open("a").instance.id
        _ = try await #require(await registry.instance(a)).send(.push(.list))
        let outcome = try await registry.route(.detail(1), from: a)
        #expect(outcome.instance.path == [.push(.list), .sheet(.detail(1))])
        #expect(seen.withLock { $0.map(\.0) } == [.detail(1)])
        #expect(seen.withLock { $0.map(\.1) } == [[.push(.list)]])
        answer.withLock { $0 = .reject("busy") }
        #expect(await rejection { try await registry.route(.detail(2), from: a) } == .routeRejected(detail: "busy"))
    }

    @Test("a scene that leaves the decision (nil) gets its scope rules")
    func noDecision() async throws {
        let registry = try registry(Decider(seen: Locked([]), answer: Locked(nil)))
        let a = try await registry.open("a").instance.id
        #expect(try await registry.route(.detail(1), from: a).instance.path == [.push(.detail(1))])
    }

    @Test("a decision that does not come within the decide timeout leaves it to the scope rules")
    func decideTimesOut() async throws {
        let clock = LoopClock.manual()
        let seen = Locked<[(Screen, [RouteStep<Screen>])]>([])
        let registry = try registry(Decider(seen: seen, answer: Locked(.present(.cover)), hangs: true), time: clock)
        let a = try await registry.open("a").instance.id
        let path = await clock.advancing(by: .milliseconds(250)) { try? await registry.route(.detail(1), from: a).instance.path }
        #expect(path == [.push(.detail(1))])
        #expect(seen.withLock { $0.count } == 1)
    }
}
