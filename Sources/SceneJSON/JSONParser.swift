

/// Why bytes are not the JSON this package accepts.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The byte offset where it was found.
    public let offset: Int

    public var description: String { "\(message) at byte \(offset)" }
}

/// A strict, hand-written JSON parser over UTF-8 bytes (RFC 8259).
///
/// - Rejects trailing commas, comments, leading zeros, bare control characters in strings,
///   lone surrogates, invalid UTF-8, numbers outside `Double`'s range, and nesting deeper
///   than ``maximumDepth``.
/// - Integers that fit in `Int` stay exact; other numbers become `Double`.
/// - ``skipValue()`` checks a value without building it, for the envelope scan.
public struct JSONParser {
    /// How deep arrays and objects may nest.
    public static let maximumDepth = 256

    package let bytes: UnsafeRawBufferPointer
    package var offset = 0
    package var depth = 0

    /// A parser at the start of `bytes`, which must stay valid while it is used.
    public init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses a whole document: one value, surrounded only by whitespace.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses a whole document from an array of bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in try parse(raw) }
        }
        return try result.get()
    }

    /// Parses a whole document from text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    package func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: offset)
    }

    package var atEnd: Bool { offset >= bytes.count }

    package mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    package mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard !atEnd else { throw error("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            try enter()
            defer { depth -= 1 }
            offset += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard !atEnd, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try parseString()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
                skipWhitespace()
                members[key] = try parseValue()
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "}")) { return .object(members) }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            try enter()
            defer { depth -= 1 }
            offset += 1
            var values: [JSONValue] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(values) }
            while true {
                skipWhitespace()
                values.append(try parseValue())
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "]")) { return .array(values) }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return try parseNumber()
        }
    }

    /// Checks one value and moves past it without building it.
    public mutating func skipValue() throws(JSONParseError) {
        guard !atEnd else { throw error("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            try enter()
            defer { depth -= 1 }
            offset += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return }
            while true {
                skipWhitespace()
                guard !atEnd, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                try skipString()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "}")) { return }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            try enter()
            defer { depth -= 1 }
            offset += 1
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return }
            while true {
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "]")) { return }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            try skipString()
        default:
            _ = try parseValue()
        }
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    package mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    /// Moves past the JSON string `"word"` if that is exactly what comes next (`word` has
    /// no character that would need an escape): a known key recognised without building
    /// a `String`. A key spelled with escapes does not match; the caller parses it then.
    package mutating func consume(quoted word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count + 2, bytes[offset] == UInt8(ascii: "\""),
            bytes[offset + count + 1] == UInt8(ascii: "\"")
        else { return false }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[offset + 1 + $0] == expected[$0] }
        }
        guard matches else { return false }
        offset += count + 2
        return true
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw error("invalid literal") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[offset + $0] == expected[$0] }
        }
        guard matches else { throw error("invalid literal") }
        offset += count
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = offset
        var isInteger = true
        let negative = consume(UInt8(ascii: "-"))
        guard !atEnd, isDigit(bytes[offset]) else { throw error("invalid value") }
        // The integer part is accumulated as it is checked, negated (so that Int.min fits):
        // an integer, the most common number (ids, counts), is read without making text.
        var negated = 0
        var fits = true
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if !atEnd, isDigit(bytes[offset]) { throw error("a number may not have a leading zero") }
        } else {
            while !atEnd, isDigit(bytes[offset]) {
                if fits {
                    let (tens, overflowed) = negated.multipliedReportingOverflow(by: 10)
                    let (next, under) = tens.subtractingReportingOverflow(Int(bytes[offset] &- 0x30))
                    if overflowed || under { fits = false } else { negated = next }
                }
                offset += 1
            }
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard !atEnd, isDigit(bytes[offset]) else { throw error("expected digits after '.'") }
            while !atEnd, isDigit(bytes[offset]) { offset += 1 }
        }
        if !atEnd, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard !atEnd, isDigit(bytes[offset]) else { throw error("expected digits in the exponent") }
            while !atEnd, isDigit(bytes[offset]) { offset += 1 }
        }
        if isInteger, fits {
            if negative { return .integer(negated) }
            if negated != .min { return .integer(-negated) }
        }
        // A fraction, an exponent, or an integer beyond Int's range: a double.
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw error("number out of range")
        }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Moves past a string, checking escapes and UTF-8, without building it.
    package mutating func skipString() throws(JSONParseError) {
        offset += 1
        while true {
            guard !atEnd else { throw error("unterminated string") }
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case UInt8(ascii: "\\"):
                _ = try parseEscape()
            case 0..<0x20:
                throw error("control character in a string")
            case 0x80...:
                try skipUTF8Scalar()
            default:
                offset += 1
            }
        }
    }

    package mutating func parseString() throws(JSONParseError) -> String {
        let start = offset + 1
        // Fast path: no escapes; the bytes are the string once checked as UTF-8.
        var probe = start
        while probe < bytes.count {
            let byte = bytes[probe]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            probe += 1
        }
        if probe < bytes.count, bytes[probe] == UInt8(ascii: "\"") {
            offset = probe + 1
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<probe]), as: UTF8.self)
        }
        offset = start
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        func flush(_ upTo: Int) {
            if upTo > runStart {
                scalars.append(contentsOf: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[runStart..<upTo]), as: UTF8.self).unicodeScalars)
            }
        }
        while true {
            guard !atEnd else { throw error("unterminated string") }
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                flush(offset)
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(offset)
                scalars.append(try parseEscape())
                runStart = offset
            case 0..<0x20:
                throw error("control character in a string")
            case 0x80...:
                try skipUTF8Scalar()
            default:
                offset += 1
            }
        }
    }

    /// Reads one escape (the backslash included) and returns its scalar.
    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        offset += 1
        guard !atEnd else { throw error("unterminated escape") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800...0xDBFF).contains(first) {
                guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                else { throw error("a high surrogate must be followed by a low one") }
                offset += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else { throw error("invalid low surrogate") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("lone low surrogate") }
            return scalar
        default:
            offset -= 1
            throw error("invalid escape")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    /// Checks one multi-byte UTF-8 scalar (no overlongs, no surrogates) and moves past it.
    private mutating func skipUTF8Scalar() throws(JSONParseError) {
        let lead = bytes[offset]
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(lead & 0x07)
        default: throw error("invalid UTF-8")
        }
        guard bytes.count - offset >= length else { throw error("truncated UTF-8") }
        for index in 1..<length {
            let next = bytes[offset + index]
            guard next & 0xC0 == 0x80 else { throw error("invalid UTF-8") }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw error("invalid UTF-8")
        }
        offset += length
    }
}
