// flow-bench: intents per second for a mixed push/pop/sheet/dismiss workload.
//
// Run with `swift run -c release flow-bench [--seconds S]`.
import Foundation
import SceneFlow

/// A small route type, as an app would declare.
enum Screen: Hashable, Codable, Sendable {
    case list
    case detail(Int)
    case sheet(Int)
}

/// A deterministic generator (SplitMix64) so every run sends the same intents.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A workload that keeps the path between 0 and 64 pushes deep, with a sheet shown and
/// dismissed now and then, about 45% pushes, 45% pops, 5% sheets, 5% dismisses.
func workload(count: Int) -> [FlowIntent<Screen>] {
    var rng = SplitMix(state: 42)
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

func measure(middlewares: Int, subscribers: Int, seconds: Double) async -> Result {
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
    let deadline = start + .milliseconds(Int(seconds * 1000))
    while clock.now < deadline {
        if store.recordsEvents {
            // As an owner does: publish what each intent recorded before the next one.
            for intent in intents {
                store.send(intent)
                broadcaster.publish(contentsOf: store.takeEvents())
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
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Result(
        label: "\(middlewares) middleware, \(subscribers) subscriber",
        perSecond: Double(sent) / seconds)
}

func option(_ name: String, default value: Double) -> Double {
    guard let index = CommandLine.arguments.firstIndex(of: name),
        index + 1 < CommandLine.arguments.count, let parsed = Double(CommandLine.arguments[index + 1])
    else { return value }
    return parsed
}

let seconds = option("--seconds", default: 1)
let rounds = max(1, Int(option("--rounds", default: 3)))

print("flow-bench: mixed push/pop/sheet/dismiss on paths 0-64 deep; \(rounds) rounds of \(seconds) s per case")
print("case                              min      median   max   (million intents/s)")
for middlewares in [0, 4] {
    for subscribers in [0, 1] {
        var figures: [Double] = []
        var label = ""
        for _ in 0..<rounds {
            let result = await measure(middlewares: middlewares, subscribers: subscribers, seconds: seconds)
            figures.append(result.perSecond / 1e6)
            label = result.label
        }
        figures.sort()
        let columns = [figures.first!, figures[figures.count / 2], figures.last!]
            .map { String(format: "%7.2f", $0) }.joined(separator: "  ")
        print(label.padding(toLength: 30, withPad: " ", startingAt: 0) + columns)
    }
}
