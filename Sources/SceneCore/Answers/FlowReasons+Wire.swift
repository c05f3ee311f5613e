public import SceneFlow
public import SceneJSON

// The flow's reasons as the wire carries them: each a `CodedReason` whose code the flow
// module owns, with its values as the named fields of the wire's `data`.

extension FlowRejection: CodedReason {
    public var fields: [String: JSONValue] {
        switch self {
        case .insufficientDepth(let requested, let available):
            return ["requested": .integer(requested), "available": .integer(available)]
        case .invalidCount(let count):
            return ["count": .integer(count)]
        case .invalidPlan(let problem):
            return ["detail": .string(problem.code)].merging(problem.fields) { first, _ in first }
        case .middlewareCancelled(let name, let reason):
            return ["middleware": .string(name), "detail": .string(reason)]
        case .followUpLimitExceeded(let limit):
            return ["limit": .integer(limit)]
        case .pushBlockedByModalTail, .popBlockedByModalTail, .routeNotFound:
            return [:]
        }
    }
}

extension FlowPlanError: CodedReason {
    public var fields: [String: JSONValue] {
        switch self {
        case .tooManyModals(let count): return ["count": .integer(count)]
        case .modalNotAtTail(let index): return ["index": .integer(index)]
        }
    }
}

extension FlowRestoreProblem: CodedReason {
    public var fields: [String: JSONValue] {
        switch self {
        case .unsupportedVersion(let version): return ["version": .integer(version)]
        case .invalidPath(let problem): return ["detail": .string(problem.code)].merging(problem.fields) { first, _ in first }
        case .queuedStepNotModal(let index): return ["index": .integer(index)]
        case .queueWithoutModal(let count): return ["count": .integer(count)]
        }
    }
}

extension FlowRestoreError: CodedReason {
    public var fields: [String: JSONValue] {
        ["problems": .array(problems.map { .string($0.code) })]
    }
}

extension MiddlewareChainError: CodedReason {}
