// flow-bench: intents per second for a mixed push/pop/sheet/dismiss workload.
//
// Run with `swift run -c release flow-bench [--seconds S] [--rounds N] [--only LABEL]`
// (LABEL: one case, as the table names it, e.g. "0 middleware, 1 subscriber").
import BenchSupport
import Foundation
import SceneFlow

/// A small route type, as an app would declare.
enum Screen: Hashable, Codable, Sendable {
    case list
    case detail(Int)
    case sheet(Int)
}

/// A workload that keeps the path between 0 and 64 pushes deep, with a sheet shown and
/// dismissed now and then, about 45% pushes, 45% pops, 5% sheets, 5% dismisses.
func workload(count: Int) -> [FlowIntent<Screen>] {
    var rng = SplitMix(seed: 42)
    var depth = 0
    var modal = false
    var intents: [FlowIntent<Screen>] = []
    intents.reserveCapacity(count)
    while intents.count < count {
        let roll = Int.random(in: 0..<100, using: &rng)
        if modal {
            intents.append(.dismiss)
            modal = false
        } else if roll < 5 {
            intents.append(.sheet(.sheet(roll)))
            modal = true
        } else if (roll < 52 && depth < 64) || depth == 0 {
            intents.append(.push(depth == 0 ? .list : .detail(roll)))
            depth += 1
        } else {
            intents.append(.pop)
            depth -= 1
        }
    }
    return intents
}

struct Counting: FlowMiddleware {
    typealias FlowRoute = Screen
    let name: String
}

struct Result {
    let label: String
    let perSecond: Double
}

func measure(middlewares: Int, subscribers: Int, duration: Double) async -> Result {
    let intents = workload(count: 1 << 16)
    var store = FlowStore<Screen>()
    for index in 0..<middlewares { store.addMiddleware(Counting(name: "m\(index)")) }
    let broadcaster = EventBroadcaster<FlowEvent<Screen>>()
    var readers: [Task<Int, Never>] = []
    for _ in 0..<subscribers {
        let stream = broadcaster.subscribe(buffering: .newest(1024))
        readers.append(Task { var seen = 0; for await _ in stream { seen += 1 }; return seen })
    }
    store.recordsEvents = subscribers > 0
    var sent = 0
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .milliseconds(Int(duration * 1000))
    while clock.now < deadline {
        if store.recordsEvents {
            // As an owner does: publish what each intent recorded before the next one.
            var events: [FlowEvent<Screen>] = []
            for intent in intents {
                store.send(intent)
                store.takeEvents(into: &events)
                broadcaster.publish(contentsOf: events)
                events.removeAll(keepingCapacity: true)
            }
        } else {
            for intent in intents {
                store.send(intent)
            }
        }
        sent += intents.count
    }
    let elapsed = clock.now - start
    broadcaster.finish()
    for reader in readers { _ = await reader.value }
    return Result(
        label: "\(middlewares) middleware, \(subscribers) subscriber",
        perSecond: Double(sent) / seconds(elapsed))
}

let duration = option("--seconds", default: 1)
let rounds = max(1, Int(option("--rounds", default: 3)))
let only = textOption("--only")

print("flow-bench: mixed push/pop/sheet/dismiss on paths 0-64 deep; \(rounds) rounds of \(duration) s per case")
print("case                              min      median   max   (million intents/s)")
var medians: [String: Double] = [:]
for middlewares in [0, 4] {
    for subscribers in [0, 1] {
        if let only, only != "\(middlewares) middleware, \(subscribers) subscriber" { continue }
        var figures: [Double] = []
        var label = ""
        for _ in 0..<rounds {
            let result = await measure(middlewares: middlewares, subscribers: subscribers, duration: duration)
            figures.append(result.perSecond / 1e6)
            label = result.label
        }
        medians[label] = median(figures)
        print(padded(label, 30) + spread(figures, format: "%7.2f"))
    }
}
for (label, aim) in [("0 middleware, 0 subscriber", 2.0), ("0 middleware, 1 subscriber", 2.0)] {
    guard let measured = medians[label] else { continue }
    print("aim: \(label) ≥ \(aim) million intents/s | \(String(format: "%.2f", measured)) million/s | \(measured >= aim ? "yes" : "no")")
}
