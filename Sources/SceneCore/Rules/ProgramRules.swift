import SceneFlow

/// The rules of a program (`scene.program`, and a link's program) that are not a step's
/// own request: which instance a step's `$k` names, what a `link` step's outcome makes of
/// the step, and where a link's program is handled.
extension ProgramStepResult {
    /// The instance `ref` names after `results` (the steps before): an instance as given,
    /// or the one step `k`'s result names; refused `not_open` when that result names none.
    package static func instance(_ ref: InstanceRef, after results: [ProgramStepResult]) -> Result<InstanceID, RegistryRejection> {
        switch ref {
        case .id(let id):
            return .success(id)
        case .step(let k):
            guard let id = results[k].instance else { return .failure(.notOpen("$\(k) (step \(k) answered no instance)")) }
            return .success(id)
        }
    }

    /// A `link` step's result, from what its link did: a refused or unhandled link, or one
    /// whose own program failed, fails the step with its reason; a handled or pending one
    /// is its result.
    package static func linked(_ outcome: LinkOutcome<R>) -> Result<ProgramStepResult, RegistryRejection> {
        switch outcome {
        case .rejected(let reason): return .failure(reason)
        case .unhandled(let path): return .failure(.linkUnhandled(path: path))
        case .program(let program):
            if let failure = program.failure { return .failure(failure.reason) }
            return .success(.linked(outcome))
        case .handled, .pending: return .success(.linked(outcome))
        }
    }
}

extension ProgramStep {
    /// Whether a `dismiss` step of `target` in the program of instance `scene` (nil: not a
    /// scene's own program) is that instance closing itself, and so does not ask it.
    package static func closesItself(_ target: InstanceID, by scene: InstanceID?) -> Bool {
        target == scene
    }
}

extension ProgramOutcome {
    /// Where a link whose program this is was handled: the instance the last step that
    /// names one names, `opened` when any step opened a new instance; nil when a step
    /// failed (the link is refused) or none names an instance.
    package var linkLanding: (instance: InstanceID, opened: Bool)? {
        guard failure == nil, let last = results.last(where: { $0.instance != nil })?.instance else { return nil }
        let opened = results.contains { if case .opened(.opened) = $0 { true } else { false } }
        return (last, opened)
    }
}
