import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

@Suite("Flow events carry the queue and the cause")
struct FlowEventTests {
    @Test("modals queued by one batch are one flow.queued each, with the queue as it stood after each")
    func queuedInOneBatch() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.sheet("share"))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.batch([.cover("a"), .sheet("b")])
        await events.receive(.flowQueued(id("notes-1"), step: .cover("a"), queue: [.cover("a")]))
        await events.receive(.flowQueued(id("notes-1"), step: .sheet("b"), queue: [.cover("a"), .sheet("b")]))
        await events.finish()
    }

    @Test("a modal sent while one shows is a flow.queued event naming it and the queue, with no flow.changed")
    func queuedModal() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.sheet("share"))
        let events = RegistryEventRecorder(registry)
        #expect(try await notes.send(.cover("login")).name == "queued")
        await events.receive(.flowQueued(id("notes-1"), step: .cover("login"), queue: [.cover("login")]))
        await events.finish()
        #expect(try await registry.info(id("notes-1")).queue == [.cover("login")])
    }

    @Test("dismissing the visible modal shows the next queued one: flow.changed with the shorter queue")
    func dequeued() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.sheet("share"))
        _ = try await notes.send(.cover("login"))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.send(.dismiss)
        await events.receive(.flowChanged(
            id("notes-1"), path: [.cover("login")], queue: [], cause: FlowCause(by: .control, intent: "dismiss")))
        await events.finish()
    }

    @Test("dismissing a modal whose queued successor is the same route is a flow.changed: the path reads the same, the queue is shorter")
    func dequeuedTheSame() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.sheet("share"))
        _ = try await notes.send(.sheet("share"))
        let events = RegistryEventRecorder(registry)
        #expect(try await notes.send(.dismiss).name == "changed")
        await events.receive(.flowChanged(
            id("notes-1"), path: [.sheet("share")], queue: [], cause: FlowCause(by: .control, intent: "dismiss")))
        await events.finish()
    }

    @Test("rejected and unchanged intents are no flow event: a rejection is request.rejected alone")
    func nothingMoved() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.sheet("share"))
        let events = RegistryEventRecorder(registry)
        #expect(try await notes.send(.push("a")).name == "rejected")
        #expect(try await notes.send(.pushUnique("b")).name == "rejected")
        _ = try await notes.send(.dismiss)
        #expect(try await notes.send(.pop).name == "unchanged")
        #expect(try await notes.send(.dismiss).name == "unchanged")
        await events.receive(.requestRejected(request: "flow.send", reason: .flow(.pushBlockedByModalTail)))
        await events.receive(.requestRejected(request: "flow.send", reason: .flow(.pushBlockedByModalTail)))
        await events.receive(.flowChanged(id("notes-1"), path: [], queue: [], cause: FlowCause(by: .control, intent: "dismiss")))
        await events.finish()
    }

    @Test("a reset that keeps the path but drops the queue is a flow.changed")
    func queueDropped() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.sheet("share"))
        _ = try await notes.send(.cover("login"))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.send(.reset([.sheet("share")]))
        await events.receive(.flowChanged(
            id("notes-1"), path: [.sheet("share")], queue: [], cause: FlowCause(by: .control, intent: "reset")))
        await events.finish()
    }

    @Test("a batch that shows a modal and queues another is one flow.changed, then flow.queued")
    func batchShowsAndQueues() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        let events = RegistryEventRecorder(registry)
        _ = try await notes.batch([.push("a"), .sheet("share"), .cover("login")])
        await events.receive(.flowChanged(
            id("notes-1"), path: [.push("a"), .sheet("share")], queue: [.cover("login")], cause: FlowCause(by: .control)))
        await events.receive(.flowQueued(id("notes-1"), step: .cover("login"), queue: [.cover("login")]))
        await events.finish()
    }

    @Test("a route presented in its instance is caused by route, with the intent that presented it")
    func routeCause() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let events = RegistryEventRecorder(registry)
        _ = try await registry.route(["screen": "settings"], from: id("main-1"))
        await events.receive(.flowChanged(
            id("main-1"), path: [.sheet(["screen": "settings"])], queue: [],
            cause: FlowCause(by: .route, intent: "sheet")))
        await events.finish()
    }

    @Test("an in-process behaviour's own intent is caused by scene, as a scene process's is")
    func behaviourCause() async throws {
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let events = RegistryEventRecorder(registry)
        _ = try await registry.call(SceneCall(method: "push"), to: .instance(a))
        await events.receive(.flowChanged(a, path: [.push(.list)], queue: [], cause: FlowCause(by: .scene, intent: "push")))
        await events.finish()
    }

    @Test("flow.apply with steps that break the modal rule is invalid_plan, as a reset intent is, and changes nothing")
    func applyInvalidPlan() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.push("a"))
        let events = RegistryEventRecorder(registry)
        let outcome = try await notes.apply(steps: [.sheet("a"), .push("b")])
        let reset = try await notes.send(.reset([.sheet("a"), .push("b")]))
        #expect(outcome.rejection == .invalidPlan(.modalNotAtTail(index: 0)))
        #expect(reset.rejection == outcome.rejection)
        await events.receive(.requestRejected(request: "flow.apply", reason: .flow(.invalidPlan(.modalNotAtTail(index: 0)))))
        await events.receive(.requestRejected(request: "flow.send", reason: .flow(.invalidPlan(.modalNotAtTail(index: 0)))))
        await events.finish()
        #expect(await notes.path == [.push("a")])
    }
}

