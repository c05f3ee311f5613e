import SceneLinks
import Testing

/// The README's SceneLinks example, kept here so the documentation cannot drift.
@Suite("README deep-link example")
struct ReadmeLinkExampleTests {
    @Test("the README's links answer what the README says they answer")
    func readmeExample() throws {
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
