import SceneFlow
import SceneJSON
import Testing

/// What a rule table row expects an intent to do.
enum Expected: Hashable, Sendable {
    case changed
    case queued
    case unchanged
    case rejected(String)
}

/// One row: the state before, the intent, and what must happen.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: String
    var path: [RouteStep<String>] = []
    var queue: [RouteStep<String>] = []
    let intent: FlowIntent<String>
    let expected: Expected
    let after: [RouteStep<String>]

    var testDescription: String { rule }
}

func store(_ path: [RouteStep<String>], queue: [RouteStep<String>] = []) throws -> FlowStore<String> {
    try FlowStore(restoring: FlowSnapshot(path: path, queuedModals: queue))
}

func expectation(of outcome: FlowOutcome<String>) -> Expected {
    switch outcome {
    case .changed: return .changed
    case .queued: return .queued
    case .unchanged: return .unchanged
    case .rejected(let reason): return .rejected(reason.code)
    }
}

let ab: [RouteStep<String>] = [.push("a"), .push("b")]
let abSheet: [RouteStep<String>] = [.push("a"), .push("b"), .sheet("s")]

let ruleTable: [RuleCase] = [
    RuleCase(rule: "push appends to the stack", path: ab, intent: .push("c"), expected: .changed,
             after: ab + [.push("c")]),
    RuleCase(rule: "push under a sheet is rejected push_blocked_by_modal_tail", path: abSheet,
             intent: .push("c"), expected: .rejected("push_blocked_by_modal_tail"), after: abSheet),
    RuleCase(rule: "push under a cover is rejected", path: [.cover("c")], intent: .push("x"),
             expected: .rejected("push_blocked_by_modal_tail"), after: [.cover("c")]),
    RuleCase(rule: "pushMany appends every route", path: ab, intent: .pushMany(["c", "d"]),
             expected: .changed, after: ab + [.push("c"), .push("d")]),
    RuleCase(rule: "pushMany under a modal is rejected", path: abSheet, intent: .pushMany(["c"]),
             expected: .rejected("push_blocked_by_modal_tail"), after: abSheet),
    RuleCase(rule: "pushMany of nothing is unchanged", path: ab, intent: .pushMany([]),
             expected: .unchanged, after: ab),
    RuleCase(rule: "sheet shows at the tail", path: ab, intent: .sheet("s"), expected: .changed,
             after: abSheet),
    RuleCase(rule: "cover shows at the tail", path: ab, intent: .cover("c"), expected: .changed,
             after: ab + [.cover("c")]),
    RuleCase(rule: "sheet while a modal shows is queued and the path is unchanged", path: abSheet,
             intent: .sheet("t"), expected: .queued, after: abSheet),
    RuleCase(rule: "cover while a modal shows is queued", path: abSheet, intent: .cover("c"),
             expected: .queued, after: abSheet),
    RuleCase(rule: "pop removes the top push", path: ab, intent: .pop, expected: .changed,
             after: [.push("a")]),
    RuleCase(rule: "pop on an empty stack is unchanged", intent: .pop, expected: .unchanged, after: []),
    RuleCase(rule: "pop under a modal is rejected pop_blocked_by_modal_tail", path: abSheet,
             intent: .pop, expected: .rejected("pop_blocked_by_modal_tail"), after: abSheet),
    RuleCase(rule: "popCount pops n pushes", path: ab + [.push("c")], intent: .popCount(2),
             expected: .changed, after: [.push("a")]),
    RuleCase(rule: "popCount beyond the depth is rejected insufficient_depth", path: ab,
             intent: .popCount(3), expected: .rejected("insufficient_depth"), after: ab),
    RuleCase(rule: "popCount of zero is unchanged", path: ab, intent: .popCount(0),
             expected: .unchanged, after: ab),
    RuleCase(rule: "popCount with a negative count is rejected invalid_count", path: ab,
             intent: .popCount(-1), expected: .rejected("invalid_count"), after: ab),
    RuleCase(rule: "popCount under a modal is rejected", path: abSheet, intent: .popCount(1),
             expected: .rejected("pop_blocked_by_modal_tail"), after: abSheet),
    RuleCase(rule: "popTo pops above the topmost equal route",
             path: [.push("a"), .push("b"), .push("a"), .push("c")], intent: .popTo("a"),
             expected: .changed, after: [.push("a"), .push("b"), .push("a")]),
    RuleCase(rule: "popTo the top route is unchanged", path: ab, intent: .popTo("b"),
             expected: .unchanged, after: ab),
    RuleCase(rule: "popTo a route not in the stack is rejected route_not_found", path: ab,
             intent: .popTo("z"), expected: .rejected("route_not_found"), after: ab),
    RuleCase(rule: "popTo under a modal is rejected", path: abSheet, intent: .popTo("a"),
             expected: .rejected("pop_blocked_by_modal_tail"), after: abSheet),
    RuleCase(rule: "popToRoot empties the stack", path: ab, intent: .popToRoot, expected: .changed,
             after: []),
    RuleCase(rule: "popToRoot on the root is unchanged", intent: .popToRoot, expected: .unchanged,
             after: []),
    RuleCase(rule: "popToRoot under a modal is rejected", path: abSheet, intent: .popToRoot,
             expected: .rejected("pop_blocked_by_modal_tail"), after: abSheet),
    RuleCase(rule: "dismiss removes the modal", path: abSheet, intent: .dismiss, expected: .changed,
             after: ab),
    RuleCase(rule: "dismiss promotes the first queued modal", path: abSheet,
             queue: [.cover("q1"), .sheet("q2")], intent: .dismiss, expected: .changed,
             after: ab + [.cover("q1")]),
    RuleCase(rule: "dismiss without a modal is unchanged", path: ab, intent: .dismiss,
             expected: .unchanged, after: ab),
    RuleCase(rule: "dismissAll removes the modal and the queue", path: abSheet,
             queue: [.cover("q1")], intent: .dismissAll, expected: .changed, after: ab),
    RuleCase(rule: "dismissAll without a modal is unchanged", path: ab, intent: .dismissAll,
             expected: .unchanged, after: ab),
    RuleCase(rule: "reset replaces the path even under a modal", path: abSheet,
             intent: .reset([.push("x"), .cover("y")]), expected: .changed,
             after: [.push("x"), .cover("y")]),
    RuleCase(rule: "reset to two modals is rejected invalid_plan", path: ab,
             intent: .reset([.sheet("x"), .cover("y")]), expected: .rejected("invalid_plan"), after: ab),
    RuleCase(rule: "reset to a modal before a push is rejected invalid_plan", path: ab,
             intent: .reset([.sheet("x"), .push("y")]), expected: .rejected("invalid_plan"), after: ab),
    RuleCase(rule: "reset to the same path is unchanged", path: ab, intent: .reset(ab),
             expected: .unchanged, after: ab),
    RuleCase(rule: "replaceStack replaces the pushes", path: ab, intent: .replaceStack(["x"]),
             expected: .changed, after: [.push("x")]),
    RuleCase(rule: "replaceStack under a modal is rejected", path: abSheet,
             intent: .replaceStack(["x"]), expected: .rejected("pop_blocked_by_modal_tail"),
             after: abSheet),
    RuleCase(rule: "backOrPush pops back to an equal route", path: ab + [.push("c")],
             intent: .backOrPush("a"), expected: .changed, after: [.push("a")]),
    RuleCase(rule: "backOrPush pushes a route not in the stack", path: ab, intent: .backOrPush("c"),
             expected: .changed, after: ab + [.push("c")]),
    RuleCase(rule: "backOrPush to the top route is unchanged", path: ab, intent: .backOrPush("b"),
             expected: .unchanged, after: ab),
    RuleCase(rule: "backOrPush that would pop under a modal is rejected pop_blocked",
             path: abSheet, intent: .backOrPush("a"), expected: .rejected("pop_blocked_by_modal_tail"),
             after: abSheet),
    RuleCase(rule: "backOrPush that would push under a modal is rejected push_blocked",
             path: abSheet, intent: .backOrPush("s"), expected: .rejected("push_blocked_by_modal_tail"),
             after: abSheet),
    RuleCase(rule: "pushUnique pushes a new route", path: ab, intent: .pushUnique("c"),
             expected: .changed, after: ab + [.push("c")]),
    RuleCase(rule: "pushUnique of a route in the stack is unchanged", path: ab,
             intent: .pushUnique("a"), expected: .unchanged, after: ab),
    RuleCase(rule: "pushUnique of a route in the stack is unchanged even under a modal",
             path: abSheet, intent: .pushUnique("a"), expected: .unchanged, after: abSheet),
    RuleCase(rule: "pushUnique that would push under a modal is rejected", path: abSheet,
             intent: .pushUnique("c"), expected: .rejected("push_blocked_by_modal_tail"), after: abSheet),
]

