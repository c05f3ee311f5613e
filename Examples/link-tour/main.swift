// A tour of SceneLinks: builds a deep-link router and prints what each URL does.
import SceneLinks

/// What a link asks the app to show.
struct Destination: Sendable, CustomStringConvertible {
    let screen: String
    let detail: String
    var description: String { "\(screen)(\(detail))" }
}

let policy = LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["demo.example"])
var router = try LinkRouter<Destination>(
    mappings: [
        LinkMapping("/viewer/:doc") { params in
            Destination(screen: "viewer", detail: "doc \(try params.int("doc")), page \(params.value("page") ?? "1")")
        },
        LinkMapping("/viewer/new") { _ in Destination(screen: "editor", detail: "blank") },
        LinkMapping("/files/*path") { params in
            Destination(screen: "files", detail: params.segments("path")!.joined(separator: " > "))
        },
        LinkMapping("/theatre/:show", requiresAuth: true) { params in
            Destination(screen: "theatre", detail: params.value("show")!)
        },
    ],
    policy: policy)

func describe(_ decision: LinkDecision<Destination>) -> String {
    switch decision {
    case .handled(let match): return "handled   \(match.pattern) -> \(match.output)"
    case .pending(let link, let superseded):
        return "pending   \(link.pattern)" + (superseded.map { " (supersedes \($0.url))" } ?? "")
    case .rejected(let reason): return "rejected  \(reason.code): \(reason)"
    case .unhandled(let url): return "unhandled \(url.path)"
    }
}

let urls = [
    "demo://demo.example/viewer/42?page=3",
    "https://DEMO.example/viewer/new/",
    "demo://demo.example/viewer/forty-two",
    "demo://demo.example/files/photos/2026/../2025/a%2Fb.png",
    "demo://demo.example/nowhere",
    "https://evil.example/viewer/1",
    "https://user@demo.example/viewer/1",
    "demo://demo.example/theatre/hamlet",
    "demo://demo.example/theatre/lear",
]
for url in urls {
    print(url.padding(to: 58) + describe(router.open(url)))
}
if let replayed = router.authenticate() {
    print("after sign-in, the pending link replays:".padding(to: 58) + describe(replayed))
}

// A lenient build keeps what a strict build would refuse, for the caller to read.
let sloppy = try LinkRouter<Destination>(
    mappings: ["/p/:id", "/p/:name", "/q/*rest/x", "/:a/*rest", "/", "/*all"].map { pattern in
        LinkMapping(pattern) { _ in Destination(screen: "p", detail: "") }
    },
    policy: policy, strict: false)
print("\ndiagnostics of a lenient build:")
for diagnostic in sloppy.diagnostics {
    print("  \(diagnostic.code.padding(to: 24)) \(diagnostic)")
}

extension String {
    func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - count))
    }
}
