import Foundation
import SceneFlow
import SceneJSON
import Testing

@Suite("Wire shapes of steps, plans and intents")
struct FlowCodingTests {
    @Test("every intent encodes to its documented JSON shape and decodes back", arguments: [
        (FlowIntent<JSONValue>.push("a"), #"{"route":"a","type":"push"}"#),
        (.pushMany(["a", "b"]), #"{"routes":["a","b"],"type":"pushMany"}"#),
        (.sheet(["id": 1]), #"{"route":{"id":1},"type":"sheet"}"#),
        (.cover("c"), #"{"route":"c","type":"cover"}"#),
        (.pop, #"{"type":"pop"}"#),
        (.popCount(3), #"{"count":3,"type":"pop"}"#),
        (.popTo("a"), #"{"route":"a","type":"popTo"}"#),
        (.popToRoot, #"{"type":"popToRoot"}"#),
        (.dismiss, #"{"type":"dismiss"}"#),
        (.dismissAll, #"{"type":"dismissAll"}"#),
        (.reset([.push("a"), .sheet("b")]),
         #"{"steps":[{"route":"a","type":"push"},{"route":"b","type":"sheet"}],"type":"reset"}"#),
        (.replaceStack(["x"]), #"{"routes":["x"],"type":"replaceStack"}"#),
        (.backOrPush("a"), #"{"route":"a","type":"backOrPush"}"#),
        (.pushUnique("a"), #"{"route":"a","type":"pushUnique"}"#),
    ])
    func intentShape(intent: FlowIntent<JSONValue>, json: String) throws {
        #expect(try encodeJSON(intent) == json)
        #expect(try decodeJSON(FlowIntent<JSONValue>.self, json) == intent)
    }

    @Test("an unknown intent type is a decoding error that names it")
    func unknownIntent() {
        do {
            _ = try decodeJSON(FlowIntent<JSONValue>.self, #"{"type":"teleport"}"#)
            Issue.record("decoding an unknown intent must fail")
        } catch {
            #expect("\(error)".contains("teleport"))
        }
    }

    @Test("an intent missing its argument fails to decode", arguments: [
        #"{"type":"push"}"#, #"{"type":"pushMany","routes":"a"}"#, #"{"type":"pop","count":"x"}"#,
        #"{"route":"a"}"#, #"[]"#,
    ])
    func missingArgument(json: String) {
        #expect(throws: DecodingError.self) { try decodeJSON(FlowIntent<JSONValue>.self, json) }
    }

    @Test("a step encodes as type and route")
    func stepShape() throws {
        #expect(try encodeJSON(RouteStep<JSONValue>.cover(["a": 1])) == #"{"route":{"a":1},"type":"cover"}"#)
        #expect(throws: DecodingError.self) {
            try decodeJSON(RouteStep<JSONValue>.self, #"{"type":"popover","route":1}"#)
        }
    }

    @Test("a plan validates on construction", arguments: [
        ([RouteStep<String>](), nil as FlowPlanError?),
        ([.push("a"), .push("b"), .sheet("c")], nil),
        ([.cover("c")], nil),
        ([.sheet("a"), .cover("b")], .tooManyModals(count: 2)),
        ([.sheet("a"), .push("b")], .modalNotAtTail(index: 0)),
        ([.push("a"), .cover("b"), .push("c"), .sheet("d")], .tooManyModals(count: 2)),
    ])
    func planValidation(steps: [RouteStep<String>], problem: FlowPlanError?) {
        #expect(FlowPlan.problem(in: steps) == problem)
        do {
            let plan = try FlowPlan(validating: steps)
            #expect(problem == nil)
            #expect(plan.steps == steps)
        } catch {
            #expect(error == problem)
        }
    }

    @Test("decoding a plan validates it")
    func planDecodingValidates() throws {
        let valid = try decodeJSON(FlowPlan<String>.self, #"[{"type":"push","route":"a"},{"type":"sheet","route":"b"}]"#)
        #expect(valid.steps == [.push("a"), .sheet("b")])
        #expect(throws: DecodingError.self) {
            try decodeJSON(FlowPlan<String>.self, #"[{"type":"sheet","route":"a"},{"type":"push","route":"b"}]"#)
        }
    }
}
