public import SceneJSON

/// Something a matcher build found in one pattern.
public struct LinkDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The pattern's index, in declaration order.
    public let index: Int
    /// The pattern as written.
    public let pattern: String
    /// What is wrong.
    public let problem: Problem

    /// What is wrong with a pattern.
    public enum Problem: Hashable, Sendable {
        /// The pattern does not parse; it is left out of the matcher.
        case invalid(LinkPatternProblem)
        /// The same pattern (same shape, same names) was declared before, at `of`.
        case duplicate(of: Int)
        /// A pattern of the same shape was declared before, at `from`, with other
        /// parameter names; this one can never win.
        case parameterNamesDiffer(from: Int, names: [String], earlierNames: [String])
        /// Every URL this pattern matches is won by a more specific or earlier pattern,
        /// the one at `by` among them.
        case shadowed(by: Int)
    }

    /// Whether the pattern was left out of the matcher (it does not parse).
    public var isError: Bool {
        if case .invalid = problem { return true }
        return false
    }

    /// The stable snake_case code of the problem.
    public var code: String {
        switch problem {
        case .invalid(let problem): return problem.code
        case .duplicate: return "duplicate_pattern"
        case .parameterNamesDiffer: return "parameter_names_differ"
        case .shadowed: return "shadowed_pattern"
        }
    }

    public var description: String {
        let what: String
        switch problem {
        case .invalid(let problem):
            what = problem.description
        case .duplicate(let earlier):
            what = "duplicates pattern #\(earlier)"
        case .parameterNamesDiffer(let earlier, let names, let earlierNames):
            what = "has the shape of pattern #\(earlier) with other parameter names (\(names.joined(separator: ", ")) vs \(earlierNames.joined(separator: ", "))), so it can never win"
        case .shadowed(let winner):
            what = "can never win: pattern #\(winner) or a more specific one always does"
        }
        return "pattern #\(index) \"\(pattern)\": \(what)"
    }
}

/// A strict build's failure: every diagnostic found.
public struct LinkBuildError: CodedReason {
    /// Every diagnostic, by pattern index.
    public let diagnostics: [LinkDiagnostic]

    /// Creates the error from its diagnostics.
    public init(diagnostics: [LinkDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var code: String { "invalid_link_patterns" }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
