/// A failure reason with a stable snake_case code, shared unchanged with the wire.
///
/// - `code` never changes once published; clients match on it.
/// - `fields` carries the reason's associated values by name (for the wire's `data`).
public protocol CodedReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable snake_case identifier, such as `push_blocked_by_modal_tail`.
    var code: String { get }
    /// The reason's associated values, keyed by the names the wire uses.
    var fields: [String: JSONValue] { get }
}

extension CodedReason {
    /// None, for a reason that carries no values.
    public var fields: [String: JSONValue] { [:] }
}
