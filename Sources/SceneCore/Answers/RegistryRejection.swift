public import SceneFlow
public import SceneJSON
public import SceneLinks

/// Why the registry refused a request. Nothing changed when a request is refused.
///
/// Each case has a stable snake_case ``code`` that the wire carries unchanged; flow and
/// link reasons keep the codes their own modules define.
public enum RegistryRejection: CodedReason {
    /// No scene is declared with this id.
    case unknownScene(String)
    /// No instance of the scene (and value) is open, or no other thing named is (an
    /// immersive space, a program step's instance).
    case notOpen(String)
    /// No open instance has this id.
    case instanceNotOpen(InstanceID)
    /// The scene's `multiple` policy allows no more instances.
    case instanceLimitReached(scene: String, max: Int)
    /// A per-value scene was opened without a value.
    case valueRequired(scene: String)
    /// Another immersive space is open (policy `reject`).
    case immersiveSpaceBusy(open: InstanceID)
    /// `dismissImmersive` with no immersive space open.
    case nothingToDismiss
    /// A push from a window that was itself pushed.
    case pushFromPushedWindow(InstanceID)
    /// The instance (or the scene) is not a window, where a window is needed.
    case notAWindow(String)
    /// The push target is already open, as this instance.
    case alreadyOpen(InstanceID)
    /// The window is hidden behind the window pushed from it.
    case coveredByPushedWindow(InstanceID)
    /// An immersive space does not take part in focus.
    case notFocusable(InstanceID)
    /// The instance was dismissed while it was opening.
    case cancelled(InstanceID)
    /// A scene may report only `active`, `inactive` or `background`.
    case invalidPhase(ScenePhase)
    /// A scope rule refused the route; `detail` is the rule's own reason.
    case routeRejected(detail: String)
    /// No scope rule presented the route and no scene claims it.
    case noHandler
    /// An equal route is already shown or queued as a sheet or cover in that instance.
    case presentationBusy(InstanceID)
    /// The instance's flow store refused the intent.
    case flow(FlowRejection)
    /// The deep-link engine refused the link.
    case link(LinkRejection)
    /// No deep-link pattern matches the URL (its normalised path).
    case linkUnhandled(path: String)
    /// What backs the instance could not start; `detail` says why.
    case launchFailed(InstanceID, detail: String)
    /// What backs the instance did not become ready within `seconds`.
    case launchTimeout(InstanceID, seconds: Double)
    /// The instance refused an interactive close (it has unsaved state, say).
    case closeVetoed(InstanceID)
    /// `flow.reconcile` with policy `reject`: the path a UI toolkit observed is not the
    /// instance's; both are given as the wire carries paths.
    case pathMismatch(expected: JSONValue, observed: JSONValue)
    /// A program whose step `step` refers to a step that is not an earlier one, or to one
    /// whose result names no instance (the wire answers such a program -32602 instead).
    case invalidProgram(step: Int, detail: String)
    /// `scene.finish` for an instance nobody presented (or whose presentation ended).
    case notPresented(InstanceID)
    /// A presented instance was dismissed before it finished.
    case dismissedWithoutResult(InstanceID)
    /// The instance a presentation was made from was dismissed first; the presented one
    /// was told and dismissed too.
    case parentDismissed(InstanceID)
    /// A scene with an interface emitted a signal the interface does not declare.
    case unknownSignal(scene: String, signal: String)
    /// `scene.reopen` found no dismissed instance (of the scene, when one was named).
    case nothingToReopen(scene: String?)
    /// `immersive.style` asked the open space for a style its scene does not declare.
    case styleNotAllowed(InstanceID, style: ImmersionStyle, allowed: [ImmersionStyle])

    public var code: String {
        switch self {
        case .unknownScene: return "unknown_scene"
        case .notOpen, .instanceNotOpen: return "not_open"
        case .instanceLimitReached: return "instance_limit_reached"
        case .valueRequired: return "value_required"
        case .immersiveSpaceBusy: return "immersive_space_busy"
        case .nothingToDismiss: return "nothing_to_dismiss"
        case .pushFromPushedWindow: return "push_from_pushed_window"
        case .notAWindow: return "not_a_window"
        case .alreadyOpen: return "already_open"
        case .coveredByPushedWindow: return "covered_by_pushed_window"
        case .notFocusable: return "not_focusable"
        case .cancelled: return "cancelled"
        case .invalidPhase: return "invalid_phase"
        case .routeRejected: return "route_rejected"
        case .noHandler: return "no_handler"
        case .presentationBusy: return "presentation_busy"
        case .flow(let reason): return reason.code
        case .link(.inputLimitExceeded): return "input_limit_exceeded"
        case .link: return "link_rejected"
        case .linkUnhandled: return "link_unhandled"
        case .launchFailed: return "launch_failed"
        case .launchTimeout: return "launch_timeout"
        case .closeVetoed: return "close_vetoed"
        case .pathMismatch: return "path_mismatch"
        case .invalidProgram: return "invalid_program"
        case .notPresented: return "not_presented"
        case .dismissedWithoutResult: return "dismissed_without_result"
        case .parentDismissed: return "parent_dismissed"
        case .unknownSignal: return "unknown_signal"
        case .nothingToReopen: return "nothing_to_reopen"
        case .styleNotAllowed: return "style_not_allowed"
        }
    }

