public import SceneFlow
public import SceneJSON

/// Names the instance a program step acts on: a known id, or the instance an earlier
/// step's result names (`"$k"` on the wire).
public enum InstanceRef: Hashable, Sendable {
    /// This instance.
    case id(InstanceID)
    /// The instance of step `k`'s result (`k` counts from 0 and is an earlier step).
    case step(Int)
}

/// One step of a program: one registry request, as its method would make it.
public enum ProgramStep<R: Route>: Hashable, Sendable {
    /// `scene.open`.
    case open(scene: String, value: JSONValue?)
    /// `scene.push`.
    case push(scene: String, value: JSONValue?, from: InstanceRef)
    /// `scene.focus`.
    case focus(InstanceRef)
    /// `scene.dismiss` of one instance.
    case dismiss(InstanceRef, force: Bool)
    /// `scene.dismiss` of a scene's instances (with `value`, only that one).
    case dismissScene(String, value: JSONValue?, force: Bool)
    /// `immersive.dismiss`.
    case dismissImmersive
    /// `scene.route`.
    case route(R, from: InstanceRef)
    /// `flow.send`.
    case send(FlowIntent<R>, to: InstanceRef)
    /// `flow.apply`: the steps are checked as a `reset` intent's.
    case apply([RouteStep<R>], to: InstanceRef)
    /// `link.open`.
    case link(String)

    /// The step's method name: `scene.open`, `flow.send`, …
    public var method: String {
        switch self {
        case .open: return "scene.open"
        case .push: return "scene.push"
        case .focus: return "scene.focus"
        case .dismiss, .dismissScene: return "scene.dismiss"
        case .dismissImmersive: return "immersive.dismiss"
        case .route: return "scene.route"
        case .send: return "flow.send"
        case .apply: return "flow.apply"
        case .link: return "link.open"
        }
    }

    /// Whether the step's result names an instance a later step may refer to (a link's
    /// does once it is handled).
    public var answersInstance: Bool {
        switch self {
        case .open, .push, .focus, .route, .link: return true
        case .dismiss, .dismissScene, .dismissImmersive, .send, .apply: return false
        }
    }

    /// The instance the step names, if it names one.
    public var target: InstanceRef? {
        switch self {
        case .push(_, _, let from), .route(_, let from): return from
        case .focus(let ref), .dismiss(let ref, _), .send(_, let ref), .apply(_, let ref): return ref
        case .open, .dismissScene, .dismissImmersive, .link: return nil
        }
    }

    /// The first step of `steps` that refers to a step that is not an earlier one, or to
    /// one whose result names no instance, with what is wrong; nil when every reference
    /// holds.
    public static func problem(in steps: [ProgramStep]) -> (step: Int, detail: String)? {
        for (index, step) in steps.enumerated() {
            guard case .step(let k)? = step.target else { continue }
            guard k >= 0, k < index else {
                return (index, "$\(k) names no earlier step (steps before this one are $0 to $\(index - 1))")
            }
            guard steps[k].answersInstance else {
                return (index, "$\(k) names step \(k) (\(steps[k].method)), whose result has no instance")
            }
        }
        return nil
    }
}

/// What one step of a program did: its method's result.
public enum ProgramStepResult<R: Route>: Hashable, Sendable {
    /// `scene.open`.
    case opened(OpenOutcome<R>)
    /// `scene.push`.
    case pushed(InstanceInfo<R>)
    /// `scene.focus`.
    case focused(InstanceInfo<R>)
    /// `scene.dismiss` of one instance: what went.
    case dismissed([InstanceID])
    /// `scene.dismiss` of a scene's instances.
    case dismissedScene(DismissOutcome)
    /// `immersive.dismiss`.
    case dismissedImmersive([InstanceID])
    /// `scene.route`.
    case routed(RouteOutcome<R>)
    /// `flow.send`: the intent's outcome and the path after it.
    case sent(FlowOutcome<R>, path: [RouteStep<R>])
    /// `flow.apply`: the path after it.
    case applied(path: [RouteStep<R>])
    /// `link.open`: handled, or pending.
    case linked(LinkOutcome<R>)

    /// The instance the result names, for a later step's `$k`.
    public var instance: InstanceID? {
        switch self {
        case .opened(let outcome): return outcome.instance.id
        case .pushed(let info), .focused(let info): return info.id
        case .routed(let outcome): return outcome.instance.id
        case .linked(.handled(let info, _)): return info.id
        case .dismissed, .dismissedScene, .dismissedImmersive, .sent, .applied, .linked: return nil
        }
    }
}

/// What a program did: each step's result, in order, and — when a step failed — which
/// one and why. The steps before a failure stay applied.
public struct ProgramOutcome<R: Route>: Hashable, Sendable {
    /// The results of the steps that completed, in order.
    public let results: [ProgramStepResult<R>]
    /// The step that failed and its reason; nil when every step completed.
    public let failure: ProgramFailure?

    /// An outcome from its members.
    public init(results: [ProgramStepResult<R>], failure: ProgramFailure?) {
        self.results = results
        self.failure = failure
    }
}

/// The step that ended a program, and why.
public struct ProgramFailure: Error, Hashable, Sendable {
    /// Its index, from 0.
    public let step: Int
    /// Its method (`scene.open`, …).
    public let method: String
    /// Why it failed: the reason its method would have answered.
    public let reason: RegistryRejection

    /// A failure from its members.
    public init(step: Int, method: String, reason: RegistryRejection) {
        self.step = step
        self.method = method
        self.reason = reason
    }
}
