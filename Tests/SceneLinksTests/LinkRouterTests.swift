import Foundation
import SceneLinks
import Testing

let demoPolicy = LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["demo.example"])

/// A router whose outputs name the mapping and echo the parameters.
func demoRouter() throws -> LinkRouter<String> {
    try LinkRouter(
        mappings: [
            LinkMapping("/viewer/:doc") { params in "viewer \(try params.int("doc"))" },
            LinkMapping("/search") { params in "search \(params.values("q").joined(separator: ","))" },
            LinkMapping("/theatre/:show", requiresAuth: true) { params in "theatre \(params.value("show")!)" },
            LinkMapping("/closed") { _ in throw LinkRejection.refused("closed for the day") },
        ],
        policy: demoPolicy)
}

func output(_ decision: LinkDecision<String>) -> String? {
    if case .handled(let match) = decision { return match.output }
    return nil
}

@Suite("Link router")
struct LinkRouterTests {
    @Test("a matching link is handled with its mapping's output")
    func handled() throws {
        var router = try demoRouter()
        #expect(output(router.open("demo://demo.example/viewer/42")) == "viewer 42")
        #expect(output(router.open("https://DEMO.example/viewer/7/")) == "viewer 7")
    }

    @Test("query items reach the mapping after the path values, repeated names kept")
    func queryItems() throws {
        var router = try demoRouter()
        #expect(output(router.open("demo://demo.example/search?q=a&q=b%20c")) == "search a,b c")
    }

    @Test("a link no pattern matches is unhandled, with its normalised URL")
    func unhandled() throws {
        var router = try demoRouter()
        guard case .unhandled(let url) = router.open("demo://demo.example/nowhere/./x") else {
            Issue.record("expected unhandled")
            return
        }
        #expect(url.path == "/nowhere/x")
    }

    @Test("a foreign origin, a malformed URL or an over-limit URL is rejected", arguments: [
        ("https://evil.example/viewer/1", "host_not_allowed"),
        ("ftp://demo.example/viewer/1", "scheme_not_allowed"),
        ("demo://demo.example:80/viewer/1", "non_canonical_origin"),
        ("demo://demo.example/viewer/%zz", "malformed_url"),
        ("demo://demo.example" + String(repeating: "/a", count: 200), "input_limit_exceeded"),
    ])
    func rejected(url: String, code: String) throws {
        var router = try demoRouter()
        guard case .rejected(let reason) = router.open(url) else {
            Issue.record("expected a rejection for \(url)")
            return
        }
        #expect(reason.code == code)
    }

    @Test("a parameter that does not convert rejects the link invalid_parameter")
    func invalidParameter() throws {
        var router = try demoRouter()
        #expect(router.open("demo://demo.example/viewer/x") == .rejected(.invalidParameter(name: "doc", value: "x", expected: "int")))
    }

    @Test("a mapping may refuse a link for its own reason")
    func refused() throws {
        var router = try demoRouter()
        if case .rejected(let reason) = router.open("demo://demo.example/closed") {
            #expect(reason == .refused("closed for the day"))
        } else {
            Issue.record("expected a refusal")
        }
    }

    @Test("a strict build throws every diagnostic; a lenient build keeps them")
    func strictness() throws {
        let mappings = ["/a/:x", "/a/:y", "/b/*r/c"].map { LinkMapping<String>($0) { _ in "" } }
        do {
            _ = try LinkRouter(mappings: mappings, policy: demoPolicy)
            Issue.record("a strict build must throw")
        } catch {
            #expect(error.diagnostics.map(\.code) == ["parameter_names_differ", "wildcard_not_last"])
        }
        let lenient = try LinkRouter(mappings: mappings, policy: demoPolicy, strict: false)
        #expect(lenient.diagnostics.count == 2)
    }

    @Test("a strict build refuses a shadowed pattern on its own")
    func strictShadowed() {
        let mappings = ["/:x/*rest", "/", "/*all"].map { LinkMapping<String>($0) { _ in "" } }
        #expect(throws: LinkBuildError.self) {
            try LinkRouter(mappings: mappings, policy: .closed)
        }
    }
}

