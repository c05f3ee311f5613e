// Fuzz target: a deep link. The first line is a URL, opened against the demo app's
// patterns (signed out, then in), and against a lenient router built from the other
// lines as patterns (with the diagnostics that build finds). Invariant: parsing is a
// function of the text (the same URL parses to the same value twice).
import SceneLinks

let demoRouter: LinkRouter<String> = try! LinkRouter(
    mappings: ["/viewer/:doc", "/theatre/:show", "/notes/*rest", "/a/b", "/a/:x/c"].map { pattern in
        LinkMapping(pattern) { parameters in "\(pattern) \(parameters)" }
    },
    policy: LinkOriginPolicy(origins: [
        LinkOrigin(scheme: "demo", hosts: ["demo.example"]), LinkOrigin(scheme: "https", hosts: ["demo.example"]),
        // A custom scheme whose host is the route's first segment.
        LinkOrigin(scheme: "myapp"),
    ]))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinks(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let url = lines.first ?? ""
    var router = demoRouter
    _ = router.open(url)
    _ = router.setAuthenticated(true)
    let first = try? LinkURL(parsing: url)
    precondition(first == (try? LinkURL(parsing: url)), "the same URL parsed two ways: \(url)")
    let patterns = Array(lines.dropFirst().prefix(32))
    if !patterns.isEmpty, let lenient = try? LinkRouter<Int>(
        mappings: patterns.enumerated().map { index, pattern in LinkMapping(pattern) { _ in index } },
        policy: LinkOriginPolicy(schemes: ["demo"], hosts: ["h"]), strict: false)
    {
        _ = lenient.evaluate("demo://h" + (url.hasPrefix("/") ? url : "/" + url))
    }
    return 0
}
