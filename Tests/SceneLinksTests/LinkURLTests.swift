import SceneLinks
import Testing

struct URLCase: Sendable, CustomTestStringConvertible {
    let url: String
    let segments: [String]
    var query: [String] = []
    var testDescription: String { url }
}

let parsingTable: [URLCase] = [
    URLCase(url: "demo://demo.example/viewer/42", segments: ["viewer", "42"]),
    URLCase(url: "https://demo.example/a%2Fb/c", segments: ["a/b", "c"]),
    URLCase(url: "https://demo.example/a/%252F", segments: ["a", "%2F"]),
    URLCase(url: "https://demo.example/caf%C3%A9", segments: ["café"]),
    URLCase(url: "https://demo.example/café/日本", segments: ["café", "日本"]),
    URLCase(url: "https://demo.example/a/../b", segments: ["b"]),
    URLCase(url: "https://demo.example/a/./b/.", segments: ["a", "b"]),
    URLCase(url: "https://demo.example/../../a", segments: ["a"]),
    URLCase(url: "https://demo.example/a/%2E%2E/b", segments: ["b"]),
    URLCase(url: "https://demo.example/a/%2e/b", segments: ["a", "b"]),
    URLCase(url: "https://demo.example//a///b//", segments: ["a", "b"]),
    URLCase(url: "https://demo.example/a//../b", segments: ["a", "b"]),
    URLCase(url: "https://demo.example/a/b/..", segments: ["a"]),
    URLCase(url: "https://demo.example", segments: []),
    URLCase(url: "https://demo.example/", segments: []),
    URLCase(url: "https://demo.example?x=1", segments: [], query: ["x=1"]),
    URLCase(url: "https://demo.example/p?a=1&a=2&b", segments: ["p"], query: ["a=1", "a=2", "b="]),
    URLCase(url: "https://demo.example/p?a=1+2&c=%26&d=x=y", segments: ["p"], query: ["a=1+2", "c=&", "d=x=y"]),
    URLCase(url: "https://demo.example/p?q=%E2%9C%93&%6E=v", segments: ["p"], query: ["q=✓", "n=v"]),
    URLCase(url: "https://demo.example/p?&&x=1&=y", segments: ["p"], query: ["x=1"]),
    URLCase(url: "https://demo.example/p#frag/ment?x=1", segments: ["p"]),
    URLCase(url: "https://demo.example/p?x=/a/b#f", segments: ["p"], query: ["x=/a/b"]),
    URLCase(url: "a+b.c-d://demo.example/x", segments: ["x"]),
    // Without an authority, or with an empty host, there is only a path.
    URLCase(url: "demo:viewer/42", segments: ["viewer", "42"]),
    URLCase(url: "demo:/viewer/42", segments: ["viewer", "42"]),
    URLCase(url: "demo:///viewer/42", segments: ["viewer", "42"]),
]

let malformedTable: [(String, String)] = [
    ("https://user@demo.example/a", "non_canonical_origin"),
    ("https://user:pw@demo.example/a", "non_canonical_origin"),
    ("https://demo.example:443/a", "non_canonical_origin"),
    ("https://demo.example:/a", "non_canonical_origin"),
    ("https://[::1]/a", "non_canonical_origin"),
    ("://demo.example/a", "malformed_url"),
    ("1demo://demo.example/a", "malformed_url"),
    ("de mo://demo.example/a", "malformed_url"),
    ("https://demo.example/a b", "malformed_url"),
    ("https://demo.example/%zz", "malformed_url"),
    ("https://demo.example/%4", "malformed_url"),
    ("https://demo.example/a%", "malformed_url"),
    ("https://demo.example/%FF", "malformed_url"),
    ("https://demo.example/%C3", "malformed_url"),
    ("https://demo.example/%00", "malformed_url"),
    ("https://demo.example/a?x=%1F", "malformed_url"),
    ("https://demo.example/a?x=%G0", "malformed_url"),
    ("https://demo.example\\a", "malformed_url"),
    ("https://demo.example/a\tb", "malformed_url"),
    ("https://demo.example/a\u{7F}", "malformed_url"),
    ("https://démo.example/a", "malformed_url"),
    ("https://demo%2Eexample/a", "malformed_url"),
    ("", "malformed_url"),
    ("demo", "malformed_url"),
]

@Suite("Link URL parsing")
struct LinkURLTests {
    @Test("URLs parse into normalised, decoded segments and query items", arguments: parsingTable)
    func parses(_ row: URLCase) throws {
        let url = try LinkURL(parsing: row.url)
        #expect(url.segments == row.segments)
        #expect(url.queryItems.map { "\($0.name)=\($0.value)" } == row.query)
    }

