extension JSONValue: Codable {
    /// Decodes any JSON value.
    ///
    /// - A number without a fraction that fits in `Int` becomes `.integer`; every other
    ///   number becomes `.double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    ///
    /// - A non-finite `.double` is not JSON; it encodes as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value):
            if value.isFinite {
                try container.encode(value)
            } else {
                try container.encodeNil()
            }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON with object keys sorted, so that equal values print identically.
    public var description: String {
        var output: [UInt8] = []
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends compact JSON with sorted object keys to `output`.
    public func write(to output: inout String) {
        var bytes: [UInt8] = []
        write(to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal, escaping quotes, backslashes and
    /// control characters.
    public static func writeQuoted(_ string: String, to output: inout String) {
        var bytes: [UInt8] = []
        writeQuoted(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }
}
