/// One problem in a JSON document, at a JSON path: what manifests, templates and
/// snapshots report when they are loaded.
public struct JSONProblem: Hashable, Sendable, CustomStringConvertible {
    /// Where: `scenes[2].kind`, `plan[0].route.doc`, or `$` for the whole document.
    public let path: String
    /// What is wrong.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