@Suite("FlowStore rules")
struct FlowStoreRulesTests {
    @Test("each intent answers its documented outcome and leaves the documented path",
          arguments: ruleTable)
    func rule(_ row: RuleCase) throws {
        var flow = try store(row.path, queue: row.queue)
        let outcome = flow.send(row.intent)
        #expect(expectation(of: outcome) == row.expected)
        #expect(flow.path == row.after)
        if case .changed(let old, let new) = outcome {
            #expect(old == row.path)
            #expect(new == row.after)
        }
    }

    @Test("a rejected intent changes neither the path nor the queue", arguments: ruleTable.filter {
        if case .rejected = $0.expected { return true }
        return false
    })
    func rejectedChangesNothing(_ row: RuleCase) throws {
        var flow = try store(row.path, queue: row.queue)
        let before = flow.snapshot
        flow.send(row.intent)
        #expect(flow.snapshot == before)
    }

    @Test("insufficient_depth carries the requested and available depth")
    func insufficientDepthCarriesNumbers() throws {
        var flow = try store(ab)
        #expect(flow.send(.popCount(5)) == .rejected(.insufficientDepth(requested: 5, available: 2)))
    }

    @Test("backOrPush to the route on top is unchanged even under a modal")
    func backOrPushTopUnderModal() throws {
        var flow = try store(abSheet)
        #expect(flow.send(.backOrPush("b")) == .unchanged)
    }

