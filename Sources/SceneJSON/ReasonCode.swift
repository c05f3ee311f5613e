/// Why a request was refused, as `data.reason` carries it: the stable snake_case word of the
/// rule that refused it (`close_vetoed`, `push_blocked_by_modal_tail`).
///
/// Match failures by their reason, never by their message:
///
/// ```swift
/// catch let error where error.reason == .closeVetoed { … }
/// ```
///
/// The reasons this package's rules give are constants (SceneCore's registry and flow
/// reasons, the wire's own); a scene's own reasons are made from their word, as
/// `ReasonCode("out_of_paper")` or a string literal.
public struct ReasonCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The word, as the wire carries it.
    public let rawValue: String

    /// The reason named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The reason named `word`.
    public init(_ word: String) {
        self.rawValue = word
    }

    /// The reason named by a literal.
    public init(stringLiteral word: String) {
        self.rawValue = word
    }

    /// Reads the word.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the word.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The word.
    public var description: String { rawValue }
}

extension CodedReason {
    /// ``code`` as a ``ReasonCode``.
    public var reason: ReasonCode { ReasonCode(rawValue: code) }
}
