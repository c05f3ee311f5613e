import SceneFlow
import SceneSync
import Testing

/// Records what a middleware saw, from any thread.
final class Journal: Sendable {
    private let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

func recorder(_ name: String, _ journal: Journal) -> ClosureMiddleware<String> {
    ClosureMiddleware(
        name: name,
        willApply: { intent, _ in
            journal.add("\(name).will \(intent.name)")
            return .proceed(intent)
        },
        didApply: { intent, outcome, _ in journal.add("\(name).did \(intent.name) \(outcome.name)") })
}

@Suite("Middleware")
struct FlowMiddlewareTests {
    @Test("middleware runs in chain order before and after the intent")
    func order() {
        let journal = Journal()
        var flow = FlowStore<String>()
        flow.addMiddleware(recorder("one", journal))
        flow.addMiddleware(recorder("two", journal))
        flow.send(.push("a"))
        #expect(journal.all == ["one.will push", "two.will push", "one.did push changed", "two.did push changed"])
    }

    @Test("a rewrite is what the next middleware and the rules see")
    func rewriteIsPassedOn() {
        let journal = Journal()
        var flow = FlowStore<String>()
        flow.addMiddleware(ClosureMiddleware<String>(name: "to-sheet") { intent, _ in
            if case .push(let route) = intent { return .proceed(.sheet(route)) }
            return .proceed(intent)
        })
        flow.addMiddleware(recorder("after", journal))
        #expect(flow.send(.push("a")) == .changed(old: [], new: [.sheet("a")]))
        #expect(journal.all.first == "after.will sheet")
    }

    @Test("the first cancel stops the chain, rejects middleware_cancelled and changes nothing")
    func cancelStopsChain() {
        let journal = Journal()
        var flow = FlowStore<String>(plan: FlowPlan(pushing: ["root"]))
        flow.addMiddleware(ClosureMiddleware<String>(name: "guard") { _, _ in .cancel(reason: "signed out") })
        flow.addMiddleware(recorder("later", journal))
        let outcome = flow.send(.push("a"))
        #expect(outcome == .rejected(.middlewareCancelled(name: "guard", reason: "signed out")))
        #expect(flow.path == [.push("root")])
        #expect(!journal.all.contains("later.will push"))
    }

    @Test("didApply sees the rejection of a cancelled intent")
    func didApplySeesCancel() {
        let journal = Journal()
        var flow = FlowStore<String>()
        flow.addMiddleware(recorder("observer", journal))
        flow.addMiddleware(ClosureMiddleware<String>(name: "guard") { _, _ in .cancel(reason: "no") })
        flow.send(.push("a"))
        #expect(journal.all.last == "observer.did push rejected")
    }

    @Test("a middleware cancel records intentRejected with the middleware's name and reason")
    func cancelRecordsRejection() {
        var flow = FlowStore<String>()
        flow.addMiddleware(ClosureMiddleware<String>(name: "guard") { _, _ in .cancel(reason: "no") })
        flow.recordsEvents = true
        flow.send(.push("a"))
        #expect(flow.takeEvents() == [.intentRejected(.push("a"), .middlewareCancelled(name: "guard", reason: "no"))])
    }