    @Test("queued modals show in FIFO order as each is dismissed")
    func queuedModalsAreFIFO() throws {
        var flow = FlowStore<String>()
        flow.send(.sheet("1"))
        #expect(flow.send(.cover("2")) == .queued(.cover("2")))
        #expect(flow.send(.sheet("3")) == .queued(.sheet("3")))
        #expect(flow.queuedModals == [.cover("2"), .sheet("3")])
        flow.send(.dismiss)
        #expect(flow.path == [.cover("2")])
        flow.send(.dismiss)
        #expect(flow.path == [.sheet("3")])
        flow.send(.dismiss)
        #expect(flow.path.isEmpty)
        #expect(flow.queuedModals.isEmpty)
    }

    @Test("a valid reset drops the queued modals")
    func resetDropsQueue() throws {
        var flow = try store(abSheet, queue: [.sheet("q")])
        flow.send(.reset([.push("x")]))
        #expect(flow.queuedModals.isEmpty)
    }

    @Test("an invalid reset keeps the queued modals")
    func invalidResetKeepsQueue() throws {
        var flow = try store(abSheet, queue: [.cover("q1")])
        flow.send(.reset([.sheet("x"), .sheet("y")]))
        #expect(flow.queuedModals == [.cover("q1")])
    }

    @Test("a reset to the same path that drops queued modals is a change")
    func resetSamePathWithQueue() throws {
        var flow = try store(abSheet, queue: [.cover("q1")])
        flow.recordsEvents = true
        #expect(flow.send(.reset(abSheet)) == .changed(old: abSheet, new: abSheet))
        #expect(flow.queuedModals.isEmpty)
        #expect(flow.takeEvents().contains(.modalQueueChanged([])))
    }

    @Test("dismissAll drops every queued modal")
    func dismissAllClearsQueue() throws {
        var flow = try store(abSheet, queue: [.cover("q1"), .sheet("q2")])
        flow.send(.dismissAll)
        #expect(flow.queuedModals.isEmpty)
        #expect(flow.path == ab)
    }

    @Test("pushMany is one change with one event")
    func pushManyIsOneEvent() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        flow.send(.pushMany(["a", "b", "c"]))
        #expect(flow.takeEvents() == [.pathChanged(old: [], new: [.push("a"), .push("b"), .push("c")])])
    }

    @Test("queueing, dismissing and dismissAll each record the new queue", arguments: [
        (FlowIntent<String>.cover("c"), [RouteStep<String>.cover("q1"), .cover("c")]),
        (.dismiss, []),
        (.dismissAll, []),
    ])
    func queueEvents(intent: FlowIntent<String>, queue: [RouteStep<String>]) throws {
        var flow = try store(abSheet, queue: [.cover("q1")])
        flow.recordsEvents = true
        flow.send(intent)
        #expect(flow.takeEvents().last == .modalQueueChanged(queue))
    }

    @Test("depth, stack and modal describe the path")
    func derivedViews() throws {
        let flow = try store(abSheet)
        #expect(flow.depth == 2)
        #expect(flow.stack == ["a", "b"])
        #expect(flow.modal == .sheet("s"))
    }

    @Test("takeEvents(into:) hands each intent's events over once, in order, through one reused array")
    func takeEventsIntoSpare() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        var spare: [FlowEvent<String>] = []
        var seen: [FlowEvent<String>] = []
        for intent: FlowIntent<String> in [.push("a"), .sheet("s"), .sheet("t"), .push("b"), .dismiss] {
            flow.send(intent)
            flow.takeEvents(into: &spare)
            seen += spare
            spare.removeAll(keepingCapacity: true)
        }
        #expect(seen == [
            .pathChanged(old: [], new: [.push("a")]),
            .pathChanged(old: [.push("a")], new: [.push("a"), .sheet("s")]),
            .modalQueueChanged([.sheet("t")]),
            .intentRejected(.push("b"), .pushBlockedByModalTail),
            .pathChanged(old: [.push("a"), .sheet("s")], new: [.push("a"), .sheet("t")]),
            .modalQueueChanged([]),
        ])
        #expect(flow.pendingEvents.isEmpty)
    }

    @Test("NaN equals NaN, so a NaN route can be found again")
    func nanIsReflexive() {
        let nan = JSONValue.double(.nan)
        #expect(nan == nan)
        #expect(Set([nan, nan]).count == 1)
        var flow = FlowStore<JSONValue>()
        flow.send(.push(nan))
        flow.send(.push("x"))
        #expect(flow.send(.popTo(nan)) == .changed(old: [.push(nan), .push("x")], new: [.push(nan)]))
    }
}