    @Test("scheme and host are lowercased; the path keeps its case")
    func caseRules() throws {
        let url = try LinkURL(parsing: "DEMO://Demo.EXAMPLE/Viewer/AbC")
        #expect(url.scheme == "demo")
        #expect(url.host == "demo.example")
        #expect(url.segments == ["Viewer", "AbC"])
    }

    @Test("malformed URLs are refused with a typed reason", arguments: malformedTable)
    func refuses(url: String, code: String) {
        #expect(throws: LinkRejection.self) { try LinkURL(parsing: url) }
        do {
            _ = try LinkURL(parsing: url)
        } catch {
            #expect(error.code == code)
        }
    }

    @Test("a URL over the length limit is refused naming the limit")
    func lengthLimit() {
        let url = "https://demo.example/" + String(repeating: "a", count: 8192)
        #expect(throws: LinkRejection.inputLimitExceeded(.urlLength, limit: 8192, actual: url.utf8.count)) {
            try LinkURL(parsing: url)
        }
    }

    @Test("the length limit is checked before parsing: an over-long garbage string is a limit error")
    func limitBeforeParsing() {
        let garbage = String(repeating: "%", count: 9000)
        #expect(throws: LinkRejection.inputLimitExceeded(.urlLength, limit: 8192, actual: 9000)) {
            try LinkURL(parsing: garbage)
        }
    }

    @Test("more path segments than the limit are refused; exactly the limit is accepted")
    func segmentLimit() throws {
        let atLimit = "https://demo.example" + String(repeating: "/s", count: 128)
        #expect(try LinkURL(parsing: atLimit).segments.count == 128)
        let over = "https://demo.example" + String(repeating: "/s", count: 129)
        #expect(throws: LinkRejection.inputLimitExceeded(.pathSegments, limit: 128, actual: 129)) {
            try LinkURL(parsing: over)
        }
    }

    @Test("more query items than the limit are refused")
    func queryLimit() throws {
        let items = (0..<257).map { "k\($0)=v" }.joined(separator: "&")
        #expect(throws: LinkRejection.inputLimitExceeded(.queryItems, limit: 256, actual: 257)) {
            try LinkURL(parsing: "https://demo.example/p?" + items)
        }
    }

    @Test("limits accept inputs exactly at the limit")
    func exactlyAtLimits() throws {
        let prefix = "https://demo.example/"
        let long = prefix + String(repeating: "a", count: 8192 - prefix.utf8.count)
        #expect(try LinkURL(parsing: long).segments.count == 1)
        let query = (0..<256).map { "k\($0)=v" }.joined(separator: "&")
        #expect(try LinkURL(parsing: prefix + "p?" + query).queryItems.count == 256)
    }

    @Test("limits are configurable")
    func customLimits() {
        let limits = LinkLimits(maxURLLength: 30, maxPathSegments: 2, maxQueryItems: 1)
        #expect(throws: LinkRejection.inputLimitExceeded(.pathSegments, limit: 2, actual: 3)) {
            try LinkURL(parsing: "demo://d/a/b/c", limits: limits)
        }
        #expect(throws: LinkRejection.inputLimitExceeded(.queryItems, limit: 1, actual: 2)) {
            try LinkURL(parsing: "demo://d/a?x&y", limits: limits)
        }
    }
}

@Suite("Origin policy")
struct LinkOriginPolicyTests {
    let policy = LinkOriginPolicy(schemes: ["demo", "HTTPS"], hosts: ["Demo.Example", "other.example"])

    @Test("any listed scheme with any listed host is allowed, case-insensitively", arguments: [
        "demo://demo.example/a", "https://demo.example/a", "demo://other.example/a",
        "HTTPS://DEMO.EXAMPLE/a",
    ])
    func allowed(url: String) throws {
        #expect(policy.check(try LinkURL(parsing: url)) == nil)
    }

    @Test("an unlisted scheme or host is refused", arguments: [
        ("http://demo.example/a", LinkRejection.schemeNotAllowed("http")),
        ("demo://evil.example/a", .hostNotAllowed("evil.example")),
        ("demo://demo.example.evil/a", .hostNotAllowed("demo.example.evil")),
    ])
    func refused(url: String, rejection: LinkRejection) throws {
        #expect(policy.check(try LinkURL(parsing: url)) == rejection)
    }

    @Test("an empty allowlist refuses everything")
    func failClosed() throws {
        let url = try LinkURL(parsing: "demo://demo.example/a")
        #expect(LinkOriginPolicy.closed.check(url) == .schemeNotAllowed("demo"))
        #expect(LinkOriginPolicy(schemes: ["demo"], hosts: []).check(url) == .hostNotAllowed("demo.example"))
    }
}

