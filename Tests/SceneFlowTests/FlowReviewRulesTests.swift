import SceneFlow
import SceneJSON
import Testing

@Suite("FlowStore rules: queues, events and follow-ups")
struct FlowQueueAndEventTests {
    @Test("dismissAll drops every queued modal")
    func dismissAllClearsQueue() throws {
        var flow = try store(abSheet, queue: [.cover("q1"), .sheet("q2")])
        flow.send(.dismissAll)
        #expect(flow.queuedModals.isEmpty)
        #expect(flow.path == ab)
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

    @Test("backOrPush to the route on top is unchanged even under a modal")
    func backOrPushTopUnderModal() throws {
        var flow = try store(abSheet)
        #expect(flow.send(.backOrPush("b")) == .unchanged)
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

    @Test("a middleware cancel records intentRejected with the middleware's name and reason")
    func cancelRecordsRejection() {
        var flow = FlowStore<String>()
        flow.addMiddleware(ClosureMiddleware<String>(name: "guard") { _, _ in .cancel(reason: "no") })
        flow.recordsEvents = true
        flow.send(.push("a"))
        #expect(flow.takeEvents() == [.intentRejected(.push("a"), .middlewareCancelled(name: "guard", reason: "no"))])
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

    @Test("a plan built from pushes and a last step is valid")
    func planBuilders() {
        #expect(FlowPlan<String>(pushing: ["a"], then: .sheet, "s").steps == [.push("a"), .sheet("s")])
        #expect(FlowPlan<String>(pushing: ["a"], then: .push, "b").steps == [.push("a"), .push("b")])
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

@Suite("FlowHost limits and chain edits")
struct FlowHostReviewTests {
    @Test("a handler that reacts to every event, rejections included, cannot loop forever")
    func handlerReactingToEverything() async {
        var store = FlowStore<String>()
        store.followUpLimit = 4
        let host = FlowHost(store: store)
        let events = host.events(buffering: .unbounded)
        // Every event, rejections included, asks for another push: without the limit this
        // never ends.
        await host.addEventHandler { _, context in context.send(.push("again")) }
        await host.send(.push("start"))
        // The host answered, so it stopped; the overflow was reported, not applied.
        #expect(await host.path.count == 5)
        let seen = await collect(events, count: 100, stoppingAt: { event in
            if case .intentRejected(_, .followUpLimitExceeded) = event { return true }
            return false
        })
        #expect(seen.contains { if case .intentRejected(_, .followUpLimitExceeded(4)) = $0 { return true } else { return false } })
    }

    @Test("the host forwards insert, replace and move to its store's chain")
    func chainEdits() async throws {
        let host = FlowHost<String>()
        let a = await host.addMiddleware(ClosureMiddleware<String>(name: "a"))
        let b = try await host.insertMiddleware(ClosureMiddleware<String>(name: "b"), at: 0)
        try await host.replaceMiddleware(a, with: ClosureMiddleware<String>(name: "a2"))
        try await host.moveMiddleware(b, to: 1)
        #expect(await host.store.middlewareNames == ["a2", "b"])
    }
}

/// Reads events until `stoppingAt` says so, `count` are read, or the stream ends.
func collect<E: Sendable>(_ stream: EventStream<E>, count: Int, stoppingAt: (E) -> Bool) async -> [E] {
    var seen: [E] = []
    for await event in stream {
        seen.append(event)
        if seen.count == count || stoppingAt(event) { break }
    }
    return seen
}
