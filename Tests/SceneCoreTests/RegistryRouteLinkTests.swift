import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

@Suite("Routes that bubble")
struct RegistryRouteTests {
    @Test("a scope rule presents the route in the asking instance")
    func presentedHere() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let outcome = try await registry.route(["screen": "settings"], from: id("main-1"))
        #expect(outcome.name == "presented")
        #expect(outcome.instance.path == [.sheet(["screen": "settings"])])
    }

    @Test("a reject rule answers route_rejected with the rule's reason as detail")
    func rejectedHere() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let reason = await rejection { try await registry.route(["screen": "admin", "x": 1], from: id("main-1")) }
        #expect(reason == .routeRejected(detail: "not_allowed_here"))
        #expect(reason?.fields["detail"] == "not_allowed_here")
    }

    @Test("with no matching rule the route bubbles; the first claiming scene opens and presents it")
    func claimed() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        let outcome = try await registry.route(["screen": "globe", "zoom": 3], from: id("main-1"))
        #expect(outcome.name == "opened")
        #expect(outcome.instance.id == id("globe-1"))
        #expect(outcome.instance.path == [.push(["screen": "globe", "zoom": 3])])
        #expect(outcome.instance.focused)
        let again = try await registry.route(["screen": "globe", "zoom": 4], from: id("main-1"))
        #expect(again.name == "focused")
        #expect(again.instance.path.count == 2)
    }

    @Test("a pass rule hands the route to the registry even when a later rule would match")
    func passRule() async throws {
        let registry = try demoRegistry { root in
            guard case .array(var scenes) = root["scenes"], case .object(var main) = scenes[0] else { return }
            main["scope"] = [["when": ["screen": "globe"], "pass": true], ["when": [:], "present": "push"]]
            scenes[0] = .object(main)
            root["scenes"] = .array(scenes)
        }
        _ = try await registry.open("main")
        #expect(try await registry.route(["screen": "globe"], from: id("main-1")).instance.id == id("globe-1"))
        #expect(try await registry.route(["screen": "other"], from: id("main-1")).name == "presented")
    }

    @Test("an empty or missing when matches every route, objects or not", arguments: [
        JSONValue.string("anything"), 42, ["screen": "x"], [1, 2],
    ])
    func emptyWhen(route: JSONValue) async throws {
        let registry = try SceneRegistry<JSONValue>(app: "w", declarations: [
            SceneDeclaration(id: "w", kind: .window, scope: [ScopeRule(when: RoutePredicate(when: [:]), .present(.push))]),
        ])
        _ = try await registry.open("w")
        #expect(try await registry.route(route, from: id("w-1")).name == "presented")
    }

    @Test("a when matches nested objects by containment")
    func nestedWhen() {
        let predicate = RoutePredicate<JSONValue>(when: ["section": ["id": 3]])
        #expect(predicate.matches(["screen": "s", "section": ["id": 3, "name": "n"]]))
        #expect(!predicate.matches(["section": ["id": 4]]))
        #expect(!predicate.matches(["section": 3]))
    }

    @Test("a route nobody presents or claims is refused no_handler")
    func noHandler() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        #expect(await rejection { try await registry.route(["screen": "nowhere"], from: id("main-1")) } == .noHandler)
    }

    @Test("a route from an instance that is not open is refused not_open")
    func fromClosed() async throws {
        let registry = try demoRegistry()
        #expect(await rejection { try await registry.route("x", from: id("main-1")) } == .instanceNotOpen(id("main-1")))
    }

    @Test("a modal route already shown or queued in the instance is refused presentation_busy")
    func presentationBusy() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        _ = try await registry.route(["screen": "settings"], from: id("main-1"))
        #expect(await rejection { try await registry.route(["screen": "settings"], from: id("main-1")) }
            == .presentationBusy(id("main-1")))
        _ = try await registry.instance(id("main-1"))?.send(.dismiss)
        _ = try await registry.instance(id("main-1"))?.send(.sheet("other"))
        #expect(try await registry.route(["screen": "settings", "tab": 1], from: id("main-1")).name == "presented")
        #expect(await registry.instance(id("main-1"))?.queuedModals == [.sheet(["screen": "settings", "tab": 1])])
        #expect(await rejection { try await registry.route(["screen": "settings", "tab": 1], from: id("main-1")) }
            == .presentationBusy(id("main-1")))
    }

    @Test("a push blocked by the instance's modal is refused with the flow's reason")
    func flowReason() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("globe")
        _ = try await registry.instance(id("globe-1"))?.send(.sheet("info"))
        let reason = await rejection { try await registry.route(["screen": "globe"], from: id("globe-1")) }
        #expect(reason == .flow(.pushBlockedByModalTail))
        #expect(reason?.reason == .pushBlockedByModalTail)
    }

    @Test("a refused route that bubbles to an open instance changes nothing, focus included")
    func refusedClaimChangesNothing() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("globe")
        _ = try await registry.instance(id("globe-1"))?.send(.sheet("info"))
        _ = try await registry.open("main")
        #expect(await rejection { try await registry.route(["screen": "globe"], from: id("main-1")) }
            == .flow(.pushBlockedByModalTail))
        #expect(await registry.focused == id("main-1"))
    }

    @Test("typed routes work with closure rules and claims")
    func typedRoutes() async throws {
        enum Screen: Hashable, Codable, Sendable { case home, settings, map(Int) }
        let registry = try SceneRegistry<Screen>(app: "typed", declarations: [
            SceneDeclaration(id: "main", kind: .window, instances: .single,
                             scope: [ScopeRule(when: RoutePredicate { $0 == .settings }, .present(.cover))]),
            SceneDeclaration(id: "map", kind: .window, instances: .perValue,
                             claims: [SceneClaim(when: RoutePredicate { if case .map = $0 { true } else { false } },
                                                 present: .push)]),
        ])
        _ = try await registry.open("main")
        #expect(try await registry.route(.settings, from: id("main-1")).instance.path == [.cover(.settings)])
        let map = try await registry.route(.map(3), from: id("main-1"))
        #expect(map.instance.id == id("map-1"))
        #expect(map.instance.value == ["map": ["_0": 3]])
    }
}

