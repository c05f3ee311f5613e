public import SceneJSON

/// The reasons of the registry's rules (``RegistryRejection``), of a flow's rules
/// (`FlowRejection`, `FlowPlanProblem`, …) and of calls to a scene's code (``SceneError``):
/// `data.reason` of a -32000 error, as §4.3 of the protocol lists them.
extension ReasonCode {
    /// ``RegistryRejection/unknownScene(_:)``.
    public static let unknownScene: ReasonCode = "unknown_scene"
    /// ``RegistryRejection/notOpen(_:)``, ``RegistryRejection/instanceNotOpen(_:)``.
    public static let notOpen: ReasonCode = "not_open"
    /// ``RegistryRejection/instanceLimitReached(scene:max:)``.
    public static let instanceLimitReached: ReasonCode = "instance_limit_reached"
    /// ``RegistryRejection/valueRequired(scene:)``.
    public static let valueRequired: ReasonCode = "value_required"
    /// ``RegistryRejection/immersiveSpaceBusy(open:)``.
    public static let immersiveSpaceBusy: ReasonCode = "immersive_space_busy"
    /// ``RegistryRejection/nothingToDismiss``.
    public static let nothingToDismiss: ReasonCode = "nothing_to_dismiss"
    /// ``RegistryRejection/pushFromPushedWindow(_:)``.
    public static let pushFromPushedWindow: ReasonCode = "push_from_pushed_window"
    /// ``RegistryRejection/notAWindow(_:)``.
    public static let notAWindow: ReasonCode = "not_a_window"
    /// ``RegistryRejection/alreadyOpen(_:)``.
    public static let alreadyOpen: ReasonCode = "already_open"
    /// ``RegistryRejection/coveredByPushedWindow(_:)``.
    public static let coveredByPushedWindow: ReasonCode = "covered_by_pushed_window"
    /// ``RegistryRejection/notFocusable(_:)``.
    public static let notFocusable: ReasonCode = "not_focusable"
    /// ``RegistryRejection/cancelled(_:)``.
    public static let cancelled: ReasonCode = "cancelled"
    /// ``RegistryRejection/invalidPhase(_:)``.
    public static let invalidPhase: ReasonCode = "invalid_phase"
    /// ``RegistryRejection/routeRejected(detail:)``.
    public static let routeRejected: ReasonCode = "route_rejected"
    /// ``RegistryRejection/noHandler``.
    public static let noHandler: ReasonCode = "no_handler"
    /// ``RegistryRejection/presentationBusy(_:)``.
    public static let presentationBusy: ReasonCode = "presentation_busy"
    /// A deep link refused by its origin policy or its limits (``RegistryRejection/link(_:)``).
    public static let linkRejected: ReasonCode = "link_rejected"
    /// A deep link longer or deeper than the limits allow.
    public static let inputLimitExceeded: ReasonCode = "input_limit_exceeded"
    /// ``RegistryRejection/linkUnhandled(path:)``.
    public static let linkUnhandled: ReasonCode = "link_unhandled"
    /// ``RegistryRejection/launchFailed(_:detail:)``.
    public static let launchFailed: ReasonCode = "launch_failed"
    /// ``RegistryRejection/launchTimeout(_:seconds:)``.
    public static let launchTimeout: ReasonCode = "launch_timeout"
    /// ``RegistryRejection/closeVetoed(_:)``.
    public static let closeVetoed: ReasonCode = "close_vetoed"
    /// ``RegistryRejection/pathMismatch(expected:observed:)``.
    public static let pathMismatch: ReasonCode = "path_mismatch"
    /// ``RegistryRejection/invalidProgram(step:detail:)``.
    public static let invalidProgram: ReasonCode = "invalid_program"
    /// ``RegistryRejection/notPresented(_:)``.
    public static let notPresented: ReasonCode = "not_presented"
    /// ``RegistryRejection/dismissedWithoutResult(_:)``.
    public static let dismissedWithoutResult: ReasonCode = "dismissed_without_result"
    /// ``RegistryRejection/parentDismissed(_:)``.
    public static let parentDismissed: ReasonCode = "parent_dismissed"
    /// ``RegistryRejection/unknownSignal(scene:signal:)``.
    public static let unknownSignal: ReasonCode = "unknown_signal"
    /// ``RegistryRejection/nothingToReopen(scene:)``.
    public static let nothingToReopen: ReasonCode = "nothing_to_reopen"
    /// ``RegistryRejection/styleNotAllowed(_:style:allowed:)``.
    public static let styleNotAllowed: ReasonCode = "style_not_allowed"

    // MARK: A flow's rules

    /// A push while a sheet or cover shows.
    public static let pushBlockedByModalTail: ReasonCode = "push_blocked_by_modal_tail"
    /// A pop, or a change below the top, while a sheet or cover shows.
    public static let popBlockedByModalTail: ReasonCode = "pop_blocked_by_modal_tail"
    /// A pop of more screens than the stack has.
    public static let insufficientDepth: ReasonCode = "insufficient_depth"
    /// A negative pop count.
    public static let invalidCount: ReasonCode = "invalid_count"
    /// A pop to a route not in the stack.
    public static let routeNotFound: ReasonCode = "route_not_found"
    /// A plan or path that breaks a flow's rules.
    public static let invalidPlan: ReasonCode = "invalid_plan"
    /// A middleware cancelled the intent.
    public static let middlewareCancelled: ReasonCode = "middleware_cancelled"
    /// An intent queued more follow-ups than allowed.
    public static let followUpLimitExceeded: ReasonCode = "follow_up_limit_exceeded"

    // MARK: Calls to a scene's code

    /// The scene's code failed with an error that is not a ``SceneError``.
    public static let sceneFailed: ReasonCode = "scene_failed"
    /// A call or notification to an open instance with nothing answering for it: a virtual
    /// scene, or one being restarted.
    public static let notConnected: ReasonCode = "not_connected"
    /// The target of a call did not answer in time.
    public static let callTimeout: ReasonCode = "call_timeout"
    /// A scene asked for what a scene may not (`focus`), or acted for another instance
    /// (`data.method`).
    public static let forbidden: ReasonCode = "forbidden"
    /// A call of a method whose name begins with `scene.` or `flow.`, which the protocol keeps.
    public static let reservedMethod: ReasonCode = "reserved_method"
}
