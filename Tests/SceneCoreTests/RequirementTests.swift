import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneTesting
import Testing

/// `session` ← `editor` ← `preview` (each requires the one before), and a plain window
/// `main` to push from.
private func chain(closing: ClosePolicy? = nil, launcher: (any SceneBacking)? = nil) throws -> SceneRegistry<JSONValue> {
    let launch = launcher == nil ? "" : #", "launch": {"command": ["scene-process"]}"#
    let manifest = try Manifest.load(from: Data(#"""
        {"app": "g", "scenes": [
          {"id": "main", "kind": "window", "instances": "single"},
          {"id": "session", "kind": "window", "instances": "single"\#(launch)},
          {"id": "editor", "kind": "window", "instances": "multiple", "requires": ["session"]\#(launch)},
          {"id": "preview", "kind": "window", "instances": "multiple", "requires": ["editor"]}]}
        """#.utf8))
    return try SceneRegistry(manifest: manifest, processes: launcher, closePolicy: closing)
}

/// The next `count` dismissals in `events`, each as "id reason".
private func dismissals(_ events: EventStream<SequencedEvent<JSONValue>>, count: Int) async -> [String] {
    var dismissed: [String] = []
    for await event in events {
        if case .dismissed(let id, let reason) = event.event { dismissed.append("\(id) \(reason.rawValue)") }
        if dismissed.count == count { break }
    }
    return dismissed
}

private func rejection(_ body: () async throws(RegistryRejection) -> Void) async -> RegistryRejection? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

/// The ids a close policy was asked about, and a gate one of them waits at.
private final class Asked: Sendable {
    private let asked = Locked<[InstanceID]>([])
    let gate = Gate()

    var all: [InstanceID] { asked.withLock { $0 } }

    /// A policy that records each question, holds `held` at the gate, and refuses `refused`.
    func policy(holding held: InstanceID? = nil, refusing refused: Set<InstanceID> = []) -> ClosePolicy {
        { id in
            self.asked.withLock { $0.append(id) }
            if id == held { await self.gate.pass() }
            return !refused.contains(id)
        }
    }
}

@Suite("Requirements: who goes with a required scene's last instance, and who is asked")
struct RequirementTests {
    @Test("dismissing a scene that empties a required scene takes its dependents first, furthest first")
    func sceneFormCascades() async throws {
        let registry = try chain()
        _ = try await registry.open("preview")
        let outcome = try await registry.dismiss(scene: "session", force: false)
        #expect(outcome.dismissed == [id("preview-1"), id("editor-1"), id("session-1")])
        #expect(outcome.vetoed.isEmpty)
    }

    @Test("in a scene dismiss, a dependent's veto fails it whole; a target's own veto keeps the target and so its dependents")
    func sceneFormVetoes() async throws {
        let dependentRefuses = try chain(closing: { $0 != id("preview-1") })
        _ = try await dependentRefuses.open("preview")
        #expect(await rejection { () throws(RegistryRejection) in _ = try await dependentRefuses.dismiss(scene: "session", force: false) }
            == .closeVetoed(id("preview-1")))
        #expect(await dependentRefuses.instances(of: "session").count == 1)
        #expect(await dependentRefuses.instances(of: "editor").count == 1)

        let targetRefuses = try chain(closing: { $0 != id("session-1") })
        _ = try await targetRefuses.open("preview")
        let outcome = try await targetRefuses.dismiss(scene: "session", force: false)
        #expect(outcome.dismissed.isEmpty)
        #expect(outcome.vetoed == [id("session-1")])
        #expect(await targetRefuses.instances(of: "preview").count == 1)
    }

    @Test("a restored registry keeps its requirements: a dismissal takes the dependents, an open opens what it requires")
    func restoredKeepsRequirements() async throws {
        let first = try chain()
        _ = try await first.open("preview")
        let restored = try chain()
        try await restored.restore(await first.snapshot())
        #expect(try await restored.dismiss(id("session-1")) == [id("preview-1"), id("editor-1"), id("session-1")])
        _ = try await restored.open("editor")
        #expect(await restored.instances(of: "session") == [id("session-2")])
    }

    @Test("the Swift dismiss calls and a process's end take the dependents too, each dismissed requirement_dismissed")
    func everyRemovalCascades() async throws {
        let registry = try chain()
        let (_, events) = registry.subscribe(buffering: .unbounded)
        _ = try await registry.open("preview")
        _ = try await registry.dismiss(id("session-1"))
        _ = try await registry.open("preview")
        _ = try await registry.dismiss(scene: "session")
        _ = try await registry.open("preview")
        await registry.dismissProcess(id("session-3"), reason: .processExited)
        #expect(await dismissals(events, count: 9) == [
            "preview-1 requirement_dismissed", "editor-1 requirement_dismissed", "session-1 requested",
            "preview-2 requirement_dismissed", "editor-2 requirement_dismissed", "session-2 requested",
            "preview-3 requirement_dismissed", "editor-3 requirement_dismissed", "session-3 process_exited",
        ])
    }

    @Test("an instance that opens while the others are asked is asked too before anything goes, and its veto counts")
    func openedDuringTheWaitIsAsked() async throws {
        let asked = Asked()
        let registry = try chain(closing: asked.policy(holding: id("editor-1"), refusing: [id("preview-2")]))
        _ = try await registry.open("preview")
        let dismissing = Task {
            await rejection { () throws(RegistryRejection) in _ = try await registry.dismiss(id("session-1"), force: false) }
        }
        await asked.gate.waitUntilEntered()
        #expect(try await registry.open("preview").instance.id == id("preview-2"))
        asked.gate.open()
        #expect(await dismissing.value == .closeVetoed(id("preview-2")))
        #expect(asked.all.contains(id("preview-2")))
        #expect(await registry.instances(of: "session") == [id("session-1")])
    }

    @Test("a session load asks what opens while the others are asked too, and its veto fails the load")
    func sessionLoadAsksLateOpens() async throws {
        let asked = Asked()
        let registry = try chain(closing: asked.policy(holding: id("main-1"), refusing: [id("session-1")]))
        let empty = await registry.snapshot()
        _ = try await registry.open("main")
        let loading = Task { await rejection { () throws(RegistryRejection) in _ = try await registry.loadSession(empty, force: false) } }
        await asked.gate.waitUntilEntered()
        _ = try await registry.open("session")
        asked.gate.open()
        #expect(await loading.value == .closeVetoed(id("session-1")))
        #expect(await registry.instances(of: "main") == [id("main-1")])
    }

    @Test("a scene closing itself is not asked, but the instances that require its scene are, unless it forces")
    func closingItself() async throws {
        let asked = Asked()
        let registry = try chain(closing: asked.policy(refusing: [id("preview-1")]))
        _ = try await registry.open("preview")
        #expect(await rejection { () throws(RegistryRejection) in
            _ = try await registry.dismiss(id("session-1"), force: false, closingItself: true)
        } == .closeVetoed(id("preview-1")))
        #expect(Set(asked.all) == [id("editor-1"), id("preview-1")])
        let gone = try await registry.dismiss(id("session-1"), force: true, closingItself: true)
        #expect(gone == [id("preview-1"), id("editor-1"), id("session-1")])
        #expect(Set(asked.all) == [id("editor-1"), id("preview-1")])
    }

    @Test("pushing a scene that requires another opens the required scene first")
    func pushOpensRequirements() async throws {
        let registry = try chain()
        let main = try await registry.open("main").instance.id
        let pushed = try await registry.push("editor", from: main)
        #expect(pushed.id == id("editor-1"))
        #expect(try await registry.info(id("session-1")).phase == .active)
        #expect(try await registry.info(main).phase == .background)
    }

    @Test("a dependent opened while its required scene's instance is still opening waits for that one: no second one, announced after it")
    func waitsForOpeningRequirement() async throws {
        let launcher = GateLauncher()
        let registry = try chain(launcher: launcher)
        let (_, events) = registry.subscribe(buffering: .unbounded)
        let session = Task { try await registry.open("session") }
        #expect(await eventually { launcher.launches == [id("session-1")] })
        launcher.release(id("editor-1"))  // its launch, whenever it begins, finishes at once
        let step = await registry.beginOpen("editor")
        let editor = Task { await registry.finish(step) }
        launcher.release(id("session-1"))
        _ = try await session.value
        #expect(try await editor.value.get().instance.id == id("editor-1"))
        var opened: [InstanceID] = []
        for await event in events {
            if case .opened(let info) = event.event { opened.append(info.id) }
            if opened.count == 2 { break }
        }
        #expect(opened == [id("session-1"), id("editor-1")])
        #expect(launcher.launches == [id("session-1"), id("editor-1")])
    }

    @Test("a presentation waits on the instance its open lands on, even when another open of the scene took the id it would have had")
    func presentationWaitsOnItsOwnInstance() async throws {
        let registry = try chain()
        let main = try await registry.open("main").instance.id
        // Its open waits for the required session, which another open of editor opens first.
        let presenting = await registry.beginPresent("editor", from: main)
        let other = try await registry.open("editor").instance.id
        #expect(other == id("editor-1"))
        let answer = Task { await registry.finish(presenting) }
        #expect(await eventually { await registry.instances(of: "editor").count == 2 })
        #expect(await rejection { () throws(RegistryRejection) in try await registry.finish(other, result: 1) } == .notPresented(other))
        try await registry.finish(id("editor-2"), result: 2)
        let outcome = try await answer.value.get()
        #expect(outcome.instance.id == id("editor-2"))
        #expect(outcome.result == 2)
    }
}

@Suite("What a session and a restore keep")
struct SessionSnapshotTests {
    @Test("a session snapshot keeps what is open, not the reopen history, a pending link, sign-in or the id counters")
    func sessionKeepsOnlyWhatIsOpen() async throws {
        let registry = try await busyRegistry()
        let full = await registry.snapshot()
        #expect(full.closed != nil && full.pendingLink != nil)
        let session = await registry.sessionSnapshot()
        #expect(session.instances == full.instances)
        #expect(session.focusOrder == full.focusOrder)
        #expect(session.immersive == full.immersive)
        #expect(session.closed == nil)
        #expect(session.pendingLink == nil)
        #expect(session.authenticated == false)
        #expect(session.counters.isEmpty)
    }

    @Test("a restored immersive space whose saved style is its declared one follows its declaration; a changed style is kept")
    func declaredStyleIsNoChange() async throws {
        let registry = try demoRegistry()
        let portal = try await registry.open("portal").instance.id
        var snapshot = await registry.snapshot()
        let index = try #require(snapshot.instances.firstIndex { $0.id == portal })
        for (saved, kept) in [(ImmersionStyle.progressive, ImmersionStyle?.none), (.full, .full)] {
            snapshot.instances[index].style = saved
            let restored = try demoRegistry()
            try await restored.restore(snapshot)
            #expect(await restored.snapshot().instances.first { $0.id == portal }?.style == kept, "\(saved)")
        }
    }
}

@Suite("Requirements: the order dependents go in, and requirements that go meanwhile")
struct RequirementOrderTests {
    private func registry(_ scenes: String, closing: ClosePolicy? = nil, launcher: (any SceneBacking)? = nil) throws -> SceneRegistry<JSONValue> {
        try SceneRegistry(manifest: Manifest.load(from: Data(#"{"app": "o", "scenes": [\#(scenes)]}"#.utf8)), processes: launcher, closePolicy: closing)
    }

    // The order itself is the bookkeeping's rule, in RequirementRulesTests' table; these
    // check that every path carries it out.

    @Test("what requires the scene of a window pushed from a dependent goes before that dependent, which takes the window with it")
    func pushedWindowsCount() async throws {
        let registry = try registry(
            #"""
            {"id": "s", "kind": "window", "instances": "single"},
            {"id": "d", "kind": "window", "requires": ["s"]},
            {"id": "p", "kind": "window"},
            {"id": "y", "kind": "window", "requires": ["p"]}
            """#)
        let d = try await registry.open("d").instance.id
        _ = try await registry.push("p", from: d)
        _ = try await registry.open("y")
        let (_, events) = registry.subscribe(buffering: .unbounded)
        _ = try await registry.dismiss(id("s-1"))
        #expect(await dismissals(events, count: 4) == ["y-1 requirement_dismissed", "p-1 parent_dismissed", "d-1 requirement_dismissed", "s-1 requested"])
    }

    @Test("an instance with a window pushed from it still goes before the scenes it requires itself")
    func pushedWindowKeepsOwnRequirements() async throws {
        let registry = try registry(
            #"""
            {"id": "base", "kind": "window", "instances": "single"},
            {"id": "editor", "kind": "window", "requires": ["base"]},
            {"id": "detail", "kind": "window"}
            """#)
        let empty = await registry.snapshot()
        let editor = try await registry.open("editor").instance.id
        _ = try await registry.push("detail", from: editor)
        let (_, events) = registry.subscribe(buffering: .unbounded)
        _ = try await registry.loadSession(empty, force: true)
        #expect(await dismissals(events, count: 3).map { $0.prefix { $0 != " " } } == ["detail-1", "editor-1", "base-1"])
    }

    @Test("a session load dismisses what is open each before what it requires")
    func sessionLoadOrder() async throws {
        let registry = try registry(
            #"""
            {"id": "alpha", "kind": "window", "instances": "single"},
            {"id": "zeta", "kind": "window", "requires": ["alpha"]}
            """#)
        let empty = await registry.snapshot()
        _ = try await registry.open("zeta")
        let (_, events) = registry.subscribe(buffering: .unbounded)
        _ = try await registry.loadSession(empty, force: true)
        #expect(await dismissals(events, count: 2).map { $0.prefix { $0 != " " } } == ["zeta-1", "alpha-1"])
    }

    @Test("an open whose requirement goes while another requirement opens fails not_open, and opens nothing")
    func requirementGoneMeanwhile() async throws {
        let launcher = GateLauncher()
        let registry = try registry(
            #"""
            {"id": "session", "kind": "window", "instances": "single"},
            {"id": "tools", "kind": "window", "instances": "single", "launch": {"command": ["tools"]}},
            {"id": "both", "kind": "window", "requires": ["session", "tools"]}
            """#, launcher: launcher)
        let opening = Task { await rejection { () throws(RegistryRejection) in _ = try await registry.open("both") } }
        #expect(await eventually { launcher.launches == [id("tools-1")] })
        _ = try await registry.dismiss(id("session-1"))
        launcher.release(id("tools-1"))
        #expect(await opening.value == .notOpen("session"))
        #expect(await registry.instances(of: "both").isEmpty)
    }
}

