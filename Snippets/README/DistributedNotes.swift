import Distributed
import SceneCore
import SceneJSON

extension SceneID where Value == NoValue { static let notes: Self = "notes" }

distributed actor Notes: DistributedScene {
    init(context: SceneContext<JSONValue>) { actorSystem = context.actorSystem }
    distributed func save(draft: String, count: Int) -> Int { draft.count * count }
}

let notebooks = try SceneRegistry(SceneSet(app: "notes") {
    Window(.notes, behavior: Notes.behavior(Notes.init(context:))).activatable()
})
let notes = try Notes.resolve(id: .scene(SceneID.notes.id), using: notebooks.actorSystem)
print(try await notes.save(draft: "hello", count: 2))   // the call opened the scene
// snippet.hide
// What the comment says: the call opened the scene, and it is the one instance.
let open = await notebooks.state().instances.map(\.id.description)
precondition(open == ["notes-1"], "\(open)")
