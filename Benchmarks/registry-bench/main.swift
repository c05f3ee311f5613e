// registry-bench: registry operations per second with 10, 1,000 and 100,000 live
// instances, and the memory an idle instance costs.
//
// Run with `swift run -c release registry-bench [--seconds S] [--rounds N] [--live N]
// [--warm-up S]` (--live: only that many live instances, 10, 1000 or 100000; --warm-up:
// how long each case runs untimed before its rounds, 1 s by default).
//
// One caller task, not on the main actor: a registry without a coordinator runs on an
// executor of its own that the cooperative pool switches to on the caller's thread, so
// what is measured is the registry's work, not thread hand-offs.
import BenchSupport
import Foundation
import SceneCore
import SceneFlow

let manifestText = #"""
    {"app": "bench",
     "links": {"schemes": ["demo"], "hosts": ["demo.example"]},
     "scenes": [
       {"id": "doc", "kind": "window", "instances": "perValue",
        "links": [{"pattern": "/doc/:id", "value": "${id:int}",
                   "plan": [{"type": "push", "route": {"screen": "page", "doc": "${id:int}"}}]}]},
       {"id": "notes", "kind": "window"}
     ]}
    """#

/// Resident memory of this process, in bytes.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Runs `body` repeatedly for `duration` seconds; returns operations per second.
func rate(duration: Double, operationsPerCall: Int, _ body: (Int) async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var calls = 0
    while seconds(clock.now - start) < duration {
        try await body(calls)
        calls += 1
    }
    return Double(calls * operationsPerCall) / seconds(clock.now - start)
}

struct Row {
    let live: Int
    let label: String
    var figures: [Double] = []
}

/// Every case, from a task that is not on the main actor.
func measure(duration: Double, warmUp: Double, rounds: Int, live counts: [Int]) async throws -> (rows: [Row], memory: [String]) {
    let manifest = try Manifest.load(from: Data(manifestText.utf8))
    var rows: [Row] = []
    var memoryLines: [String] = []
    for live in counts {
        let registry = try SceneRegistry(manifest: manifest)
        let before = residentBytes()
        for value in 0..<live { _ = try await registry.open("doc", value: .integer(value)) }
        let after = residentBytes()
        memoryLines.append("  \(live) live instances: \(String(format: "%.0f", Double(after - before) / Double(live))) bytes each (RSS grew \(String(format: "%.1f", Double(after - before) / 1_048_576)) MiB)")
        var cycle = Row(live: live, label: "open + focus + dismiss")
        var link = Row(live: live, label: "deep links")
        // One cycle is three requests: open a window, focus a live one, dismiss the new one
        // (forced: the virtual window has nobody to ask).
        let cycleOnce = { (n: Int) async throws in
            let opened = try await registry.open("notes").instance.id
            try await registry.focus(InstanceID(scene: "doc", number: 1 + n % live))
            try await registry.dismiss(opened, force: true)
        }
        // A link to a live value: match, land in the instance, reset its path, focus it.
        let linkOnce = { (n: Int) async in
            guard case .handled = await registry.openLink("demo://demo.example/doc/\(n % live)") else {
                fatalError("the benchmark's link must be handled")
            }
        }
        // Both run untimed first: the first second of load in a fresh process measured up
        // to a third below the rounds after it (the machine's, not the registry's: the
        // profile of a slow round is a fast one's), which made the first case, 10 live,
        // look slower than 100,000.
        _ = try await rate(duration: warmUp, operationsPerCall: 3, cycleOnce)
        _ = await rate(duration: warmUp, operationsPerCall: 1, linkOnce)
        for _ in 0..<rounds {
            cycle.figures.append(try await rate(duration: duration, operationsPerCall: 3, cycleOnce))
            link.figures.append(await rate(duration: duration, operationsPerCall: 1, linkOnce))
        }
        rows += [cycle, link]
    }
    return (rows, memoryLines)
}

let duration = option("--seconds", default: 1)
let rounds = max(1, Int(option("--rounds", default: 3)))
let warmUp = option("--warm-up", default: 1)
let counts = textOption("--live").flatMap { Int($0) }.map { [$0] } ?? [10, 1_000, 100_000]
print("registry-bench: \(rounds) rounds of \(duration) s per case, one caller task; operations per second, min / median / max")
let (rows, memoryLines) = try await measure(duration: duration, warmUp: warmUp, rounds: rounds, live: counts)

for row in rows {
    print("  " + padded("\(row.live) live, \(row.label)", 40) + spread(row.figures, format: "%9.0f"))
}
for label in ["open + focus + dismiss", "deep links"] {
    guard let small = rows.first(where: { $0.live == 10 && $0.label == label }),
        let large = rows.first(where: { $0.live == 100_000 && $0.label == label })
    else { continue }
    print("  cost per operation, 100,000 vs 10 live instances, \(label): \(String(format: "%.2f", median(small.figures) / median(large.figures)))x")
}
print("memory per idle instance (RSS growth while opening them, divided by their number):")
for line in memoryLines { print(line) }
for (label, aim) in [("open + focus + dismiss", 500_000.0), ("deep links", 200_000.0)] {
    let worst = rows.filter { $0.label == label }.map { median($0.figures) }.min() ?? 0
    print("aim: \(label), one caller task, at 10 to 100,000 live instances ≥ \(Int(aim)) per second | \(String(format: "%.0f", worst)) per second (the lowest median) | \(worst >= aim ? "yes" : "no")")
}
