import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneTesting
import Testing

/// Waits (bounded) until `id` is active in `registry`.
private func waitUntilOpen<R: Route>(
    _ registry: SceneRegistry<R>, _ id: InstanceID, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let open = await eventually(sourceLocation: sourceLocation) { await registry.infoIfOpenForTests(id)?.phase == .active }
    if !open { throw CancellationError() }
}

extension SceneRegistry {
    fileprivate func infoIfOpenForTests(_ id: InstanceID) -> InstanceInfo<R>? { try? info(id) }
}

@Suite("Presenting a scene and awaiting its result")
struct PresentTests {
    @Test("present answers once the presented instance finishes, with it and its result; it is dismissed after scene.finished")
    func finishAnswers() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let events = RegistryEventRecorder(registry)
        let presenting = Task { try await registry.present("notes", from: id("main-1")) }
        await events.receive { if case .opened(let info) = $0 { info.id == id("notes-1") } else { false } }
        await events.receive(.focused(id("notes-1")))
        try await registry.finish(id("notes-1"), result: ["picked": 3])
        let outcome = try await presenting.value
        #expect(outcome.instance.id == id("notes-1"))
        #expect(outcome.result == ["picked": 3])
        await events.receive(.finished(id("notes-1"), result: ["picked": 3]))
        await events.receive(.dismissed(id("notes-1"), reason: .requested))
        await events.receive(.focused(id("main-1")))
        await events.finish()
        #expect(await registry.instance(id("notes-1")) == nil)
    }

    @Test("a finish for an instance nobody presented is not_presented, and changes nothing")
    func notPresented() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        #expect(await rejection { try await registry.finish(id("main-1"), result: 1) } == .notPresented(id("main-1")))
        #expect(await registry.instance(id("main-1")) != nil)
    }

    @Test("a presented instance dismissed before it finishes ends the wait dismissed_without_result")
    func dismissedWithoutResult() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let presenting = Task { try await registry.present("notes", from: id("main-1")) }
        try await waitUntilOpen(registry, id("notes-1"))
        try await registry.dismiss(id("notes-1"))
        #expect(await rejection { try await presenting.value } == .dismissedWithoutResult(id("notes-1")))
    }

    @Test("dismissing the presenter first tells the presented behaviour, dismisses it, and ends the wait parent_dismissed")
    func parentDismissed() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: heard) }])
        let a = try await registry.open("a").instance.id
        let presenting = Task { try await registry.present("b", from: a) }
        try await waitUntilOpen(registry, InstanceID(scene: "b", number: 1))
        try await registry.dismiss(a)
        #expect(await rejection { try await presenting.value } == .parentDismissed(a))
        #expect(await registry.instance(InstanceID(scene: "b", number: 1)) == nil)
        #expect(await eventually { heard.all.contains("stop") })
        // Told before it stops.
        let told = try #require(heard.all.firstIndex(of: "parent dismissed"))
        #expect(told < (heard.all.firstIndex(of: "stop") ?? -1))
    }

    @Test("a presented instance dismissed with its presenter passes focus on with a scene.focused event")
    func focusAfterParentDismissed() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.open("viewer", value: "x")
        let presenting = Task { try await registry.present("notes", from: id("viewer-1")) }
        try await waitUntilOpen(registry, id("notes-1"))
        let events = RegistryEventRecorder(registry)
        try await registry.dismiss(id("viewer-1"))
        _ = await rejection { try await presenting.value }
        await events.receive(.dismissed(id("viewer-1"), reason: .requested))
        await events.receive(.dismissed(id("notes-1"), reason: .parentDismissed))
        await events.receive(.focused(id("main-1")))
        await events.receive(.requestRejected(request: "scene.present", reason: .parentDismissed(id("viewer-1"))))
        await events.finish()
        #expect(await registry.focused == id("main-1"))
    }

    @Test("a presenter dismissed while the presented scene is still starting ends the wait parent_dismissed, and the scene goes")
    func parentGoneWhileOpening() async throws {
        let gate = Gate()
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { _ in Slow(heard: Heard(), gate: gate) }])
        let a = try await registry.open("a").instance.id
        let presenting = Task { try await registry.present("b", from: a) }
        await gate.waitUntilEntered()
        try await registry.dismiss(a)
        #expect(await rejection { try await presenting.value } == .parentDismissed(a))
        #expect(await registry.instance(InstanceID(scene: "b", number: 1)) == nil)
        gate.open()
    }

    @Test("a scene that finishes as soon as it is active gives its result, however soon that is")
    func finishAtOnce() async throws {
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Finisher($0) }])
        let a = try await registry.open("a").instance.id
        for _ in 0..<20 {
            #expect(try await registry.present("b", from: a).result == "done")
        }
    }

    @Test("present from an instance that is not open is not_open, and opens nothing")
    func fromNotOpen() async throws {
        let registry = try demoRegistry()
        #expect(await rejection { try await registry.present("notes", from: id("main-1")) } == .instanceNotOpen(id("main-1")))
        #expect(await registry.instance(id("notes-1")) == nil)
    }
}

/// A scene that finishes with "done" the moment it hears it is active.
private actor Finisher: SceneBehavior {
    typealias R = Screen
    let context: SceneContext<Screen>

    init(_ context: SceneContext<Screen>) { self.context = context }

    func phaseChanged(to phase: ScenePhase) async {
        if phase == .active { try? await context.finish(with: "done") }
    }
}