@Suite("Authentication gate")
struct LinkAuthTests {
    @Test("a link that requires authentication waits while not authenticated")
    func pending() throws {
        var router = try demoRouter()
        let decision = router.open("demo://demo.example/theatre/hamlet")
        guard case .pending(let link, let superseded) = decision else {
            Issue.record("expected pending, got \(decision.name)")
            return
        }
        #expect(link.url == "demo://demo.example/theatre/hamlet")
        #expect(superseded == nil)
        #expect(router.pending == link)
    }

    @Test("a newer pending link replaces the older one, which is reported superseded")
    func superseded() throws {
        var router = try demoRouter()
        guard case .pending(let first, _) = router.open("demo://demo.example/theatre/a"),
            case .pending(let second, let superseded) = router.open("demo://demo.example/theatre/b")
        else {
            Issue.record("expected two pending links")
            return
        }
        #expect(superseded == first)
        #expect(router.pending == second)
    }

    @Test("authenticating replays the pending link, re-checked, and empties the slot")
    func authenticateReplays() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/hamlet")
        let replayed = router.authenticate()
        let replay = try #require(replayed)
        #expect(output(replay) == "theatre hamlet")
        #expect(router.pending == nil)
        #expect(output(router.open("demo://demo.example/theatre/lear")) == "theatre lear")
    }

    @Test("authenticating with nothing pending replays nothing")
    func nothingPending() throws {
        var router = try demoRouter()
        #expect(router.authenticate() == nil)
    }

    @Test("a resume that raced a newer link never replays the stale one")
    func raceWithNewerLink() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/old")
        let issued = router.setAuthenticated(true)
        let token = try #require(issued)
        // While the owner was busy between issuing and using the token, a newer link came.
        #expect(output(router.open("demo://demo.example/viewer/1")) == "viewer 1")
        guard case .stale(let superseded) = router.resume(token) else {
            Issue.record("the resume must be stale")
            return
        }
        #expect(superseded?.url == "demo://demo.example/theatre/old")
        #expect(router.pending == nil)
    }

    @Test("a resume that raced a newer pending link keeps the newer one waiting")
    func raceWithNewerPending() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/old")
        let issued = router.setAuthenticated(true)
        let token = try #require(issued)
        _ = router.setAuthenticated(false)
        _ = router.open("demo://demo.example/theatre/new")
        #expect(router.resume(token) == .stale(superseded: nil))
        #expect(router.pending?.url == "demo://demo.example/theatre/new")
    }

    @Test("a link handled after the pending one, before sign-in, makes the pending one stale")
    func handledBeforeToken() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/old")
        _ = router.open("demo://demo.example/viewer/1")
        #expect(router.authenticate() == nil)
        #expect(router.pending == nil)
    }

    @Test("a resume with a fresh token replays the link")
    func resumeFresh() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/x")
        let issued = router.setAuthenticated(true)
        let token = try #require(issued)
        guard case .replayed(let decision) = router.resume(token) else {
            Issue.record("expected a replay")
            return
        }
        #expect(output(decision) == "theatre x")
    }

    @Test("refused or unhandled links between token and resume do not cancel the replay")
    func garbageDoesNotCancel() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/x")
        let issued = router.setAuthenticated(true)
        let token = try #require(issued)
        _ = router.open("not a url")
        _ = router.open("demo://demo.example/nowhere")
        guard case .replayed(let decision) = router.resume(token) else {
            Issue.record("garbage input must not make the resume stale")
            return
        }
        #expect(output(decision) == "theatre x")
    }

    @Test("a replay is re-checked: signed out again before the resume, it waits again")
    func replayRechecks() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/x")
        let issued = router.setAuthenticated(true)
        let token = try #require(issued)
        _ = router.setAuthenticated(false)
        guard case .replayed(let decision) = router.resume(token) else {
            Issue.record("expected a replay")
            return
        }
        #expect(decision.name == "pending")
    }

    @Test("signing out makes protected links wait again")
    func signOut() throws {
        var router = try demoRouter()
        _ = router.setAuthenticated(true)
        _ = router.setAuthenticated(false)
        #expect(router.open("demo://demo.example/theatre/x").name == "pending")
    }
}
