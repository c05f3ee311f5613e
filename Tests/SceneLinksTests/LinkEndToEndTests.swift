import SceneFlow
import SceneJSON
import SceneLinks
import Testing

/// URLs against a table of patterns, through the whole router: parsing, normalisation,
/// policy and matching together.
let routedTable: [(String, String)] = [
    ("demo://demo.example/viewer/42", "viewer 42"),
    ("DEMO://DEMO.EXAMPLE/viewer/42/", "viewer 42"),
    ("demo://demo.example//viewer///42", "viewer 42"),
    ("demo://demo.example/files/a%2Fb/c", "files a/b|c"),
    ("demo://demo.example/files/x/../y/./z", "files y|z"),
    ("demo://demo.example/files/caf%C3%A9/日本", "files café|日本"),
    ("demo://demo.example/files", "files "),
    ("demo://demo.example/tags/a?tag=b&tag=c", "tags a,b,c"),
    ("demo://demo.example/Viewer/42", "unhandled /Viewer/42"),
    ("demo://demo.example/viewer/..", "unhandled /"),
    ("demo://demo.example/viewer/%2E%2E/viewer/7", "viewer 7"),
    ("demo://demo.example:8080/viewer/1", "rejected non_canonical_origin"),
    ("demo://me@demo.example/viewer/1", "rejected non_canonical_origin"),
    ("https://demo.example/viewer/%2", "rejected malformed_url"),
]

func routedRouter() throws -> LinkRouter<String> {
    try LinkRouter(
        mappings: [
            LinkMapping("/viewer/:doc") { params in "viewer \(params.value("doc")!)" },
            LinkMapping("/files/*path") { params in "files \(params.segments("path")!.joined(separator: "|"))" },
            LinkMapping("/tags/:tag") { params in "tags \(params.values("tag").joined(separator: ","))" },
        ],
        policy: LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["demo.example"]))
}

func summary(_ decision: LinkDecision<String>) -> String {
    switch decision {
    case .handled(let match): return match.output
    case .pending(let link, _): return "pending \(link.url)"
    case .rejected(let reason): return "rejected \(reason.code)"
    case .unhandled(let url): return "unhandled \(url.path)"
    }
}

@Suite("Links end to end")
struct LinkEndToEndTests {
    @Test("URLs land where the pattern table says", arguments: routedTable)
    func routed(url: String, expected: String) throws {
        var router = try routedRouter()
        #expect(summary(router.open(url)) == expected)
    }

    @Test("evaluating a pre-parsed URL still applies the origin policy")
    func preParsedPolicy() throws {
        let router = try routedRouter()
        let foreign = LinkURL(scheme: "https", host: "evil.example", segments: ["viewer", "1"])
        guard case .rejected(let reason) = router.evaluate(foreign) else {
            Issue.record("a foreign pre-parsed URL must be rejected")
            return
        }
        #expect(reason == .hostNotAllowed("evil.example"))
    }

    @Test("limits accept inputs exactly at the limit")
    func exactlyAtLimits() throws {
        let prefix = "https://demo.example/"
        let long = prefix + String(repeating: "a", count: 8192 - prefix.utf8.count)
        #expect(try LinkURL(parsing: long).segments.count == 1)
        let query = (0..<256).map { "k\($0)=v" }.joined(separator: "&")
        #expect(try LinkURL(parsing: prefix + "p?" + query).queryItems.count == 256)
    }
}

@Suite("Pattern diagnostics, continued")
struct LinkMoreDiagnosticsTests {
    @Test("a literal with a bad percent escape is invalid_encoding")
    func invalidEncoding() {
        #expect(LinkMatcher(patterns: ["/a/%zz"]).diagnostics.map(\.code) == ["invalid_encoding"])
    }

    @Test("a literal with a character no path segment holds is invalid_character", arguments: [
        "/search?q=:x", "/a#b", "/a b", "/a\\b",
    ])
    func invalidCharacter(pattern: String) {
        #expect(LinkMatcher(patterns: [pattern]).diagnostics.map(\.code) == ["invalid_character"])
    }

    @Test("a strict build refuses a shadowed pattern on its own")
    func strictShadowed() {
        let mappings = ["/:x/*rest", "/", "/*all"].map { LinkMapping<String>($0) { _ in "" } }
        #expect(throws: LinkBuildError.self) {
            try LinkRouter(mappings: mappings, policy: .closed)
        }
    }
}

@Suite("Authentication gate, races")
struct LinkGateRaceTests {
    @Test("a link handled after the pending one, before sign-in, makes the pending one stale")
    func handledBeforeToken() throws {
        var router = try demoRouter()
        _ = router.open("demo://demo.example/theatre/old")
        _ = router.open("demo://demo.example/viewer/1")
        #expect(router.authenticate() == nil)
        #expect(router.pending == nil)
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
}

@Suite("Template mappings")
struct LinkTemplateMappingTests {
    @Test("the manifest's mapping shape builds and renders a value and a plan")
    func buildsAndRenders() throws {
        let mapping = try LinkTemplateMapping(
            json: ["pattern": "/viewer/:doc", "value": "${doc}",
                   "plan": [["type": "push", "route": ["screen": "page", "doc": "${doc}"]]]],
            path: "scenes[1].links[0]")
        let rendered = try mapping.render(pathParameters(["doc": "42"]))
        #expect(rendered.value == "42")
        #expect(rendered.plan?.steps == [.push(["screen": "page", "doc": "42"])])
        #expect(!mapping.requiresAuth)
    }

    @Test("without a plan the path is left alone; with an empty plan it is reset")
    func planPresence() throws {
        let none = try LinkTemplateMapping(json: ["pattern": "/a"], path: "m")
        #expect(try none.render(pathParameters([:])).plan == nil)
        let empty = try LinkTemplateMapping(json: ["pattern": "/a", "plan": []], path: "m")
        #expect(try empty.render(pathParameters([:])).plan == FlowPlan.empty)
    }

    @Test("problems are reported with their JSON paths when the mapping is built", arguments: [
        (JSONValue.object(["pattern": "/v/:doc", "value": "${id}"]), ["m.value"]),
        (["pattern": "/v/:doc", "plan": [["type": "popover", "route": 1]]], ["m.plan[0].type"]),
        (["pattern": "/v/:doc", "plan": [["type": "sheet", "route": 1], ["type": "push", "route": 2]]], ["m.plan"]),
        (["pattern": "/v/*rest/x"], ["m.pattern"]),
        (["value": "x"], ["m.pattern"]),
        (["pattern": "/v", "requiresAuth": "yes"], ["m.requiresAuth"]),
        (["pattern": "/v", "extra": 1], ["m.extra"]),
        (["pattern": "/v", "plan": [:]], ["m.plan"]),
    ] as [(JSONValue, [String])])
    func buildErrors(json: JSONValue, paths: [String]) {
        do {
            _ = try LinkTemplateMapping(json: json, path: "m")
            Issue.record("building \(json) must fail")
        } catch {
            #expect(error.problems.map(\.path) == paths)
        }
    }

    @Test("double and bool conversions reject values that do not convert", arguments: [
        ("${v:double}", "abc", "double"), ("${v:double}", "inf", "double"), ("${v:bool}", "maybe", "bool"),
    ])
    func badConversions(template: String, value: String, expected: String) throws {
        let compiled = try LinkTemplate(.string(template), parameters: ["v"])
        #expect(throws: LinkRejection.invalidParameter(name: "v", value: value, expected: expected)) {
            try compiled.render(pathParameters(["v": value]))
        }
    }
}