@Suite("Origin rules")
struct LinkOriginRuleTests {
    /// Universal links on one host, and a custom scheme whose host is the route.
    let policy = LinkOriginPolicy(origins: [LinkOrigin(scheme: "https", hosts: ["app.example"]), LinkOrigin(scheme: "myapp")])

    @Test("a custom scheme without hosts reads the host as the route's first segment, in all three forms", arguments: [
        "myapp://profile/7", "myapp:///profile/7", "myapp:profile/7", "MYAPP://Profile/7",
    ])
    func hostIsRoute(url: String) throws {
        let admitted = try policy.admit(try LinkURL(parsing: url)).get()
        #expect(admitted.path.lowercased() == "/profile/7")
    }

    @Test("a web origin routes by its path, and allows only its listed hosts")
    func webOrigin() throws {
        #expect(try policy.admit(try LinkURL(parsing: "https://app.example/profile/7")).get().path == "/profile/7")
        #expect(policy.check(try LinkURL(parsing: "https://profile/7")) == .hostNotAllowed("profile"))
        #expect(policy.check(try LinkURL(parsing: "https:///profile/7")) == .hostNotAllowed(""))
        #expect(policy.check(try LinkURL(parsing: "ftp://app.example/a")) == .schemeNotAllowed("ftp"))
    }

    @Test("rules are kept apart: the custom scheme's any-host does not open https to other hosts, nor the reverse")
    func rulesApart() throws {
        #expect(policy.check(try LinkURL(parsing: "https://elsewhere.example/a")) == .hostNotAllowed("elsewhere.example"))
        #expect(policy.check(try LinkURL(parsing: "myapp://app.example/a")) == nil)
    }

    @Test("a host that would be a dot segment of the route is refused; a web link needs a host whatever its rule says")
    func hostGuards() throws {
        #expect(policy.check(try LinkURL(parsing: "myapp://../x")) == .malformedURL(#"a host that is a route segment cannot be "..""#))
        #expect(policy.check(try LinkURL(parsing: "myapp://./x")) != nil)
        let lax = LinkOriginPolicy(origins: [LinkOrigin(scheme: "https")])
        #expect(lax.check(try LinkURL(parsing: "https:profile/7")) == .hostNotAllowed(""))
    }

    @Test("the path-segment limit counts the segments of a link without an authority, and a host that is a route segment")
    func segmentLimit() throws {
        let limits = LinkLimits(maxURLLength: 2048, maxPathSegments: 2, maxQueryItems: 8)
        #expect(throws: LinkRejection.inputLimitExceeded(.pathSegments, limit: 2, actual: 3)) {
            try LinkURL(parsing: "myapp:a/b/c", limits: limits)
        }
        let router = try LinkRouter(mappings: [LinkMapping("/a/:b") { _ in 1 }], policy: policy, limits: limits)
        guard case .rejected(let rejection) = router.evaluate("myapp://a/b/c") else {
            Issue.record("three route segments must be over a limit of two")
            return
        }
        #expect(rejection == .inputLimitExceeded(.pathSegments, limit: 2, actual: 3))
    }

    @Test("a custom scheme with hostIsRoute false routes by its path")
    func hostNotRoute() throws {
        let plain = LinkOriginPolicy(origins: [LinkOrigin(scheme: "myapp", hostIsRoute: false)])
        #expect(try plain.admit(try LinkURL(parsing: "myapp://profile/7")).get().path == "/7")
    }

    @Test("the older form is every scheme with every host, the host never the route")
    func olderForm() throws {
        let older = LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["a.example", "b.example"])
        let rules = LinkOriginPolicy(origins: [
            LinkOrigin(scheme: "demo", hosts: ["a.example", "b.example"], hostIsRoute: false),
            LinkOrigin(scheme: "https", hosts: ["a.example", "b.example"], hostIsRoute: false),
        ])
        for url in ["demo://a.example/x", "https://b.example/y", "demo://c.example/x", "ftp://a.example/x", "demo:x"] {
            let parsed = try LinkURL(parsing: url)
            #expect(older.admit(parsed) == rules.admit(parsed), "\(url)")
        }
    }

    @Test("a router with a host-as-route origin matches /profile/:id from myapp://profile/7")
    func routerMatches() throws {
        var router = try LinkRouter(mappings: [LinkMapping("/profile/:id") { try $0.int("id") }], policy: policy)
        guard case .handled(let match) = router.open("myapp://profile/7") else {
            Issue.record("myapp://profile/7 must be handled")
            return
        }
        #expect(match.output == 7)
        guard case .unhandled(let url) = router.open("myapp://settings") else {
            Issue.record("myapp://settings matches no pattern")
            return
        }
        #expect(url.path == "/settings")
    }
}
