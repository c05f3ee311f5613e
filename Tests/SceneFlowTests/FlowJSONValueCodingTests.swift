import SceneFlow
import SceneJSON
import Testing

@Suite("Flow values through JSONValue")
struct FlowJSONValueCodingTests {
    @Test("every intent decodes from JSONValue as from bytes")
    func intents() throws {
        let intents: [FlowIntent<JSONValue>] = [
            .push("a"), .pushMany(["a", 1]), .sheet(nil), .cover(["k": true]), .pop, .popCount(2), .popTo("a"),
            .popToRoot, .dismiss, .dismissAll, .reset([.push("a"), .cover("c")]), .replaceStack([]), .backOrPush(3),
            .pushUnique("u"),
        ]
        for intent in intents {
            #expect(try JSONValue.encoded(intent).decoded(as: FlowIntent<JSONValue>.self) == intent)
        }
    }
}
