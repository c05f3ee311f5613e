import SceneCore
import SceneFlow
import SceneJSON
import Testing

@Suite("The flow's reasons on the wire: stable codes, values as named fields")
struct FlowReasonWireTests {
    @Test("reason codes are stable snake_case strings", arguments: [
        (FlowRejection.pushBlockedByModalTail as any CodedReason, "push_blocked_by_modal_tail"),
        (FlowRejection.popBlockedByModalTail, "pop_blocked_by_modal_tail"),
        (FlowRejection.insufficientDepth(requested: 2, available: 1), "insufficient_depth"),
        (FlowRejection.invalidCount(-1), "invalid_count"),
        (FlowRejection.routeNotFound, "route_not_found"),
        (FlowRejection.invalidPlan(.tooManyModals(count: 2)), "invalid_plan"),
        (FlowRejection.middlewareCancelled(name: "m", reason: "r"), "middleware_cancelled"),
        (FlowRejection.followUpLimitExceeded(limit: 1), "follow_up_limit_exceeded"),
        (FlowPlanError.tooManyModals(count: 2), "too_many_modals"),
        (FlowPlanError.modalNotAtTail(index: 0), "modal_not_at_tail"),
    ])
    func reasonCodes(reason: any CodedReason, code: String) {
        #expect(reason.code == code)
        #expect(!reason.description.isEmpty)
    }

    @Test("a rejection carries its associated values as named fields")
    func reasonFields() {
        #expect(FlowRejection.insufficientDepth(requested: 3, available: 1).fields
            == ["requested": 3, "available": 1])
        #expect(FlowRejection.middlewareCancelled(name: "auth", reason: "signed out").fields
            == ["middleware": "auth", "detail": "signed out"])
        #expect(FlowRejection.invalidPlan(.modalNotAtTail(index: 1)).fields == ["detail": "modal_not_at_tail", "index": 1])
        #expect(FlowPlanError.tooManyModals(count: 2).fields == ["count": 2])
        #expect(FlowRestoreProblem.invalidPath(.tooManyModals(count: 3)).fields == ["detail": "too_many_modals", "count": 3])
        #expect(FlowRestoreProblem.unsupportedVersion(9).fields == ["version": 9])
        #expect(FlowRestoreError(problems: [.queueWithoutModal(count: 1), .queuedStepNotModal(index: 0)]).fields
            == ["problems": ["queue_without_modal", "queued_step_not_modal"]])
        #expect(MiddlewareChainError.indexOutOfRange(index: 5, count: 2).fields.isEmpty)
    }
}
