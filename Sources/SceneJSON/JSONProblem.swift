/// One problem in a JSON document, at a JSON path: what manifests, templates and
/// snapshots report when they are loaded.
public struct JSONProblem: Hashable, Sendable, CustomStringConvertible {
    /// Where: `scenes[2].kind`, `plan[0].route.doc`, or `$` for the whole document.
    public let path: String
    /// What is wrong.
    public let message: String

    /// A problem, with every member given.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// An error that lists the problems found in a JSON document (a manifest, a snapshot).
///
/// Conformers give `problems` and their `code`; the wire's `data.problems` and the text
/// come from here.
public protocol JSONProblemReport: CodedReason {
    /// Every problem, in document order.
    var problems: [JSONProblem] { get }
}

extension JSONProblemReport {
    /// `problems`: every problem as its `path: message` text, in document order.
    public var fields: [String: JSONValue] {
        ["problems": .array(problems.map { .string($0.description) })]
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
