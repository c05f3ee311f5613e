import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

@Suite("Programs: several steps as one request")
struct ProgramTests {
    @Test("steps run in order, and $k names the instance of step k's result")
    func stepsInOrder() async throws {
        let registry = try demoRegistry()
        let outcome = try await registry.run(program: [
            .open(scene: "main", value: nil),
            .push(scene: "notes", value: nil, from: .step(0)),
            .send(.push("page"), to: .step(1)),
        ])
        #expect(outcome.failure == nil)
        #expect(outcome.results.map(\.instance) == [id("main-1"), id("notes-1"), nil])
        #expect(try await registry.info(id("notes-1")).path == [.push("page")])
        #expect(try await registry.info(id("notes-1")).pushedFrom == id("main-1"))
    }

    @Test("a program's flow changes are caused by program")
    func programCause() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("notes")
        let events = RegistryEventRecorder(registry)
        _ = try await registry.run(program: [.send(.push("a"), to: .id(id("notes-1"))), .apply([.sheet("s")], to: .id(id("notes-1")))])
        await events.receive(.flowChanged(id("notes-1"), path: [.push("a")], queue: [], cause: FlowCause(by: .program, intent: "push")))
        await events.receive(.flowChanged(id("notes-1"), path: [.sheet("s")], queue: [], cause: FlowCause(by: .program)))
        await events.finish()
    }

    @Test("the first failing step ends the program with its reason; the steps before it stay applied")
    func firstFailureEnds() async throws {
        let registry = try demoRegistry()
        let outcome = try await registry.run(program: [
            .open(scene: "main", value: nil), .open(scene: "nope", value: nil), .open(scene: "notes", value: nil),
        ])
        #expect(outcome.failure == ProgramFailure(step: 1, method: "scene.open", reason: .unknownScene("nope")))
        #expect(outcome.results.count == 1)
        #expect(await registry.instance(id("main-1")) != nil)
        #expect(await registry.instance(id("notes-1")) == nil)
    }

    @Test("a $k naming a link that went pending fails its step not_open, published as request.rejected")
    func pendingLinkReference() async throws {
        let registry = try demoRegistry()
        let events = RegistryEventRecorder(registry)
        let outcome = try await registry.run(program: [.link("demo://demo.example/theatre/opera"), .focus(.step(0))])
        #expect(outcome.failure?.step == 1)
        #expect(outcome.failure?.reason.reason == .notOpen)
        await events.receive(.linkPending(url: "demo://demo.example/theatre/opera"))
        await events.receive { if case .requestRejected("scene.focus", .notOpen) = $0 { true } else { false } }
        await events.finish()
    }

    @Test("a rejected intent fails its step with the flow's reason")
    func rejectedIntentFails() async throws {
        let registry = try demoRegistry()
        let outcome = try await registry.run(program: [
            .open(scene: "notes", value: nil), .send(.sheet("s"), to: .step(0)), .send(.push("x"), to: .step(0)),
        ])
        #expect(outcome.failure == ProgramFailure(step: 2, method: "flow.send", reason: .flow(.pushBlockedByModalTail)))
        #expect(outcome.results.count == 2)
    }

    @Test("a $k that is not an earlier step, or names a step whose result has no instance, is refused before any step runs", arguments: [
        [ProgramStep<JSONValue>.open(scene: "main", value: nil), .focus(.step(1))],
        [.open(scene: "main", value: nil), .focus(.step(-1))],
        [.open(scene: "main", value: nil), .send(.push("a"), to: .step(0)), .focus(.step(1))],
    ])
    func badReference(program: [ProgramStep<JSONValue>]) async throws {
        let registry = try demoRegistry()
        let reason = await rejection { try await registry.run(program: program) }
        #expect(reason?.reason == .invalidProgram)
        #expect(await registry.instance(id("main-1")) == nil)
    }
}

@Suite("Programs read from JSON")
struct ProgramJSONTests {
    @Test("each step reads as its method's params, with $k for an instance member")
    func reads() throws {
        let steps = try ProgramStep<JSONValue>.program(json: [
            ["method": "scene.open", "params": ["scene": "viewer", "value": "42"]],
            ["method": "scene.push", "params": ["scene": "notes", "from": "$0"]],
            ["method": "flow.send", "params": ["instance": "$1", "intent": ["type": "push", "route": "a"]]],
            ["method": "scene.dismiss", "params": ["scene": "notes", "force": true]],
            ["method": "immersive.dismiss"],
            ["method": "link.open", "params": ["url": "demo://demo.example/viewer/7"]],
        ])
        #expect(steps == [
            .open(scene: "viewer", value: "42"), .push(scene: "notes", value: nil, from: .step(0)),
            .send(.push("a"), to: .step(1)), .dismissScene("notes", value: nil, force: true), .dismissImmersive,
            .link("demo://demo.example/viewer/7"),
        ])
    }

    static let malformedPrograms: [(text: String, message: String)] = [
        (#"[{"method": "scene.teleport"}]"#, #"steps[0].method: "scene.teleport" cannot be a program step"#),
        (#"[{"method": "state"}]"#, #"steps[0].method: "state" cannot be a program step"#),
        (#"[{"method": "scene.open", "params": {"scene": 5}}]"#, "steps[0].params.scene: must be a string"),
        (#"[{"method": "scene.open", "params": {"scene": "main"}}, {"method": "scene.focus", "params": {"instance": "main"}}]"#,
         #"steps[1].params.instance: "main" is not an instance id"#),
        (#"[{"method": "scene.focus", "params": {"instance": "$0"}}]"#, "steps[0].params.instance: $0 names no earlier step"),
        (#"[{"method": "immersive.dismiss"}, {"method": "scene.focus", "params": {"instance": "$0"}}]"#,
         "steps[1].params.instance: $0 names step 0 (immersive.dismiss), whose result has no instance"),
        (#"[{"method": "flow.send", "params": {"instance": "main-1"}}]"#, "steps[0].params.intent: missing"),
        (#"[{"method": "scene.dismiss", "params": {}}]"#, "steps[0].params: give either instance, or scene"),
    ]

    @Test("a step that is not a step is an error naming the step and the member", arguments: malformedPrograms)
    func malformed(text: String, message: String) throws {
        let steps = try JSONParser.parse(Array(text.utf8)).arrayValue ?? []
        #expect {
            _ = try ProgramStep<JSONValue>.program(json: steps)
        } throws: { error in
            (error as? ProgramDecodingError)?.description.hasPrefix(message) == true
        }
    }
}
