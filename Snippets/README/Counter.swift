import SceneCore

// Each scene and method is named once, typed by its value, params and result.
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

// Declared in Swift, the behaviour beside its scene (a JSON manifest declares the same).
let registry = try SceneRegistry(SceneSet(app: "tally") {
    Window(.counter, instances: .single) { _ in Counter() }
})
let counter = try await registry.scenes.open(.counter)
print(try await registry.scenes.call(.add, 5, on: .instance(counter)))
do {
    try await registry.scenes.dismiss(counter)   // it has counted: it refuses to close
} catch {
    print("refused:", error.reason!)
}
