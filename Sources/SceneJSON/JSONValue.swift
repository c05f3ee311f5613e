/// Any JSON value, usable as a route for routes that arrive over the wire.
///
/// - Equality and hashing are canonical: object key order never matters, and a number
///   compares by its mathematical value, so `.integer(1)` equals `.double(1.0)`.
/// - Integers that fit in `Int` keep their exact value; other numbers are `Double`.
/// - `description` is compact JSON with sorted keys, so equal values print the same.
public enum JSONValue: Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other number. Non-finite values are not JSON and print as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list.
    case array([JSONValue])
    /// An object; key order carries no meaning.
    case object([String: JSONValue])
}

extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.integer(a), .double(b)), let (.double(b), .integer(a)):
            return Int(exactly: b) == a
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }
}

extension JSONValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .double(let value):
            // A double with an exact integer value must hash like that integer.
            if let exact = Int(exactly: value) {
                hasher.combine(2 as UInt8)
                hasher.combine(exact)
            } else if value.isNaN {
                // Every NaN is one value here, so equality stays reflexive.
                hasher.combine(7 as UInt8)
            } else {
                hasher.combine(3 as UInt8)
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value)
        case .array(let values):
            hasher.combine(5 as UInt8)
            hasher.combine(values)
        case .object(let members):
            hasher.combine(6 as UInt8)
            // Dictionary hashing is independent of insertion order.
            hasher.combine(members)
        }
    }
}

extension JSONValue {
    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when it is one exactly (`2.0` counts, `2.5` does not).
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Whether every member that `pattern` names is present here with an equal value,
    /// recursively through objects.
    ///
    /// - `{}` is contained in every value, objects or not; a non-object pattern must equal
    ///   the value.
    /// - Arrays compare whole: `[1]` does not contain in `[1, 2]`.
    public func contains(_ pattern: JSONValue) -> Bool {
        guard case .object(let wanted) = pattern else { return self == pattern }
        if wanted.isEmpty { return true }
        guard case .object(let members) = self else { return false }
        for (key, value) in wanted {
            guard let member = members[key], member.contains(value) else { return false }
        }
        return true
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension Optional where Wrapped == JSONValue {
    /// The member, with JSON `null` counted as absent, as the protocol counts a member
    /// given as null. (Not `flatMap { $0.isNull ? nil : $0 }`: there `nil` is JSON's
    /// `null`, since `JSONValue` is `ExpressibleByNilLiteral`, and null stays.)
    package var nullAsAbsent: JSONValue? {
        guard case .some(let value) = self, !value.isNull else { return .none }
        return value
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Builds an object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
