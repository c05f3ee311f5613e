public import Foundation
public import SceneJSON

/// The values a link carries: path parameters first, then query items.
///
/// - A name may have several values (a path parameter and a query item, or a repeated
///   query item); ``value(_:)`` is the first, ``values(_:)`` all of them in order.
/// - A wildcard's value is the rest of the path joined with `/`; ``segments(_:)`` gives
///   the segments themselves (a decoded `%2F` inside a segment stays inside it).
public struct LinkParameters: Hashable, Sendable {
    /// The path parameters, in pattern order (what manifest templates see).
    public let pathItems: [Item]
    /// The query items, in URL order.
    public let queryItems: [Item]
    /// The wildcard's name and captured segments, when the pattern has one.
    public let wildcard: Wildcard?

    /// One named value.
    public struct Item: Hashable, Sendable {
        /// The parameter's or query item's name.
        public let name: String
        /// Its value, percent-decoded.
        public let value: String

        /// Creates an item from its members.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What a wildcard captured.
    public struct Wildcard: Hashable, Sendable {
        /// The wildcard's name in the pattern (`*rest` is `rest`).
        public let name: String
        /// The rest of the path, one decoded segment each; possibly none.
        public let segments: [String]

        /// Creates a capture from its members.
        public init(name: String, segments: [String]) {
            self.name = name
            self.segments = segments
        }
    }

    /// Parameters from path values and query items.
    public init(path: [Item], query: [Item] = [], wildcard: Wildcard? = nil) {
        self.pathItems = path
        self.queryItems = query
        self.wildcard = wildcard
    }

    /// Every (name, value) pair in order: path parameters, then query items.
    public var items: [Item] { pathItems + queryItems }

    /// The first value named `name`.
    public func value(_ name: String) -> String? {
        pathItems.first { $0.name == name }?.value ?? queryItems.first { $0.name == name }?.value
    }

    /// Every value named `name`, path values first.
    public func values(_ name: String) -> [String] {
        (pathItems + queryItems).filter { $0.name == name }.map(\.value)
    }

    /// The segments a wildcard named `name` captured.
    public func segments(_ name: String) -> [String]? {
        wildcard?.name == name ? wildcard?.segments : nil
    }

    /// The first value named `name`.
    ///
    /// - Throws: ``LinkParameterError/missing(_:)``.
    public func string(_ name: String) throws(LinkParameterError) -> String {
        guard let value = value(name) else { throw .missing(name) }
        return value
    }

    /// The first value named `name` as an `Int`.
    public func int(_ name: String) throws(LinkParameterError) -> Int {
        try convert(name, to: "int") { Int($0) }
    }

    /// The first value named `name` as a finite `Double`.
    public func double(_ name: String) throws(LinkParameterError) -> Double {
        try convert(name, to: "double") { text in Double(text).flatMap { $0.isFinite ? $0 : nil } }
    }

    /// The first value named `name` as a `Bool`: `true`/`false` or `1`/`0`.
    public func bool(_ name: String) throws(LinkParameterError) -> Bool {
        try convert(name, to: "bool", LinkParameters.parseBool)
    }

    /// The first value named `name` as a `UUID`.
    public func uuid(_ name: String) throws(LinkParameterError) -> UUID {
        try convert(name, to: "uuid") { UUID(uuidString: $0) }
    }

    static func parseBool(_ text: String) -> Bool? {
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    private func convert<T>(_ name: String, to type: String, _ parse: (String) -> T?)
        throws(LinkParameterError) -> T
    {
        let text = try string(name)
        guard let value = parse(text) else { throw .invalid(name: name, value: text, expected: type) }
        return value
    }
}

/// Why a typed parameter accessor failed.
public enum LinkParameterError: CodedReason {
    /// No value with this name.
    case missing(String)
    /// The value does not convert to `expected` (`int`, `double`, `bool`, `uuid`).
    case invalid(name: String, value: String, expected: String)

    public var code: String { "invalid_parameter" }

    /// The same failure as a link rejection.
    public var rejection: LinkRejection {
        switch self {
        case .missing(let name): return .invalidParameter(name: name, value: "", expected: "a value")
        case .invalid(let name, let value, let expected):
            return .invalidParameter(name: name, value: value, expected: expected)
        }
    }

    public var fields: [String: JSONValue] { rejection.fields }

    public var description: String {
        switch self {
        case .missing(let name): return "parameter \"\(name)\" is missing"
        case .invalid(let name, let value, let expected):
            return "parameter \"\(name)\" = \"\(value)\" is not a valid \(expected)"
        }
    }
}