    @Test("follow-ups queued by middleware run after the intent, in order, never re-entrantly")
    func followUpsRunAfter() {
        let journal = Journal()
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        flow.addMiddleware(ClosureMiddleware<String>(
            name: "chain",
            willApply: { intent, context in
                journal.add("will \(intent) at depth \(context.path.count)")
                if case .push("a") = intent {
                    context.send(.push("b"))
                    context.send(.push("c"))
                }
                return .proceed(intent)
            }))
        _ = flow.takeEvents()
        let outcome = flow.send(.push("a"))
        #expect(outcome == .changed(old: [], new: [.push("a")]))
        #expect(flow.path == [.push("a"), .push("b"), .push("c")])
        #expect(journal.all == [
            "will push(\"a\") at depth 0", "will push(\"b\") at depth 1", "will push(\"c\") at depth 2",
        ])
        #expect(flow.takeEvents() == [
            .pathChanged(old: [], new: [.push("a")]),
            .pathChanged(old: [.push("a")], new: [.push("a"), .push("b")]),
            .pathChanged(old: [.push("a"), .push("b")], new: [.push("a"), .push("b"), .push("c")]),
        ])
    }

    @Test("follow-ups queued for a cancelled intent are dropped with it")
    func cancelledFollowUpsDropped() {
        var flow = FlowStore<String>()
        flow.addMiddleware(ClosureMiddleware<String>(name: "queue-then-cancel") { _, context in
            context.send(.push("sneaky"))
            return .cancel(reason: "no")
        })
        flow.send(.push("a"))
        #expect(flow.path.isEmpty)
    }

    @Test("a didApply that reacts to a rejection may still queue a follow-up")
    func didApplyReactsToRejection() {
        var flow = FlowStore<String>()
        flow.addMiddleware(ClosureMiddleware<String>(
            name: "explain", didApply: { _, outcome, context in
                if outcome.isRejected, context.modal == nil { context.send(.sheet("why")) }
            }))
        flow.send(.popCount(3))
        #expect(flow.path == [.sheet("why")])
    }

    @Test("endless follow-ups stop at the limit with follow_up_limit_exceeded")
    func followUpLimit() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        flow.followUpLimit = 5
        flow.addMiddleware(ClosureMiddleware<String>(name: "echo", didApply: { _, _, context in
            context.send(.pop)
        }))
        flow.send(.pop)
        let rejections = flow.takeEvents().filter {
            if case .intentRejected(_, .followUpLimitExceeded(5)) = $0 { return true }
            return false
        }
        #expect(rejections.count == 1)
    }

    @Test("add, insert, replace, move and remove edit the chain and record one event each")
    func chainEdits() throws {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        let a = flow.addMiddleware(ClosureMiddleware<String>(name: "a"))
        let b = flow.addMiddleware(ClosureMiddleware<String>(name: "b"))
        let c = try flow.insertMiddleware(ClosureMiddleware<String>(name: "c"), at: 0)
        #expect(flow.middlewareNames == ["c", "a", "b"])
        try flow.replaceMiddleware(a, with: ClosureMiddleware<String>(name: "a2"))
        try flow.moveMiddleware(c, to: 2)
        #expect(flow.middlewareNames == ["a2", "b", "c"])
        try flow.removeMiddleware(b)
        #expect(flow.middlewareNames == ["a2", "c"])
        #expect(flow.middlewareHandles == [a, c])
        #expect(flow.takeEvents() == [
            .middlewareChanged(.added(a, name: "a", index: 0)),
            .middlewareChanged(.added(b, name: "b", index: 1)),
            .middlewareChanged(.added(c, name: "c", index: 0)),
            .middlewareChanged(.replaced(a, previous: "a", name: "a2")),
            .middlewareChanged(.moved(c, from: 0, to: 2)),
            .middlewareChanged(.removed(b, name: "b", index: 1)),
        ])
    }

    @Test("editing with an unknown handle or position throws and changes nothing")
    func chainErrors() throws {
        var flow = FlowStore<String>()
        let a = flow.addMiddleware(ClosureMiddleware<String>(name: "a"))
        try flow.removeMiddleware(a)
        #expect(throws: MiddlewareChainError.unknownHandle(a)) { try flow.removeMiddleware(a) }
        #expect(throws: MiddlewareChainError.indexOutOfRange(index: 2, count: 0)) {
            try flow.insertMiddleware(ClosureMiddleware<String>(name: "b"), at: 2)
        }
        let b = flow.addMiddleware(ClosureMiddleware<String>(name: "b"))
        #expect(throws: MiddlewareChainError.indexOutOfRange(index: 1, count: 1)) {
            try flow.moveMiddleware(b, to: 1)
        }
        #expect(flow.middlewareNames == ["b"])
    }
}
