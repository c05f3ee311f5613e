/// The name of what a request did, as the wire spells it in its `outcome` member:
/// `opened`, `focused`, `presented`, `changed`, `queued`, `unchanged`, `rejected`,
/// `handled`, `pending`, `unhandled`.
///
/// - Every outcome type names itself with one of the constants below, so code compares
///   typed names (`outcome.name == .opened`), never string literals it could misspell.
/// - Encodes as the bare string. A name a newer peer sends that this version does not
///   know still decodes, and compares unequal to every constant.
public struct OutcomeName: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The name as the wire spells it.
    public let rawValue: String

    /// The name spelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name spelled `value`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Decodes the bare string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The name as the wire spells it.
    public var description: String { rawValue }

    /// A new instance was opened.
    public static let opened: OutcomeName = "opened"
    /// An instance that was already open was focused.
    public static let focused: OutcomeName = "focused"
    /// A route was presented in the asking instance.
    public static let presented: OutcomeName = "presented"
    /// A flow's path changed.
    public static let changed: OutcomeName = "changed"
    /// A sheet or cover waits behind the modal that is showing.
    public static let queued: OutcomeName = "queued"
    /// A valid request had nothing to do.
    public static let unchanged: OutcomeName = "unchanged"
    /// The request was refused.
    public static let rejected: OutcomeName = "rejected"
    /// A deep link landed.
    public static let handled: OutcomeName = "handled"
    /// A deep link waits for authentication.
    public static let pending: OutcomeName = "pending"
    /// No pattern matches a deep link.
    public static let unhandled: OutcomeName = "unhandled"
}
