import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import Testing

/// A registry with a bit of everything: values, paths, a pushed window, an immersive
/// space, focus order and a pending link.
func busyRegistry() async throws -> SceneRegistry<JSONValue> {
    let registry = try demoRegistry()
    _ = try await registry.open("main")
    _ = try await registry.open("viewer", value: "42")
    _ = try await registry.instance(id("viewer-1"))?.send(.push(["screen": "page"]))
    _ = try await registry.instance(id("viewer-1"))?.send(.sheet("share"))
    _ = try await registry.instance(id("viewer-1"))?.send(.cover("queued"))
    _ = try await registry.push("notes", from: id("main-1"))
    _ = try await registry.open("portal")
    _ = try await registry.open("globe")
    try await registry.dismiss(id("globe-1"))
    try await registry.focus(id("viewer-1"))
    _ = await registry.openLink("demo://demo.example/theatre/x")
    return registry
}

@Suite("Snapshot and restore")
struct RegistrySnapshotTests {
    @Test("a snapshot round-trips through JSON and restores the same registry")
    func roundTrip() async throws {
        let original = try await busyRegistry()
        let snapshot = await original.snapshot()
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(RegistrySnapshot<JSONValue>.self, from: data)
        #expect(decoded == snapshot)
        let restored = try demoRegistry()
        try await restored.restore(decoded)
        let before = await original.state()
        let after = await restored.state()
        #expect(after.instances == before.instances)
        #expect(after.focused == before.focused)
        #expect(after.immersive == id("portal-1"))
        #expect(after.pendingLink == "demo://demo.example/theatre/x")
        #expect(await restored.instance(id("viewer-1"))?.queuedModals == [.cover("queued")])
        #expect(await restored.snapshot() == snapshot)
    }

    @Test("restored ids are never reused, even those of dismissed instances")
    func countersSurvive() async throws {
        let restored = try demoRegistry()
        try await restored.restore(await busyRegistry().snapshot())
        #expect(try await restored.open("globe").instance.id == id("globe-2"))
    }

    @Test("instances of restore: false scenes are skipped, and their ids stay taken")
    func restoreFalse() async throws {
        let edit: (inout [String: JSONValue]) -> Void = { root in
            guard case .array(var scenes) = root["scenes"], case .object(var viewer) = scenes[1] else { return }
            viewer["restore"] = false
            scenes[1] = .object(viewer)
            root["scenes"] = .array(scenes)
        }
        let original = try demoRegistry(edit)
        _ = try await original.open("main")
        _ = try await original.open("viewer", value: "1")
        let restored = try demoRegistry(edit)
        try await restored.restore(await original.snapshot())
        #expect(await restored.state().instances.map(\.id) == [id("main-1")])
        #expect(try await restored.open("viewer", value: "2").instance.id == id("viewer-2"))
    }

    @Test("an invalid snapshot reports every problem with its path and restores nothing")
    func invalid() async throws {
        var snapshot = try await busyRegistry().snapshot()
        snapshot.version = 2
        snapshot.instances[0].id = id("ghost-1")
        snapshot.instances.append(snapshot.instances[1])
        snapshot.instances[1].flow.path = [.sheet("a"), .push("b")]
        snapshot.focusOrder.append(id("nobody-3"))
        let registry = try demoRegistry()
        do {
            try await registry.restore(snapshot)
            Issue.record("restoring an invalid snapshot must fail")
        } catch {
            let paths = error.problems.map(\.path)
            #expect(paths.contains("version"))
            #expect(paths.contains("instances[0].id"))
            #expect(paths.contains("instances[1].flow"))
            #expect(paths.contains { $0.hasPrefix("instances[\(snapshot.instances.count - 1)]") })
            #expect(paths.contains { $0.hasPrefix("focusOrder[") })
        }
        #expect(await registry.state().instances.isEmpty)
    }

    @Test("a snapshot that breaks an instance policy is refused")
    func policyBroken() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        var snapshot = await registry.snapshot()
        var second = snapshot.instances[0]
        second.id = id("main-2")
        snapshot.instances.append(second)
        let fresh = try demoRegistry()
        await #expect(throws: RegistryRestoreError.self) { try await fresh.restore(snapshot) }
    }

    @Test("restoring into a registry with open instances is refused")
    func notEmpty() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let snapshot = await registry.snapshot()
        await #expect(throws: RegistryRestoreError.self) { try await registry.restore(snapshot) }
    }
}

@Suite("Restore validation")
struct RegistryRestoreValidationTests {
    func pushedSnapshot() async throws -> RegistrySnapshot<JSONValue> {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.open("notes")
        _ = try await registry.push("notes", from: id("main-1"))
        return await registry.snapshot()
    }

    func problems(_ snapshot: RegistrySnapshot<JSONValue>) async throws -> [String] {
        do {
            try await demoRegistry().restore(snapshot)
            return []
        } catch let error as RegistryRestoreError {
            return error.problems.map(\.description)
        }
    }

    @Test("a window pushed from itself is refused")
    func selfPush() async throws {
        var snapshot = try await pushedSnapshot()
        let index = snapshot.instances.firstIndex { $0.id == id("notes-1") }!
        snapshot.instances[index].pushedFrom = id("notes-1")
        #expect(try await problems(snapshot).contains { $0.contains("cannot be pushed from itself") })
    }

    @Test("a pushed window pushed from a pushed window is refused")
    func chain() async throws {
        var snapshot = try await pushedSnapshot()
        let index = snapshot.instances.firstIndex { $0.id == id("notes-1") }!
        snapshot.instances[index].pushedFrom = id("notes-2")
        #expect(try await problems(snapshot).contains { $0.contains("was itself pushed") })
    }

