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
}
