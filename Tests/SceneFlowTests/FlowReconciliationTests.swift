import SceneFlow
import Testing

@Suite("Reconciling with the path a UI toolkit observed")
struct FlowReconciliationTests {
    typealias Steps = [RouteStep<String>]

    @Test("the difference is the fewest intents: pops, then pushes, from the longest common prefix; a modal change as dismiss, sheet or cover")
    func fewestIntents() {
        let cases: [(from: Steps, to: Steps, intents: [FlowIntent<String>])] = [
            ([.push("a"), .push("b")], [.push("a")], [.pop]),
            ([.push("a"), .push("b"), .push("c")], [.push("a")], [.popCount(2)]),
            ([.push("a"), .push("b")], [.push("a"), .push("c")], [.pop, .push("c")]),
            ([.push("a")], [.push("a"), .push("b"), .push("c")], [.pushMany(["b", "c"])]),
            ([.push("a"), .sheet("s")], [.push("a")], [.dismiss]),
            ([.push("a")], [.push("a"), .cover("c")], [.cover("c")]),
            ([.push("a"), .sheet("s")], [.push("a"), .cover("s")], [.dismiss, .cover("s")]),
            ([.push("a"), .push("b"), .sheet("s")], [.push("a"), .sheet("s")], [.dismiss, .pop, .sheet("s")]),
            ([.push("a"), .sheet("s")], [.push("a"), .sheet("s")], []),
        ]
        for item in cases {
            #expect(FlowReconciliation.intents(from: item.from, to: item.to) == item.intents, "\(item.from) → \(item.to)")
        }
    }

    @Test("applied to a flow showing the current path, the intents always reach the observed path")
    func intentsReachObserved() {
        // Every valid path of up to three pushes from {a, b} and an optional sheet or cover.
        var stacks: [Steps] = [[]]
        var longest: [Steps] = [[]]
        for _ in 0..<3 {
            longest = longest.flatMap { stack in ["a", "b"].map { stack + [.push($0)] } }
            stacks += longest
        }
        let paths = stacks + stacks.flatMap { stack in [stack + [.sheet("m")], stack + [.cover("m")]] }
        for from in paths {
            for to in paths {
                var flow = FlowStore<String>()
                _ = flow.send(.reset(from))
                flow.transaction(FlowReconciliation.intents(from: from, to: to))
                #expect(flow.path == to, "\(from) → \(to)")
            }
        }
    }
}