    @Test("two windows pushed from one parent are refused")
    func twoChildren() async throws {
        var snapshot = try await pushedSnapshot()
        let index = snapshot.instances.firstIndex { $0.id == id("notes-1") }!
        snapshot.instances[index].pushedFrom = id("main-1")
        #expect(try await problems(snapshot).contains { $0.contains("already has") })
    }

    @Test("two immersive spaces are refused even under replace")
    func twoImmersive() async throws {
        let registry = try demoRegistry { $0["immersive"] = "replace" }
        _ = try await registry.open("portal")
        var snapshot = await registry.snapshot()
        var second = snapshot.instances[0]
        second.id = id("theatre-1")
        second.value = "x"
        snapshot.instances.append(second)
        let fresh = try demoRegistry { $0["immersive"] = "replace" }
        await #expect(throws: RegistryRestoreError.self) { try await fresh.restore(snapshot) }
    }

    @Test("a restore into a registry that used ids before never reuses them")
    func usedIDs() async throws {
        let registry = try demoRegistry()
        for _ in 0..<3 { _ = try await registry.open("notes") }
        _ = try await registry.dismiss(scene: "notes")
        let empty = try demoRegistry()
        try await registry.restore(await empty.snapshot())
        #expect(try await registry.open("notes").instance.id == id("notes-4"))
    }

    @Test("a pushed window whose parent is not restored comes back on its own; a parent whose pushed window is not restored comes back active")
    func restoreFalseAroundPushes() async throws {
        let noNotes: (inout [String: JSONValue]) -> Void = { root in
            guard case .array(var scenes) = root["scenes"], case .object(var notes) = scenes[2] else { return }
            notes["restore"] = false
            scenes[2] = .object(notes)
            root["scenes"] = .array(scenes)
        }
        let original = try demoRegistry(noNotes)
        _ = try await original.open("main")
        _ = try await original.push("notes", from: id("main-1"))
        let restored = try demoRegistry(noNotes)
        try await restored.restore(await original.snapshot())
        let main = try await restored.info(id("main-1"))
        #expect(main.phase == .active)
        #expect(await restored.state().instances.map(\.id) == [id("main-1")])
    }

    @Test("a restore replaces the pending link and sign-in state with the snapshot's")
    func linkStateReplaced() async throws {
        let registry = try demoRegistry()
        _ = await registry.openLink("demo://demo.example/theatre/x")
        let empty = try demoRegistry()
        try await registry.restore(await empty.snapshot())
        #expect(await registry.pendingLink == nil)
        #expect(await !registry.isAuthenticated)
    }
}

@Suite("Identifiers and the tree")
struct RegistryMiscTests {
    @Test("instance ids parse at the last dash and print back", arguments: [
        ("main-1", "main", 1), ("my-scene-12", "my-scene", 12), ("main-1000000000000000", "main", InstanceID.maximumNumber),
        ("éte-7", "éte", 7),
    ])
    func parse(text: String, scene: String, number: Int) {
        #expect(InstanceID(text) == InstanceID(scene: scene, number: number))
        #expect(InstanceID(scene: scene, number: number).description == text)
    }

    @Test("ids as table keys: every id is found again, and ids alike in number and name length stay apart")
    func idsAsKeys() {
        // Scenes whose names have one length, numbers shared between them: the hash's
        // two parts collide across scenes, and equality must tell them apart.
        let ids = ["ab", "cd", "ef", "abcdefghijklmnopqrstu"].flatMap { scene in (1...2_000).map { InstanceID(scene: scene, number: $0) } }
        var table: [InstanceID: Int] = [:]
        for (index, id) in ids.enumerated() { table[id] = index }
        #expect(table.count == ids.count)
        #expect(ids.enumerated().allSatisfy { table[$0.element] == $0.offset })
        #expect(table[InstanceID(scene: "ab", number: 2_001)] == nil)
        #expect(Set(ids).count == ids.count)
        // Parsed ids are the same keys as made ones.
        #expect(table[InstanceID("cd-17")!] == ids.firstIndex(of: InstanceID(scene: "cd", number: 17)))
    }

    @Test("malformed instance ids do not parse", arguments: [
        "main", "-1", "main-0", "main-x", "main-", "", "main-01", "main-+1", "main- 1", "main-1 ", "main-1\u{301}", "main-\u{0661}",
        "main-1000000000000001", "main-99999999999999999999999",
    ])
    func malformed(text: String) {
        #expect(InstanceID(text) == nil)
    }

    @Test("Swift declarations with ids that cannot name an instance are refused")
    func badDeclarationID() {
        #expect(throws: RegistryConfigurationError.self) {
            try SceneRegistry<JSONValue>(app: "a", declarations: [SceneDeclaration(id: "", kind: .window)])
        }
    }

    @Test("the tree shows each scene with its instances, values, phases and paths")
    func tree() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.open("viewer", value: "42")
        _ = try await registry.instance(id("viewer-1"))?.send(.push("page"))
        let lines = await registry.state().tree.split(separator: "\n").map(String.init)
        #expect(lines[0] == "demo  phase active  focused viewer-1  immersive none  pending link none")
        #expect(lines.contains("  main-1  active  path: (root)"))
        #expect(lines.contains(#"  viewer-1 = "42"  active  focused  path: push("page")"#))
        #expect(lines.contains("globe  volume 0.6x0.6x0.6 m, single"))
    }
}
