/// Why a list of steps is not a valid navigation path.
public enum FlowPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// More than one sheet or cover; `count` is how many there were.
    case tooManyModals(count: Int)
    /// A sheet or cover at `index` is followed by another step.
    case modalNotAtTail(index: Int)

    /// The stable snake_case code, the same string on the wire.
    public var code: String {
        switch self {
        case .tooManyModals: return "too_many_modals"
        case .modalNotAtTail: return "modal_not_at_tail"
        }
    }


    public var description: String {
        switch self {
        case .tooManyModals(let count):
            return "a path holds at most one sheet or cover, this one has \(count)"
        case .modalNotAtTail(let index):
            return "the sheet or cover at step \(index) must be the last step"
        }
    }
}

/// A validated navigation path: pushes, then at most one sheet or cover at the tail.
///
/// - The validating initializer and decoding both reject an invalid list of steps.
/// - Encodes as a plain JSON array of steps.
public struct FlowPlan<R: Route>: Hashable, Sendable {
    /// The steps, in order from the root.
    public let steps: [RouteStep<R>]

    /// Validates `steps`.
    ///
    /// - Throws: ``FlowPlanError/tooManyModals(count:)`` when two or more steps are
    ///   modal, else ``FlowPlanError/modalNotAtTail(index:)`` when a modal is not last.
    public init(validating steps: [RouteStep<R>]) throws(FlowPlanError) {
        if let error = FlowPlan.problem(in: steps) { throw error }
        self.steps = steps
    }

    /// A plan from steps the caller has already checked (within the package only).
    package init(unchecked steps: [RouteStep<R>]) {
        assert(FlowPlan.problem(in: steps) == nil)
        self.steps = steps
    }

    /// A plan of pushes.
    @inlinable
    public init(pushing routes: [R]) {
        self.steps = routes.map(RouteStep.push)
    }

    /// A plan of pushes ending in `route` shown as `last`: one more push, a sheet or a
    /// cover.
    @inlinable
    public init(pushing routes: [R], then last: RouteStepKind, _ route: R) {
        self.steps = routes.map(RouteStep.push) + [RouteStep(last, route)]
    }

    /// The empty plan: the root of the flow, no modal.
    @inlinable
    public static var empty: FlowPlan { FlowPlan(pushing: []) }

    /// The first rule `steps` breaks, or `nil` when they form a valid path.
    @inlinable
    public static func problem(in steps: [RouteStep<R>]) -> FlowPlanError? {
        var modalCount = 0
        var firstModal: Int?
        for (index, step) in steps.enumerated() where step.isModal {
            modalCount += 1
            if firstModal == nil { firstModal = index }
        }
        if modalCount > 1 { return .tooManyModals(count: modalCount) }
        if let firstModal, firstModal != steps.count - 1 {
            return .modalNotAtTail(index: firstModal)
        }
        return nil
    }
}

extension FlowPlan: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let steps = try container.decode([RouteStep<R>].self)
        do {
            try self.init(validating: steps)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "invalid plan (\(error.code)): \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(steps)
    }
}
