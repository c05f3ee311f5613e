import SceneFlow
import SceneTesting
import Testing

/// A store whose middleware follows every push of "a" with a push of "b": a follow-up whose
/// path change the test must receive.
func followingUp() -> FlowStore<String> {
    var store = FlowStore<String>()
    store.addMiddleware(ClosureMiddleware<String>(name: "then b", didApply: { intent, _, context in
        if intent == .push("a") { context.send(.push("b")) }
    }))
    return store
}

extension Issue {
    /// Whether the issue says `text` (the harness's failures must say what went wrong).
    func says(_ text: String) -> Bool { comments.contains { $0.rawValue.contains(text) } }
}

@Suite("FlowTestStore passes a test that asserts everything")
struct FlowTestStorePassing {
    @Test("a script that asserts every outcome, path, queue and event records no issue")
    func complete() {
        let flow = FlowTestStore<String>()
        flow.send(.push("inbox"), .changed, path: [.push("inbox")])
        flow.send(.sheet("compose"), .changed, path: [.push("inbox"), .sheet("compose")])
        flow.send(.cover("login"), .queued, queued: [.cover("login")])
        flow.send(.push("settings"), rejected: .pushBlockedByModalTail)
        flow.send(.dismiss, .changed, path: [.push("inbox"), .cover("login")], queued: [])
        flow.send(.dismiss, .changed, path: [.push("inbox")])
        flow.send(.popToRoot, .changed, path: [])
        flow.send(.pop, .unchanged)
        flow.finish()
    }

    @Test("what a middleware's follow-up did is received after the send that caused it")
    func followUp() {
        let flow = FlowTestStore(followingUp())
        flow.send(.push("a"), .changed, path: [.push("a"), .push("b")])
        flow.receive(.pathChanged(old: [.push("a")], new: [.push("a"), .push("b")]))
        flow.finish()
    }

    @Test("a follow-up's change of the queue is received after the send, not taken by it")
    func followUpQueue() {
        var store = FlowStore<String>()
        store.addMiddleware(ClosureMiddleware<String>(name: "then b", didApply: { intent, _, context in
            if intent == .sheet("a") { context.send(.sheet("b")) }
        }))
        let flow = FlowTestStore(store)
        flow.send(.sheet("a"), .changed, path: [.sheet("a")], queued: [.sheet("b")])
        flow.receive(.modalQueueChanged([.sheet("b")]))
        flow.finish()
    }

    @Test("with exhaustivity off, what is not asserted does not fail the test, even when it is shown")
    func notExhaustive() {
        let quiet = FlowTestStore<String>(exhaustivity: .off)
        quiet.send(.push("a"), .changed)
        quiet.send(.push("b"), .changed)
        quiet.finish()
        let shown = FlowTestStore<String>(exhaustivity: .off(showSkipped: true))
        shown.send(.push("a"), .changed)
        shown.finish()
    }
}

@Suite("FlowTestStore fails a test for every wrong or unasserted thing")
struct FlowTestStoreFailing {
    @Test("a wrong outcome fails")
    func wrongOutcome() {
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.push("a"), .unchanged, path: [.push("a")])
            flow.finish()
        } matching: { $0.says("expected unchanged, it was changed") }
    }

    @Test("a wrong path fails, with the difference")
    func wrongPath() {
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.push("a"), .changed, path: [.push("b")])
            flow.finish()
        } matching: { $0.says("path: expected") }
    }

    @Test("a wrong queue of modals fails")
    func wrongQueue() {
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.sheet("a"), .changed, path: [.sheet("a")])
            flow.send(.sheet("b"), .queued, queued: [.sheet("c")])
            flow.finish()
        } matching: { $0.says("queued: expected") }
    }

    @Test("a path change the send did not assert fails when exhaustive")
    func unassertedPath() {
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.push("a"), .changed)
            flow.finish()
        } matching: { $0.says("the path changed") }
    }

    @Test("a queue change the send did not assert fails when exhaustive")
    func unassertedQueue() {
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.sheet("a"), .changed, path: [.sheet("a")])
            flow.send(.sheet("b"), .queued)
            flow.finish()
        } matching: { $0.says("the queue of modals changed") }
    }

    @Test("a refusal with another reason, or no refusal, fails")
    func wrongRejection() {
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.pop, rejected: .pushBlockedByModalTail)
            flow.finish()
        } matching: { $0.says("expected rejected push_blocked_by_modal_tail") }
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.send(.push("a"), rejected: .pushBlockedByModalTail)
            flow.finish()
        } matching: { $0.says("expected rejected push_blocked_by_modal_tail, it was changed") }
    }

    @Test("an event left unasserted fails at finish")
    func leftAtFinish() {
        withKnownIssue {
            let flow = FlowTestStore(followingUp())
            flow.send(.push("a"), .changed, path: [.push("a"), .push("b")])
            flow.finish()
        } matching: { $0.says("event not asserted") }
    }

    @Test("an event of an earlier send not received before the next send fails")
    func leftBeforeNextSend() {
        withKnownIssue {
            let flow = FlowTestStore(followingUp())
            flow.send(.push("a"), .changed, path: [.push("a"), .push("b")])
            flow.send(.push("c"), .changed, path: [.push("a"), .push("b"), .push("c")])
            flow.finish()
        } matching: { $0.says("event not asserted before the next send") }
    }

    @Test("an event left unasserted fails when the store's life ends without finish")
    func leftAtDeinit() {
        withKnownIssue {
            let flow = FlowTestStore(followingUp())
            flow.send(.push("a"), .changed, path: [.push("a"), .push("b")])
        } matching: { $0.says("event not asserted") }
    }

    @Test("receiving a different event, or one when none is left, fails")
    func wrongReceive() {
        withKnownIssue {
            let flow = FlowTestStore(followingUp())
            flow.send(.push("a"), .changed, path: [.push("a"), .push("b")])
            flow.receive(.pathChanged(old: [], new: [.push("b")]))
        } matching: { $0.says("expected event") }
        withKnownIssue {
            let flow = FlowTestStore<String>()
            flow.receive(.modalQueueChanged([]))
        } matching: { $0.says("there is none left") }
    }
}
