import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneTesting
import Testing

/// The demo app, with one more scene `lab` whose links run programs.
private func labRegistry(links: [JSONValue]) throws -> SceneRegistry<JSONValue> {
    try demoRegistry { root in
        guard case .array(var scenes)? = root["scenes"] else { return }
        scenes.append(["id": "lab", "kind": "window", "links": .array(links)])
        root["scenes"] = .array(scenes)
    }
}

@Suite("Deep links that run programs")
struct LinkProgramTests {
    @Test("a link whose mapping runs a program opens two viewers side by side, each showing its page")
    func twoViewers() async throws {
        let registry = try demoRegistry()
        let events = Locked<[RegistryEvent<JSONValue>]>([])
        registry.observeEvents { event in events.withLock { $0.append(event.event) } }
        guard case .program(let outcome) = await registry.openLink("demo://demo.example/compare/7/9") else {
            Issue.record("the compare link must run its program")
            return
        }
        #expect(outcome.failure == nil)
        #expect(outcome.results.count == 4)
        #expect(try await registry.info(id("viewer-1")).value == "7")
        #expect(try await registry.info(id("viewer-1")).path == [.push(["screen": "page", "doc": "7"])])
        #expect(try await registry.info(id("viewer-2")).path == [.push(["screen": "page", "doc": "9"])])
        #expect(events.withLock { $0 }.last == .linkHandled(url: "demo://demo.example/compare/7/9", instance: id("viewer-2"), opened: true))
    }

    @Test("a failing step refuses the link (link.rejected) with its reason; the steps before it stay applied")
    func failingStep() async throws {
        let registry = try labRegistry(links: [[
            "pattern": "/broken/:x",
            "program": [
                ["method": "scene.open", "params": ["scene": "viewer", "value": "${x}"]],
                ["method": "scene.open", "params": ["scene": "nope"]],
            ],
        ]])
        let events = Locked<[RegistryEvent<JSONValue>]>([])
        registry.observeEvents { event in events.withLock { $0.append(event.event) } }
        guard case .program(let outcome) = await registry.openLink("demo://demo.example/broken/3") else {
            Issue.record("the link must run its program")
            return
        }
        #expect(outcome.failure == ProgramFailure(step: 1, method: "scene.open", reason: .unknownScene("nope")))
        #expect(try await registry.info(id("viewer-1")).value == "3")
        #expect(events.withLock { $0 }.last == .linkRejected(url: "demo://demo.example/broken/3", reason: .unknownScene("nope")))
    }

    @Test("a program's link step whose link program fails fails with that reason")
    func nestedFailure() async throws {
        let registry = try labRegistry(links: [[
            "pattern": "/broken/:x",
            "program": [
                ["method": "scene.open", "params": ["scene": "viewer", "value": "${x}"]],
                ["method": "scene.open", "params": ["scene": "nope"]],
            ],
        ]])
        let outcome = try await registry.run(program: [.link("demo://demo.example/broken/3")])
        #expect(outcome.failure == ProgramFailure(step: 0, method: "link.open", reason: .unknownScene("nope")))
    }

    @Test("rendered params that do not fit their step refuse the link link_refused, before any step runs")
    func renderedMisfit() async throws {
        let registry = try labRegistry(links: [[
            "pattern": "/focus/:x",
            "program": [["method": "scene.focus", "params": ["instance": "${x}"]]],
        ]])
        guard case .rejected(let reason) = await registry.openLink("demo://demo.example/focus/nothing") else {
            Issue.record("the link must be refused")
            return
        }
        #expect(reason.reason == .linkRejected)
        #expect(reason.fields["detail"] == "link_refused")
    }
}

@Suite("Link programs in a manifest")
struct LinkProgramManifestTests {
    static let programMistakes: [(program: String, message: String)] = [
        (#""program": [{"method": "link.open", "params": {"url": "x"}}]"#, "scenes[0].links[0].program[0].method: must be one of"),
        (#""program": {"method": "scene.open"}"#, "scenes[0].links[0].program: must be an array of steps"),
        (#""program": [], "value": "x""#, "scenes[0].links[0].program: a link runs a program in place of a value and a plan"),
        (#""program": [{"method": "scene.open", "params": 3}]"#, "scenes[0].links[0].program[0].params: must be an object"),
        (#""program": [{"method": "scene.open", "why": 1}]"#, "scenes[0].links[0].program[0].why: unknown key"),
        (#""program": [{"method": "immersive.dismiss"}]"#, "scenes[0].links[0].program: needs a step that names an instance"),
    ]

    @Test("a link program's mistakes are reported with their JSON path", arguments: programMistakes)
    func mistakes(program: String, message: String) {
        let text = #"{"app": "a", "links": {"schemes": ["a"], "hosts": ["a.example"]}, "scenes": [{"id": "w", "kind": "window", "links": [{"pattern": "/p", \#(program)}]}]}"#
        let found = problems(text)
        #expect(found.contains { $0.hasPrefix(message) }, "\(found)")
    }
}
