import SceneFlow
import Testing

@Suite("Batches and transactions")
struct FlowBatchTests {
    @Test("a batch applies each intent and records one aggregated path event")
    func batchAggregates() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        let result = flow.batch([.push("a"), .push("b"), .sheet("s"), .sheet("t")])
        #expect(result.outcomes.map(\.name) == ["changed", "changed", "changed", "queued"])
        #expect(result.old == [])
        #expect(result.new == [.push("a"), .push("b"), .sheet("s")])
        #expect(flow.takeEvents() == [
            .pathChanged(old: [], new: [.push("a"), .push("b"), .sheet("s")]),
            .modalQueueChanged([.sheet("t")]),
        ])
    }

    @Test("a batch reports rejections and goes on unless told to stop")
    func batchContinues() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        let result = flow.batch([.popCount(2), .push("a")])
        #expect(result.outcomes.map(\.name) == ["rejected", "changed"])
        #expect(result.stoppedAt == nil)
        #expect(flow.takeEvents() == [
            .intentRejected(.popCount(2), .insufficientDepth(requested: 2, available: 0)),
            .pathChanged(old: [], new: [.push("a")]),
        ])
    }

    @Test("stopOnFailure ends the batch at the first rejection and keeps earlier changes")
    func batchStops() {
        var flow = FlowStore<String>()
        let result = flow.batch([.push("a"), .popTo("z"), .push("b")], stopOnFailure: true)
        #expect(result.outcomes.count == 2)
        #expect(result.stoppedAt == 1)
        #expect(flow.path == [.push("a")])
    }

    @Test("a batch that changes nothing records no path event")
    func batchNoChange() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        let result = flow.batch([.push("a"), .pop])
        #expect(!result.changed)
        #expect(flow.takeEvents().isEmpty)
    }

    @Test("a transaction commits every intent at once with one event")
    func transactionCommits() {
        var flow = FlowStore<String>()
        flow.recordsEvents = true
        let outcome = flow.transaction([.push("a"), .push("b"), .pop, .cover("c")])
        guard case .committed(let outcomes, let old, let new) = outcome else {
            Issue.record("expected a commit, got \(outcome)")
            return
        }
        #expect(outcomes.count == 4)
        #expect(old == [])
        #expect(new == [.push("a"), .cover("c")])
        #expect(flow.takeEvents() == [.pathChanged(old: [], new: [.push("a"), .cover("c")])])
    }

    @Test("a failing transaction leaves the store untouched and names the failing index")
    func transactionFails() throws {
        var flow = try FlowStore<String>(restoring: FlowSnapshot(path: [.push("a"), .sheet("s")]))
        flow.recordsEvents = true
        let before = flow.snapshot
        let outcome = flow.transaction([.dismiss, .push("b"), .popCount(5), .push("c")])
        #expect(outcome == .failed(index: 2, intent: .popCount(5),
                                   reason: .insufficientDepth(requested: 5, available: 2)))
        #expect(flow.snapshot == before)
        #expect(flow.takeEvents() == [
            .intentRejected(.popCount(5), .insufficientDepth(requested: 5, available: 2)),
        ])
    }

    @Test("a middleware cancel fails a transaction and its didApply never runs")
    func transactionMiddlewareCancel() {
        let journal = Journal()
        var flow = FlowStore<String>()
        flow.addMiddleware(recorder("observer", journal))
        flow.addMiddleware(ClosureMiddleware<String>(name: "no-b") { intent, _ in
            intent == .push("b") ? .cancel(reason: "b is off limits") : .proceed(intent)
        })
        let outcome = flow.transaction([.push("a"), .push("b")])
        #expect(outcome == .failed(index: 1, intent: .push("b"),
                                   reason: .middlewareCancelled(name: "no-b", reason: "b is off limits")))
        #expect(flow.path.isEmpty)
        #expect(!journal.all.contains { $0.hasPrefix("observer.did") })
    }

    @Test("didApply runs once per intent after a transaction commits")
    func transactionDidApply() {
        let journal = Journal()
        var flow = FlowStore<String>()
        flow.addMiddleware(recorder("observer", journal))
        flow.transaction([.push("a"), .push("b")])
        #expect(journal.all.filter { $0.hasPrefix("observer.did") }
            == ["observer.did push changed", "observer.did push changed"])
    }
}
