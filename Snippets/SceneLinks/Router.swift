import SceneLinks

let policy = LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["demo.example"])
var router = try LinkRouter<String>(
    mappings: [
        LinkMapping("/viewer/:doc") { params in "viewer \(try params.int("doc"))" },
        LinkMapping("/files/*path") { params in "files \(params.segments("path")!)" },
        LinkMapping("/theatre/:show", requiresAuth: true) { params in "theatre \(params.value("show")!)" },
    ],
    policy: policy)

func show(_ decision: LinkDecision<String>?) {
    switch decision {
    case .handled(let match)?: print("handled:", match.output)
    case .pending(let link, _)?: print("pending:", link.url)
    case .rejected(let rejection)?: print("rejected:", rejection.code)
    case .unhandled(let url)?: print("unhandled:", url)
    case nil: print("nothing was pending")
    }
}

show(router.open("demo://demo.example/viewer/42?page=3"))   // `page` is a parameter too
show(router.open("https://evil.example/viewer/1"))
show(router.open("demo://demo.example/theatre/hamlet"))     // waits for sign-in
show(router.authenticate())                                 // the pending link, replayed
