import Distributed
import SceneCore
import SceneJSON

distributed actor Notes: DistributedScene {
    let context: SceneContext<JSONValue>
    private var drafts: [String] = []

    init(context: SceneContext<JSONValue>) {
        self.context = context
        actorSystem = context.actorSystem      // its id is its instance
    }

    distributed func save(draft: String, count: Int) -> Int {
        drafts.append(draft)
        return draft.count * count
    }
}

extension SceneID where Value == NoValue { static let notes: Self = "notes" }

let registry = try SceneRegistry(SceneSet(app: "notes") {
    Window(.notes, instances: .multiple(max: nil), behavior: Notes.behavior(Notes.init(context:)))
        .activatable()
})
let notes = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
let total = try await notes.save(draft: "hello", count: 2)   // opened the scene, then called it
// snippet.hide
precondition(total == 10)
let open = await registry.state().instances.map(\.id.description)
precondition(open == ["notes-1"], "\(open)")
