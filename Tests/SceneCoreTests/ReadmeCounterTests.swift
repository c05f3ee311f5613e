import SceneCore
import Testing

// The README's tour, as it is written there.
extension SceneID where Value == NoValue { fileprivate static let counter: Self = "counter" }
extension SceneMethod where Params == Int, Answer == Int { fileprivate static let add: Self = "add" }

private actor TallyCounter: SceneBehavior {
    var count = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let amount = try call.params(of: .add) else { throw SceneError.methodNotFound(call.method) }
        count += amount
        return SceneMethod.add.answer(count)
    }

    func close(force: Bool) async -> Bool { force || count == 0 }
}

@Test("the README's counter: declared in Swift, called by a typed method, and it refuses to close once it has counted")
func readmeCounter() async throws {
    let registry = try SceneRegistry(SceneSet(app: "tally") {
        Window(.counter, instances: .single) { _ in TallyCounter() }
    })
    let counter = try await registry.scenes.open(.counter)
    #expect(try await registry.scenes.call(.add, 5, on: .instance(counter)) == 5)
    // Any other outcome fails the test: a dismissal, or another error, which propagates.
    do {
        try await registry.scenes.dismiss(counter)
        Issue.record("the counter closed although it has counted")
    } catch where error.reason == .closeVetoed {}
}
