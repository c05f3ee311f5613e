import SceneCore
import SceneTesting
import Testing

// snippet.hide
// SceneTesting.docc/SceneTesting.md, "Testing a registry".
struct RegistryTestStoreArticle {
// snippet.show
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
// snippet.hide
}