@Suite("Deep links across scenes")
struct RegistryLinkTests {
    @Test("a link opens a new per-value instance with its plan and focuses it")
    func opensViewer() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("main")
        guard case .handled(let info, let opened) = await registry.openLink("demo://demo.example/viewer/42") else {
            Issue.record("the link must be handled")
            return
        }
        #expect(opened)
        #expect(info.id == id("viewer-1"))
        #expect(info.value == "42")
        #expect(info.path == [.push(["screen": "page", "doc": "42"])])
        #expect(info.focused)
    }

    @Test("a link to an open value lands in that instance and resets its path to the plan")
    func existingValue() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("viewer", value: "42")
        _ = try await registry.instance(id("viewer-1"))?.send(.push("somewhere"))
        _ = try await registry.open("main")
        guard case .handled(let info, let opened) = await registry.openLink("https://demo.example/viewer/42") else {
            Issue.record("the link must be handled")
            return
        }
        #expect(!opened)
        #expect(info.id == id("viewer-1"))
        #expect(info.path == [.push(["screen": "page", "doc": "42"])])
        #expect(await registry.focused == id("viewer-1"))
    }

    @Test("a link to a multiple scene lands in its most recently focused instance")
    func multipleMostRecent() async throws {
        let registry = try SceneRegistry<JSONValue>(
            app: "m",
            declarations: [SceneDeclaration(id: "notes", kind: .window, links: [
                SceneLinkMapping("/notes/:n") { params in (nil, FlowPlan(pushing: [.string(params.value("n")!)])) },
            ])],
            linkPolicy: LinkOriginPolicyFixture.demo)
        _ = try await registry.open("notes")
        _ = try await registry.open("notes")
        try await registry.focus(id("notes-1"))
        guard case .handled(let info, false) = await registry.openLink("demo://demo.example/notes/x") else {
            Issue.record("the link must land in an open instance")
            return
        }
        #expect(info.id == id("notes-1"))
        #expect(info.path == [.push("x")])
    }

    @Test("a link that would open a second immersive space is rejected immersive_space_busy")
    func immersiveBusy() async throws {
        let registry = try demoRegistry()
        _ = await registry.setAuthenticated(true)
        _ = try await registry.open("portal")
        #expect(await registry.openLink("demo://demo.example/theatre/x") == .rejected(.immersiveSpaceBusy(open: id("portal-1"))))
    }

    @Test("foreign, malformed, over-limit and unmatched links are refused with their reasons", arguments: [
        ("https://evil.example/viewer/1", "link_rejected"),
        ("demo://demo.example/viewer/%zz", "link_rejected"),
        ("demo://demo.example" + String(repeating: "/a", count: 200), "input_limit_exceeded"),
    ])
    func refused(url: String, code: String) async throws {
        let registry = try demoRegistry()
        guard case .rejected(let reason) = await registry.openLink(url) else {
            Issue.record("the link must be refused")
            return
        }
        #expect(reason.code == code)
    }

    @Test("a link no pattern matches is unhandled, with its normalised path")
    func unhandled() async throws {
        let registry = try demoRegistry()
        #expect(await registry.openLink("demo://demo.example/nowhere/../else/") == .unhandled(path: "/else"))
    }

    @Test("a link without a plan leaves the path alone; a plan, even empty, resets it")
    func planPresence() async throws {
        let registry = try demoRegistry { root in
            guard case .array(var scenes) = root["scenes"], case .object(var notes) = scenes[2] else { return }
            notes["links"] = [["pattern": "/notes/keep"], ["pattern": "/notes/clear", "plan": []]]
            scenes[2] = .object(notes)
            root["scenes"] = .array(scenes)
        }
        _ = try await registry.open("notes")
        _ = try await registry.instance(id("notes-1"))?.send(.push("draft"))
        guard case .handled(let kept, false) = await registry.openLink("demo://demo.example/notes/keep") else {
            Issue.record("the link must land in the open notes")
            return
        }
        #expect(kept.path == [.push("draft")])
        guard case .handled(let cleared, false) = await registry.openLink("demo://demo.example/notes/clear") else {
            Issue.record("the link must land in the open notes")
            return
        }
        #expect(cleared.path.isEmpty)
    }

    @Test("a new target is announced already showing the plan, then focused, then handled")
    func eventOrder() async throws {
        let registry = try demoRegistry()
        let events = RegistryEventRecorder(registry)
        _ = await registry.openLink("demo://demo.example/viewer/9")
        await events.receive { event in
            if case .opened(let info) = event { return info.path == [.push(["screen": "page", "doc": "9"])] }
            return false
        }
        await events.receive(.focused(id("viewer-1")))
        await events.receive(.linkHandled(url: "demo://demo.example/viewer/9", instance: id("viewer-1"), opened: true))
        await events.finish()
    }

    @Test("a link to an open target resets its path before focusing it")
    func existingOrder() async throws {
        let registry = try demoRegistry()
        _ = try await registry.open("viewer", value: "9")
        _ = try await registry.open("main")
        let events = RegistryEventRecorder(registry)
        _ = await registry.openLink("demo://demo.example/viewer/9")
        await events.receive(.flowChanged(id("viewer-1"), path: [.push(["screen": "page", "doc": "9"])], queue: [], cause: FlowCause(by: .link)))
        await events.receive(.focused(id("viewer-1")))
        await events.receive(.linkHandled(url: "demo://demo.example/viewer/9", instance: id("viewer-1"), opened: false))
        await events.finish()
    }

    @Test("a link that needs sign-in waits; signing in replays it and says what it did")
    func authGate() async throws {
        let registry = try demoRegistry()
        let events = RegistryEventRecorder(registry)
        #expect(await registry.openLink("demo://demo.example/theatre/a") == .pending(url: "demo://demo.example/theatre/a", superseded: nil))
        #expect(await registry.openLink("demo://demo.example/theatre/b")
            == .pending(url: "demo://demo.example/theatre/b", superseded: "demo://demo.example/theatre/a"))
        #expect(await registry.pendingLink == "demo://demo.example/theatre/b")
        guard case .handled(let info, true)? = await registry.setAuthenticated(true) else {
            Issue.record("signing in must replay the pending link")
            return
        }
        #expect(info.value == "b")
        #expect(await registry.pendingLink == nil)
        await events.receive(.linkPending(url: "demo://demo.example/theatre/a"))
        await events.receive(.linkSuperseded(url: "demo://demo.example/theatre/a"))
        await events.receive(.linkPending(url: "demo://demo.example/theatre/b"))
        await events.receive(.authChanged(authenticated: true))
        await events.receive { if case .opened(let opened) = $0 { return opened.id == info.id } else { return false } }
        await events.receive(.linkHandled(url: "demo://demo.example/theatre/b", instance: info.id, opened: true))
        await events.finish()
    }

    @Test("signing in with nothing pending replays nothing")
    func authNothing() async throws {
        let registry = try demoRegistry()
        #expect(await registry.setAuthenticated(true) == nil)
        #expect(await registry.isAuthenticated)
    }
}

enum LinkOriginPolicyFixture {
    static let demo = Manifest.demo.linkPolicy
}
