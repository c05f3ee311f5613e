import SceneLinks
import Testing

/// Runs the example of SceneLinks' overview as written: the catalog page
/// Sources/SceneLinks/SceneLinks.docc/SceneLinks.md shows it, with each decision in a
/// comment, so the documentation cannot drift.
@Suite("The documented deep-link example runs as written")
struct LinkDocumentedExampleTests {
    @Test("the overview's links answer what its comments say they answer")
    func documentedExample() throws {
        let policy = LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["demo.example"])
        var router = try LinkRouter<String>(
            mappings: [
                LinkMapping("/viewer/:doc") { params in "viewer \(try params.int("doc"))" },
                LinkMapping("/files/*path") { params in "files \(params.segments("path")!)" },
                LinkMapping("/theatre/:show", requiresAuth: true) { params in "theatre \(params.value("show")!)" },
            ],
            policy: policy)
        guard case .handled(let viewer) = router.open("demo://demo.example/viewer/42?page=3") else {
            Issue.record("the viewer link must be handled")
            return
        }
        #expect(viewer.output == "viewer 42")
        #expect(viewer.parameters.value("page") == "3")
        #expect(router.open("https://evil.example/viewer/1") == .rejected(.hostNotAllowed("evil.example")))
        #expect(router.open("demo://demo.example/theatre/hamlet").name == "pending")
        let replayed = router.authenticate()
        guard case .handled(let theatre) = replayed else {
            Issue.record("the pending link must replay after sign-in")
            return
        }
        #expect(theatre.output == "theatre hamlet")
    }
}