@Suite("flow.reconcile on an instance")
struct ReconcileTests {
    @Test("adopt turns the difference into intents, applies them as one change caused by reconcile, and says which")
    func adopt() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.pushMany(["a", "b", "c"]))
        let events = RegistryEventRecorder(registry)
        let result = try await notes.reconcile(to: [.push("a"), .sheet("share")], policy: .adopt)
        #expect(result == ReconcileResult(outcome: .changed, path: [.push("a"), .sheet("share")], intents: [.popCount(2), .sheet("share")]))
        await events.receive(.flowChanged(
            id("notes-1"), path: [.push("a"), .sheet("share")], queue: [], cause: FlowCause(by: .reconcile)))
        await events.finish()
    }

    @Test("reject refuses a different path path_mismatch, with the expected and the observed path, and changes nothing")
    func reject() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.push("a"))
        let events = RegistryEventRecorder(registry)
        let reason = await rejection { try await notes.reconcile(to: [], policy: .reject) }
        let expected = RegistryRejection.pathMismatch(expected: [["type": "push", "route": "a"]], observed: [])
        #expect(reason == expected)
        #expect(reason?.fields == ["expected": [["type": "push", "route": "a"]], "observed": []])
        await events.receive(.requestRejected(request: "flow.reconcile", reason: expected))
        await events.finish()
        #expect(await notes.path == [.push("a")])
    }

    @Test("an in-process behaviour reconciles its own path through its context, as a scene process does over its connection")
    func behaviourReconciles() async throws {
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let events = RegistryEventRecorder(registry)
        let answer = try await registry.call(SceneCall(method: "reconcile"), to: .instance(a))
        #expect(try answer.json() == "changed")
        await events.receive(.flowChanged(a, path: [.push(.detail(5))], queue: [], cause: FlowCause(by: .reconcile)))
        await events.finish()
    }

    @Test("an equal path is unchanged under either policy, with no intents and no event")
    func equal() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.send(.push("a"))
        let events = RegistryEventRecorder(registry)
        for policy in ReconcilePolicy.allCases {
            let result = try await notes.reconcile(to: [.push("a")], policy: policy)
            #expect(result == ReconcileResult(outcome: .unchanged, path: [.push("a")], intents: []))
        }
        await events.finish()
    }

    @Test("an observed path that breaks the modal rule is invalid_plan")
    func invalidObserved() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        let events = RegistryEventRecorder(registry)
        let reason = await rejection { try await notes.reconcile(to: [.sheet("a"), .sheet("b")], policy: .adopt) }
        #expect(reason == .flow(.invalidPlan(.tooManyModals(count: 2))))
        await events.receive(.requestRejected(request: "flow.reconcile", reason: .flow(.invalidPlan(.tooManyModals(count: 2)))))
        await events.finish()
    }

    @Test("adopting a path whose stack changes under a modal, while another modal is queued, is refused whole: the queued one would show")
    func queueInTheWay() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let notes = try #require(await registry.instance(id("notes-1")))
        _ = try await notes.batch([.push("a"), .push("b"), .sheet("s"), .cover("next")])
        let reason = await rejection { try await notes.reconcile(to: [.push("a")], policy: .adopt) }
        #expect(reason == .flow(.popBlockedByModalTail))
        #expect(await notes.path == [.push("a"), .push("b"), .sheet("s")])
        #expect(await notes.queuedModals == [.cover("next")])
    }
}
