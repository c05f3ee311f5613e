import SceneCore

extension SceneID where Value == String { static let viewer: Self = "viewer" }
extension SceneMethod where Params == Int, Answer == Int { static let add: Self = "add" }

// snippet.hide
/// Adds what it is given to what it has.
actor Adder: SceneBehavior {
    var sum = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        sum += try call.params(of: .add) ?? 0
        return SceneMethod.add.answer(sum)
    }
}

let registry = try SceneRegistry(SceneSet(app: "typed") {
    Window(.viewer, instances: .perValue)
    Window(SceneID<NoValue>("counter")) { _ in Adder() }
})
let document = (id: "report", title: "Report")
let counter = try await registry.scenes.open(SceneID<NoValue>("counter"))
// snippet.show
let viewer = try await registry.scenes.open(.viewer, value: document.id)
let total = try await registry.scenes.call(.add, 5, on: .instance(counter))
// snippet.hide
precondition(viewer.description == "viewer-1" && total == 5)
