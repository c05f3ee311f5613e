import SceneFlow
import SceneLinks
import Testing

/// A deterministic generator (SplitMix64) so a failure can be reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let knownCodes: Set<String> = [
    "malformed_url", "scheme_not_allowed", "host_not_allowed", "non_canonical_origin",
    "input_limit_exceeded", "invalid_parameter", "link_refused",
]

@Suite("Arbitrary strings: each gets a typed decision, and handled paths are normalised")
struct LinkFuzzTests {
    /// URL-ish fragments, so that random strings reach deep into the parser.
    let pieces = [
        "demo://", "https://", "demo.example", "DEMO.example", "/", "/", "//", "viewer", "files",
        "42", "%2F", "%2E%2E", "%", "%4", "%C3%A9", "%FF", "..", ".", "?", "&", "=", "#", "é",
        "日本", " ", "\\", "@", ":", "*", ":x", "\u{0}", "\u{7F}", "+", "a", "~", "[", "]", "\u{1F600}",
    ]

    @Test("every random string gets a typed decision, and handled paths are normalised")
    func randomStrings() throws {
        var router = try LinkRouter(
            mappings: [
                LinkMapping<String>("/viewer/:doc") { params in params.value("doc")! },
                LinkMapping<String>("/files/*path") { params in params.value("path")! },
                LinkMapping<String>("/*all", requiresAuth: true) { params in params.value("all")! },
            ],
            policy: LinkOriginPolicy(schemes: ["demo", "https"], hosts: ["demo.example"]))
        var generator = SeededGenerator(state: 0x5CE4E)
        var seen: [OutcomeName: Int] = [:]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &generator)
            var text = ""
            for _ in 0..<count {
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &generator)))
                } else {
                    text += pieces.randomElement(using: &generator)!
                }
            }
            let decision = router.open(text)
            seen[decision.name, default: 0] += 1
            switch decision {
            case .handled(let match):
                #expect(!match.url.segments.contains { $0.isEmpty || $0 == "." || $0 == ".." }, "\(text)")
            case .unhandled(let url):
                #expect(!url.segments.contains { $0.isEmpty || $0 == "." || $0 == ".." }, "\(text)")
            case .rejected(let reason):
                #expect(knownCodes.contains(reason.code), "\(text)")
            case .pending(let link, _):
                #expect(link.url == text)
            }
        }
        // The generator must reach every kind of decision, or the test proves little.
        #expect(seen[.rejected, default: 0] > 0)
        #expect(seen[.handled, default: 0] + seen[.pending, default: 0] > 0)
    }
}
