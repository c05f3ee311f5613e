import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneTesting
import Testing

@Suite("Requirements between scenes, and supervision groups in the manifest")
struct GroupTests {
    private func registry(closing: ClosePolicy? = nil) throws -> SceneRegistry<JSONValue> {
        let manifest = try Manifest.load(from: Data(#"""
            {"app": "g", "scenes": [
              {"id": "session", "kind": "window", "instances": "single"},
              {"id": "editor", "kind": "window", "requires": ["session"]},
              {"id": "preview", "kind": "window", "requires": ["editor"]}]}
            """#.utf8))
        return try SceneRegistry(manifest: manifest, closePolicy: closing)
    }

    @Test("opening a scene opens the scenes it requires first, each by its own rules")
    func opensRequired() async throws {
        let registry = try registry()
        let (_, events) = registry.subscribe(buffering: .unbounded)
        let preview = try await registry.open("preview").instance.id
        var opened: [String] = []
        for await event in events {
            if case .opened(let info) = event.event { opened.append(info.scene) }
            if opened.count == 3 { break }
        }
        #expect(opened == ["session", "editor", "preview"])
        #expect(preview.scene == "preview")
        _ = try await registry.open("preview")
        #expect(await registry.instances(of: "session").count == 1)
    }

    @Test("dismissing the last instance of a required scene dismisses the scenes that require it first, furthest first; a veto among them keeps everything")
    func dismissCascade() async throws {
        let refusing = try registry(closing: { $0.scene != "preview" })
        let editor = try await refusing.open("editor").instance.id
        _ = try await refusing.open("preview")
        await #expect(throws: RegistryRejection.closeVetoed(InstanceID(scene: "preview", number: 1))) {
            try await refusing.dismiss(editor, force: false)
        }
        #expect(await refusing.instances(of: "preview").count == 1)

        let registry = try registry()
        _ = try await registry.open("preview")
        let root = try #require(await registry.instances(of: "session").first)
        let gone = try await registry.dismiss(root, force: false)
        #expect(gone.map(\.scene) == ["preview", "editor", "session"])
        #expect(await registry.instances(of: "editor").isEmpty)
    }

    @Test(
        "each mistake in requires or groups is reported with its path; a cycle is named",
        arguments: [
            (#"{"id": "a", "kind": "window", "requires": ["b"]}, {"id": "b", "kind": "window", "requires": ["a"]}"#, "", "scenes[0].requires", "a → b → a"),
            (#"{"id": "a", "kind": "window", "requires": ["nowhere"]}"#, "", "scenes[0].requires[0]", "nowhere"),
            (#"{"id": "a", "kind": "immersive", "requires": ["w"]}, {"id": "w", "kind": "window", "requires": ["b"]}, {"id": "b", "kind": "immersive"}"#,
             "", "scenes[0].requires", "immersive space \"a\" requires immersive space \"b\""),
            (#"{"id": "w", "kind": "window", "requires": ["a", "v"]}, {"id": "v", "kind": "window", "requires": ["b"]}, {"id": "a", "kind": "immersive"}, {"id": "b", "kind": "immersive"}"#,
             "", "scenes[0].requires", "requires immersive spaces \"a\" and \"b\""),
            (#"{"id": "a", "kind": "window", "in_process": true}"#, #", "groups": [{"id": "g", "strategy": "one_for_most", "scenes": ["a"]}]"#, "groups[0].strategy", "one_for_one"),
            (#"{"id": "a", "kind": "window"}"#, #", "groups": [{"id": "g", "strategy": "one_for_all", "scenes": ["a"]}]"#, "groups[0].scenes[0]", "no code"),
            (#"{"id": "a", "kind": "window", "in_process": true}"#, #", "groups": [{"id": "g", "strategy": "one_for_all", "scenes": ["a"]}, {"id": "h", "strategy": "one_for_one", "scenes": ["a"]}]"#, "groups[1].scenes[0]", "already in group"),
        ])
    func mistakes(scenes: String, groups: String, path: String, says: String) {
        let found = problems(#"{"app": "a", "scenes": [\#(scenes)]\#(groups)}"#)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(path + ":") == true, "\(found)")
        #expect(found.first?.contains(says) == true, "\(found)")
    }

    @Test("a group names who restarts with a scene: one_for_one nobody, one_for_all every other, rest_for_one those after it")
    func strategies() {
        let scenes = ["x", "y", "z"]
        #expect(SupervisionGroup(id: "g", strategy: .oneForOne, scenes: scenes).restartsWith("y") == [])
        #expect(SupervisionGroup(id: "g", strategy: .oneForAll, scenes: scenes).restartsWith("y") == ["x", "z"])
        #expect(SupervisionGroup(id: "g", strategy: .restForOne, scenes: scenes).restartsWith("y") == ["z"])
    }

    @Test("a group acts on in-process scenes too: one that ends restarts the others its strategy names, paths kept; past its intensity every member goes restart_intensity")
    func inProcessGroup() async throws {
        let group = SupervisionGroup(id: "pair", strategy: .oneForAll, scenes: ["a", "b"], maxRestarts: 1, withinSeconds: 600)
        let policy = RestartPolicy(mode: .permanent, maxRestarts: 10, withinSeconds: 600)
        let starts = Locked<[String: Int]>([:])
        func counting(_ scene: String) -> SceneBehaviorFactory<Screen> {
            { context in
                starts.withLock { $0[scene, default: 0] += 1 }
                return Recorder(context, heard: Heard())
            }
        }
        let registry = try SceneRegistry<Screen>(
            app: "typed",
            declarations: [
                SceneDeclaration(id: "a", kind: .window, hosting: .inProcess, restart: policy, group: group),
                SceneDeclaration(id: "b", kind: .window, hosting: .inProcess, restart: policy, requires: ["a"], group: group),
            ],
            behaviors: ["a": counting("a"), "b": counting("b")])
        let a = try await registry.open("a").instance.id
        let b = try await registry.open("b").instance.id
        try await #require(await registry.instance(b)).send(.push(.list))
        let (_, events) = registry.subscribe(buffering: .unbounded)
        _ = try await registry.call(SceneCall(method: "end", params: ScenePayload(true)), to: .instance(a))
        #expect(await eventually { starts.withLock { $0 } == ["a": 2, "b": 2] })
        #expect(await eventually {
            let runningA = await registry.hostingRunning(a)
            let runningB = await registry.hostingRunning(b)
            return runningA && runningB
        })
        #expect(try await registry.info(b).path == [.push(.list)])

        // A second restart within the window is one more than the group allows.
        _ = try await registry.call(SceneCall(method: "end", params: ScenePayload(true)), to: .instance(a))
        var reasons: [InstanceID: DismissReason] = [:]
        for await event in events {
            if case .dismissed(let gone, let reason) = event.event { reasons[gone] = reason }
            if reasons.count == 2 { break }
        }
        #expect(reasons == [a: .restartIntensity, b: .restartIntensity])
    }
}

