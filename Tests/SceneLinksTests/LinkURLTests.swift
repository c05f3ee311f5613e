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
]

let malformedTable: [(String, String)] = [
    ("https://user@demo.example/a", "non_canonical_origin"),
    ("https://user:pw@demo.example/a", "non_canonical_origin"),
    ("https://demo.example:443/a", "non_canonical_origin"),
    ("https://demo.example:/a", "non_canonical_origin"),
    ("https://[::1]/a", "non_canonical_origin"),
    ("demo:viewer/42", "malformed_url"),
    ("demo:/viewer/42", "malformed_url"),
    ("://demo.example/a", "malformed_url"),
    ("1demo://demo.example/a", "malformed_url"),
    ("de mo://demo.example/a", "malformed_url"),
    ("https:///a", "malformed_url"),
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