    public var fields: [String: JSONValue] {
        switch self {
        case .unknownScene(let scene), .valueRequired(let scene):
            return ["scene": .string(scene)]
        case .notOpen(let what), .notAWindow(let what):
            return ["detail": .string(what)]
        case .instanceNotOpen(let id):
            return ["detail": .string(id.description)]
        case .instanceLimitReached(let scene, let max):
            return ["scene": .string(scene), "max": .integer(max)]
        case .immersiveSpaceBusy(let open):
            return ["instance": .string(open.description)]
        case .pushFromPushedWindow(let id), .alreadyOpen(let id), .coveredByPushedWindow(let id),
            .notFocusable(let id), .cancelled(let id), .presentationBusy(let id), .closeVetoed(let id),
            .notPresented(let id), .dismissedWithoutResult(let id), .parentDismissed(let id):
            return ["instance": .string(id.description)]
        case .invalidPhase(let phase):
            return ["phase": .string(phase.rawValue)]
        case .routeRejected(let detail):
            return ["detail": .string(detail)]
        case .flow(let reason):
            return reason.fields
        case .link(let reason):
            if case .inputLimitExceeded = reason { return reason.fields }
            // `detail` says which rule refused the link; what it refused is `subject`.
            var fields = reason.fields
            fields["subject"] = fields.removeValue(forKey: "detail")
            fields["detail"] = .string(reason.code)
            return fields
        case .linkUnhandled(let path):
            return ["detail": .string(path)]
        case .launchFailed(let id, let detail):
            return ["instance": .string(id.description), "detail": .string(detail)]
        case .launchTimeout(let id, let seconds):
            return ["instance": .string(id.description), "seconds": .double(seconds)]
        case .pathMismatch(let expected, let observed):
            return ["expected": expected, "observed": observed]
        case .invalidProgram(let step, let detail):
            return ["step": .integer(step), "detail": .string(detail)]
        case .unknownSignal(let scene, let signal):
            return ["scene": .string(scene), "signal": .string(signal)]
        case .nothingToReopen(let scene):
            return scene.map { ["scene": .string($0)] } ?? [:]
        case .styleNotAllowed(let id, let style, let allowed):
            return ["instance": .string(id.description), "style": .string(style.rawValue), "allowed": .array(allowed.map { .string($0.rawValue) })]
        case .nothingToDismiss, .noHandler:
            return [:]
        }
    }

    public var description: String {
        switch self {
        case .unknownScene(let scene): return "no scene \"\(scene)\" is declared"
        case .notOpen(let what): return "\(what) is not open"
        case .instanceNotOpen(let id): return "\(id) is not open"
        case .instanceLimitReached(let scene, let max):
            return "scene \"\(scene)\" allows at most \(max) instances"
        case .valueRequired(let scene): return "scene \"\(scene)\" opens one instance per value; give a value"
        case .immersiveSpaceBusy(let open): return "immersive space \(open) is already open"
        case .nothingToDismiss: return "no immersive space is open"
        case .pushFromPushedWindow(let id): return "\(id) was itself pushed and cannot push a window"
        case .notAWindow(let what): return "\(what) is not an open window"
        case .alreadyOpen(let id): return "the target is already open as \(id)"
        case .coveredByPushedWindow(let id): return "the window is hidden behind \(id), pushed from it"
        case .notFocusable(let id): return "\(id) is an immersive space, which does not take focus"
        case .cancelled(let id): return "\(id) was dismissed while it was opening"
        case .invalidPhase(let phase): return "a scene may report active, inactive or background, not \(phase.rawValue)"
        case .routeRejected(let detail): return "the scene's scope refused the route: \(detail)"
        case .noHandler: return "no scope presents the route and no scene claims it"
        case .presentationBusy(let id): return "an equal route is already shown or queued as a modal in \(id)"
        case .flow(let reason): return reason.description
        case .link(let reason): return reason.description
        case .linkUnhandled(let path): return "no link pattern matches \(path)"
        case .launchFailed(let id, let detail): return "\(id) could not start: \(detail)"
        case .launchTimeout(let id, let seconds): return "\(id) did not say hello within \(seconds) s"
        case .closeVetoed(let id): return "\(id) refused to close (force closes it anyway)"
        case .pathMismatch: return "the observed path is not the instance's path"
        case .invalidProgram(let step, let detail): return "step \(step) of the program: \(detail)"
        case .notPresented(let id): return "\(id) was not presented: nobody awaits its result"
        case .dismissedWithoutResult(let id): return "\(id) was dismissed before it finished"
        case .parentDismissed(let id): return "\(id), which presented the scene, was dismissed first"
        case .unknownSignal(let scene, let signal): return "scene \"\(scene)\" declares no signal \(signal)"
        case .nothingToReopen(let scene):
            return scene.map { "no dismissed instance of scene \"\($0)\" is kept to reopen" } ?? "no dismissed instance is kept to reopen"
        case .styleNotAllowed(let id, let style, let allowed):
            return "\(id) may take the styles \(allowed.map(\.rawValue).joined(separator: ", ")), not \(style.rawValue)"
        }
    }
}
