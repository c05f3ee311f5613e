import SceneCore
import SceneTesting
import Testing

// snippet.hide
// SceneTesting.docc/SceneTesting.md, "When a wait runs out".
struct EventuallyArticle {
// snippet.show
@Test("an instance dismissed in the background leaves the registry's state")
func dismissedMeanwhile() async throws {
    let registry = try SceneRegistry(.demo)
    let main = try await registry.scenes.open(DemoScenes.main)
    Task { _ = try await registry.dismiss(main) }
    #expect(await eventually { await registry.state().instances.isEmpty })
}
// snippet.hide
}
