public import SceneJSON

/// Why a registry could not be built: every problem found.
public struct RegistryConfigurationError: CodedReason {
    /// Every problem, one sentence each, in the order found.
    public let problems: [String]

    /// An error listing `problems`.
    public init(problems: [String]) {
        self.problems = problems
    }

    public var code: String { "invalid_configuration" }
    public var description: String { problems.joined(separator: "\n") }
}
