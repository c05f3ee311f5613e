import Distributed
import SceneCore
import SceneJSON
import Testing

// The README's distributed notebook, as it is written there.
extension SceneID where Value == NoValue { fileprivate static let notes: Self = "notes" }

private distributed actor ReadmeNotes: DistributedScene {
    init(context: SceneContext<JSONValue>) { actorSystem = context.actorSystem }
    distributed func save(draft: String, count: Int) -> Int { draft.count * count }
}

@Test("the README's distributed notebook: a typed call opens the activatable scene and is answered by its actor")
func readmeNotes() async throws {
    let notebooks = try SceneRegistry(SceneSet(app: "notes") {
        Window(.notes, behavior: ReadmeNotes.behavior(ReadmeNotes.init)).activatable()
    })
    let notes = try ReadmeNotes.resolve(id: .scene(SceneID.notes.id), using: notebooks.actorSystem)
    #expect(try await notes.save(draft: "hello", count: 2) == 10)
    #expect(await notebooks.instances(of: "notes").count == 1)
}
