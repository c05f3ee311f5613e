import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

private let main = InstanceID(scene: "main", number: 1)

private func demoStore(exhaustivity: Exhaustivity = .on) throws -> RegistryTestStore<JSONValue> {
    RegistryTestStore(try SceneRegistry(manifest: .demo), exhaustivity: exhaustivity)
}

private func isRejection(_ event: RegistryEvent<JSONValue>) -> Bool {
    if case .requestRejected = event { return true }
    return false
}

@Suite("RegistryTestStore passes a test that asserts everything")
struct RegistryTestStorePassing {
    @Test("a script that asserts every outcome, refusal, event and the state records no issue")
    func complete() async throws {
        let store = try demoStore()
        let opened = try #require(await store.open("main", .opened))
        await store.receive(.opened(opened))
        await store.receive(.focused(main))
        await store.open("main", .focused)
        await store.expect(.presented) { try await $0.route(["screen": "settings"], from: main) }
        await store.receive { if case .flowChanged(main, _, _, _) = $0 { true } else { false } }
        await store.expect(rejected: .unknownScene("nowhere")) { try await $0.open("nowhere") }
        await store.receive(where: isRejection)
        await store.assert(\.focused, main)
        await store.assert(\.instances.count, 1)
        await store.assertState(await store.registry.state())
        await store.finish()
    }

    @Test("with exhaustivity off, events not received do not fail the test")
    func notExhaustive() async throws {
        let store = try demoStore(exhaustivity: .off)
        await store.open("main", .opened)
        await store.open("notes", .opened)
        await store.finish()
    }
}

@Suite("RegistryTestStore fails a test for every wrong or unasserted thing")
struct RegistryTestStoreFailing {
    @Test("a wrong outcome fails")
    func wrongOutcome() async throws {
        let store = try demoStore(exhaustivity: .off)
        await withKnownIssue {
            await store.open("main", .focused)
        } matching: { $0.says("expected focused") }
    }

    @Test("a request that fails when an outcome was expected fails, with the refusal")
    func unexpectedRefusal() async throws {
        let store = try demoStore(exhaustivity: .off)
        await withKnownIssue {
            await store.open("nowhere", .opened)
        } matching: { $0.says("rejected unknown_scene") }
    }

    @Test("a refusal with another reason, or an answer where a refusal was expected, fails")
    func wrongRefusal() async throws {
        let store = try demoStore(exhaustivity: .off)
        await withKnownIssue {
            await store.expect(rejected: .notOpen("main")) { try await $0.open("nowhere") }
        } matching: { $0.says("it was rejected") }
        await withKnownIssue {
            await store.expect(rejected: .notOpen("main")) { try await $0.open("main") }
        } matching: { $0.says("the request answered") }
    }

    @Test("an event not received fails at finish")
    func unreceived() async throws {
        let store = try demoStore()
        await store.open("main", .opened)
        await withKnownIssue {
            await store.finish()
        } matching: { $0.says("event not asserted") }
    }

    @Test("a store that ends without finish still fails on the events nobody received")
    func endsWithoutFinish() async throws {
        let registry = try SceneRegistry(manifest: .demo)
        await withKnownIssue {
            let store = RegistryTestStore(registry)
            await store.open("main", .opened)
        } matching: { $0.says("the store ended without finish()") }
    }

    @Test("a different event than the one expected fails")
    func wrongEvent() async throws {
        let store = try demoStore(exhaustivity: .off)
        await store.open("main", .opened)
        await withKnownIssue {
            await store.receive(.focused(main))
        } matching: { $0.says("expected event") }
    }

    @Test("no event within the wait fails, saying so")
    func noEvent() async throws {
        let store = try demoStore()
        await withKnownIssue {
            await store.receive(.focused(main), timeout: .milliseconds(50))
        } matching: { $0.says("no event within") }
    }

    @Test("a wrong part of the state fails, with the difference; so does a wrong whole state")
    func wrongState() async throws {
        let store = try demoStore(exhaustivity: .off)
        let before = await store.registry.state()
        await store.open("main", .opened)
        await withKnownIssue {
            await store.assert(\.focused, nil)
        } matching: { $0.says("state \\RegistryState") }
        await withKnownIssue {
            await store.assertState(before)
        } matching: { $0.says("the state differs") }
    }
}
