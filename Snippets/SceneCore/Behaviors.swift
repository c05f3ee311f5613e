import SceneCore

extension SceneID where Value == NoValue { static let counter: Self = "counter" }
extension SceneMethod where Params == Int, Answer == Int { static let add: Self = "add" }

actor Counter: SceneBehavior {
    var count = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let amount = try call.params(of: .add) else { throw SceneError.methodNotFound(call.method) }
        count += amount
        return SceneMethod.add.answer(count)
    }

    func close(force: Bool) async -> Bool { force || count == 0 }
}

let registry = try SceneRegistry(SceneSet(app: "tally") { Window(.counter) { _ in Counter() } })
let counter = try await registry.scenes.open(.counter)
let total = try await registry.scenes.call(.add, 5, on: .instance(counter))   // 5
// snippet.hide
precondition(total == 5)

// SceneCore.docc, "Scenes declared in Swift".
extension SceneID where Value == NoValue { static let notes: Self = "notes" }
// snippet.show
let scenes = SceneSet(app: "tally") {
    Window(.counter, instances: .single) { _ in Counter() }
    Window(.notes).requires(.counter)
}
// snippet.hide
// The requirement holds: opening notes opens a counter first.
let tally = try SceneRegistry(scenes)
_ = try await tally.scenes.open(.notes)
let opened = await tally.state().instances.map(\.id.description)
precondition(opened == ["counter-1", "notes-1"], "\(opened)")
