// link-bench: deep-link matching throughput with 10, 1,000 and 100,000 patterns, on
// pre-parsed paths and on whole URL strings (parse, origin policy and match included).
//
// Run with `swift run -c release link-bench [--seconds S] [--rounds N]`.
import BenchSupport
import Foundation
import SceneLinks

/// `count` distinct patterns in a realistic mix of shapes: literals, parameters, wildcards.
func patterns(count: Int) -> [String] {
    (0..<count).map { index in
        let section = "section\(index / 5)"
        switch index % 5 {
        case 0: return "/\(section)/items/:id"
        case 1: return "/\(section)/items/:id/edit"
        case 2: return "/\(section)/users/:user/posts/:post"
        case 3: return "/\(section)/files/*path"
        default: return "/\(section)/about"
        }
    }
}

/// URLs that hit patterns all over the set, plus some that miss.
func urls(patternCount: Int, count: Int) -> [String] {
    var rng = SplitMix(seed: 7)
    return (0..<count).map { _ in
        let index = Int.random(in: 0..<patternCount, using: &rng)
        let section = "section\(index / 5)"
        let path: String
        switch index % 5 {
        case 0: path = "/\(section)/items/\(Int.random(in: 1...99_999, using: &rng))"
        case 1: path = "/\(section)/items/\(Int.random(in: 1...99_999, using: &rng))/edit"
        case 2: path = "/\(section)/users/u\(index)/posts/\(Int.random(in: 1...999, using: &rng))"
        case 3: path = "/\(section)/files/docs/2026/report%20final.pdf"
        default: path = "/\(section)/about?ref=mail&lang=en"
        }
        return "https://demo.example" + path
    }
}

/// Runs `body` over `inputs` repeatedly for `duration` seconds; returns inputs per second.
func rate<Input>(_ inputs: [Input], duration: Double, _ body: (Input) -> Bool) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var done = 0
    var hits = 0
    while seconds(clock.now - start) < duration {
        for input in inputs where body(input) { hits += 1 }
        done += inputs.count
    }
    precondition(hits > 0, "the workload must match something")
    return Double(done) / seconds(clock.now - start)
}

let duration = option("--seconds", default: 1)
let rounds = max(1, Int(option("--rounds", default: 3)))
let policy = LinkOriginPolicy(schemes: ["https"], hosts: ["demo.example"])

print("link-bench: \(rounds) interleaved rounds of \(duration) s per case; million per second, min / median / max")

/// One measured case: a label and a function that runs it once.
struct Case {
    let patterns: Int
    let label: String
    let run: () -> Double
    var figures: [Double] = []
}

var cases: [Case] = []
for count in [10, 1_000, 100_000] {
    let clock = ContinuousClock()
    let buildStart = clock.now
    let router = try LinkRouter<Int>(
        mappings: patterns(count: count).enumerated().map { index, pattern in LinkMapping(pattern) { _ in index } },
        policy: policy)
    print("  \(count) patterns built, diagnostics included, in \(String(format: "%.3f", seconds(clock.now - buildStart))) s")
    let texts = urls(patternCount: count, count: 4096)
    let paths = texts.map { try! LinkURL(parsing: $0).segments }
    cases.append(Case(patterns: count, label: "parse only") {
        rate(texts, duration: duration) { (try? LinkURL(parsing: $0)) != nil }
    })
    cases.append(Case(patterns: count, label: "pre-parsed paths") {
        rate(paths, duration: duration) { router.matcher.match($0) != nil }
    })
    cases.append(Case(patterns: count, label: "whole URLs") {
        rate(texts, duration: duration) { text in
            if case .matched = router.evaluate(text) { return true }
            return false
        }
    })
    if count == 100_000 {
        // The same 100,000 patterns, but URLs that hit only the first 10 of them: the same
        // working set as the 10-pattern case, so any difference left is the pattern count.
        let hot = urls(patternCount: 10, count: 4096)
        cases.append(Case(patterns: count, label: "whole URLs, 10 hot") {
            rate(hot, duration: duration) { text in
                if case .matched = router.evaluate(text) { return true }
                return false
            }
        })
    }
}

// Interleave the cases round by round, so that the machine's drift affects all alike.
for _ in 0..<rounds {
    for index in cases.indices { cases[index].figures.append(cases[index].run() / 1e6) }
}


for entry in cases {
    print("  " + padded("\(entry.patterns) patterns, \(entry.label)", 38) + spread(entry.figures, format: "%6.2f"))
}
for (label, largeLabel) in [
    ("pre-parsed paths", "pre-parsed paths"), ("whole URLs", "whole URLs"), ("whole URLs", "whole URLs, 10 hot"),
] {
    let small = cases.first { $0.patterns == 10 && $0.label == label }!
    let large = cases.first { $0.patterns == 100_000 && $0.label == largeLabel }!
    // The time per item grows by rate(10) / rate(100,000); one ratio per round.
    let ratios = zip(small.figures, large.figures).map { $0 / $1 }
    print("  time per item, 100,000 vs 10 patterns, \(largeLabel): median \(String(format: "%.2f", median(ratios)))x (rounds: \(ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")))")
}
