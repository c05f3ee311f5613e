import SceneCore
import SceneFlow
import SceneJSON
import SceneTesting
import Testing

/// The examples of SceneTesting's documentation (SceneTesting.docc/SceneTesting.md, and
/// the README's "Testing your scenes"), as written there.
@Suite("The documented test-store examples pass as written")
struct DocumentedTestStoreExamples {
    @Test("a cover waits behind the sheet, and shows once the sheet is dismissed")
    func coverWaits() {
        let flow = FlowTestStore<String>()
        flow.send(.push("inbox"), .changed, path: [.push("inbox")])
        flow.send(.sheet("compose"), .changed, path: [.push("inbox"), .sheet("compose")])
        flow.send(.cover("login"), .queued, queued: [.cover("login")])
        flow.send(.push("settings"), rejected: .pushBlockedByModalTail)
        flow.send(.dismiss, .changed, path: [.push("inbox"), .cover("login")], queued: [])
        flow.finish()
    }

    @Test("opening the single main window twice focuses the one instance")
    func singleMain() async throws {
        let store = RegistryTestStore(try SceneRegistry(manifest: .demo))
        let main = try #require(await store.open("main", .opened))
        await store.receive(.opened(main))
        await store.receive(.focused(main.id))
        await store.open("main", .focused)
        await store.expect(rejected: .unknownScene("nowhere")) { try await $0.scenes.open(SceneID<NoValue>("nowhere")) }
        await store.receive { if case .requestRejected = $0 { true } else { false } }
        await store.assert(\.focused, main.id)
        await store.finish()
    }

    @Test("an instance dismissed in the background leaves the registry's state")
    func dismissedMeanwhile() async throws {
        let registry = try SceneRegistry(.demo)
        let main = try await registry.scenes.open(DemoScenes.main)
        Task { _ = try await registry.dismiss(main) }
        #expect(await eventually { await registry.state().instances.isEmpty })
    }
}
