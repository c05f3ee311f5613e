import SceneCore
import SceneFlow
import SceneJSON
import SceneLinks
import Testing

private let instance = InstanceID(scene: "a", number: 1)

@Suite("Reasons are typed: each rule's refusal matches its constant, and the constant is the wire's word")
struct ReasonCodeTests {
    @Test(
        "every registry refusal's reason is its constant",
        arguments: [
            (RegistryRejection.unknownScene(""), ReasonCode.unknownScene), (.notOpen(""), .notOpen), (.instanceNotOpen(instance), .notOpen),
            (.instanceLimitReached(scene: "", max: 1), .instanceLimitReached), (.valueRequired(scene: ""), .valueRequired),
            (.immersiveSpaceBusy(open: instance), .immersiveSpaceBusy), (.nothingToDismiss, .nothingToDismiss),
            (.pushFromPushedWindow(instance), .pushFromPushedWindow), (.notAWindow(""), .notAWindow), (.alreadyOpen(instance), .alreadyOpen),
            (.coveredByPushedWindow(instance), .coveredByPushedWindow), (.notFocusable(instance), .notFocusable),
            (.cancelled(instance), .cancelled), (.invalidPhase(.closed), .invalidPhase), (.routeRejected(detail: ""), .routeRejected),
            (.noHandler, .noHandler), (.presentationBusy(instance), .presentationBusy), (.linkUnhandled(path: "/"), .linkUnhandled),
            (.link(.malformedURL("x")), .linkRejected),
            (.launchFailed(instance, detail: ""), .launchFailed), (.launchTimeout(instance, seconds: 1), .launchTimeout),
            (.closeVetoed(instance), .closeVetoed), (.pathMismatch(expected: [], observed: []), .pathMismatch),
            (.invalidProgram(step: 0, detail: ""), .invalidProgram), (.notPresented(instance), .notPresented),
            (.dismissedWithoutResult(instance), .dismissedWithoutResult), (.parentDismissed(instance), .parentDismissed),
            (.unknownSignal(scene: "", signal: ""), .unknownSignal), (.nothingToReopen(scene: nil), .nothingToReopen),
            (.styleNotAllowed(instance, style: .full, allowed: []), .styleNotAllowed),
            (.flow(.pushBlockedByModalTail), .pushBlockedByModalTail), (.flow(.popBlockedByModalTail), .popBlockedByModalTail),
            (.flow(.insufficientDepth(requested: 1, available: 0)), .insufficientDepth), (.flow(.invalidCount(-1)), .invalidCount),
            (.flow(.routeNotFound), .routeNotFound), (.flow(.invalidPlan(.tooManyModals(count: 2))), .invalidPlan),
            (.flow(.middlewareCancelled(name: "m", reason: "r")), .middlewareCancelled),
            (.flow(.followUpLimitExceeded(limit: 1)), .followUpLimitExceeded),
        ])
    func registry(rejection: RegistryRejection, reason: ReasonCode) {
        #expect(rejection.reason == reason)
        #expect(SceneError(rejection).reason == reason)
    }

    @Test("a call's own failures carry their constants")
    func calls() {
        #expect(SceneError.sceneFailed("x").reason == .sceneFailed)
        #expect(SceneError.reservedMethod("scene.x").reason == .reservedMethod)
    }

    @Test("a reason is its word: from a literal, in JSON, and as text")
    func word() throws {
        let own: ReasonCode = "out_of_paper"
        #expect(own == ReasonCode("out_of_paper") && own.rawValue == "out_of_paper" && "\(own)" == "out_of_paper")
        #expect(try JSONValue(encoding: ReasonCode.closeVetoed) == .string("close_vetoed"))
        #expect(try JSONValue.string("not_open").decode(as: ReasonCode.self) == .notOpen)
    }
}

@Suite("A call's target as JSON: the wire's to")
struct SceneTargetJSONTests {
    @Test("an instance is its id, a scene is {scene}; each reads back; a malformed id does not read")
    func wireForm() throws {
        let instance = SceneTarget.instance(InstanceID(scene: "viewer", number: 2))
        #expect(try JSONValue(encoding: instance) == "viewer-2")
        #expect(try JSONValue(encoding: SceneTarget.scene("notes")) == ["scene": "notes"])
        #expect(try JSONValue.string("viewer-2").decode(as: SceneTarget.self) == instance)
        #expect(try JSONValue.object(["scene": "notes"]).decode(as: SceneTarget.self) == .scene("notes"))
        #expect(throws: (any Error).self) { try JSONValue.string("viewer").decode(as: SceneTarget.self) }
    }
}
