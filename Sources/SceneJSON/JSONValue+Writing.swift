extension JSONValue {
    /// Appends compact JSON with sorted object keys to `output`, as UTF-8 bytes: the same
    /// text as ``description``, without building a `String` on the way.
    public func write(to output: inout [UInt8]) {
        switch self {
        case .null:
            JSONValue.append("null", to: &output)
        case .bool(let value):
            JSONValue.append(value ? "true" : "false", to: &output)
        case .integer(let value):
            JSONValue.writeInteger(value, to: &output)
        case .double(let value):
            if let exact = Int(exactly: value), value.magnitude < 1e15 {
                // Keep the number's kind visible while staying valid JSON: 2.0, not 2.
                JSONValue.writeInteger(exact, to: &output)
                JSONValue.append(".0", to: &output)
            } else if value.isFinite {
                output.append(contentsOf: String(value).utf8)
            } else {
                JSONValue.append("null", to: &output)
            }
        case .string(let value):
            JSONValue.writeQuoted(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            var first = true
            for value in values {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            if members.count == 1, let (key, value) = members.first {
                JSONValue.writeQuoted(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            } else {
                var first = true
                for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                    if !first { output.append(UInt8(ascii: ",")) }
                    first = false
                    JSONValue.writeQuoted(key, to: &output)
                    output.append(UInt8(ascii: ":"))
                    value.write(to: &output)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` as a JSON string literal (UTF-8), escaping quotes, backslashes and
    /// control characters; text that needs no escape is copied as it is.
    public static func writeQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"", to: &output)
                case UInt8(ascii: "\\"): append("\\\\", to: &output)
                case UInt8(ascii: "\n"): append("\\n", to: &output)
                case UInt8(ascii: "\r"): append("\\r", to: &output)
                case UInt8(ascii: "\t"): append("\\t", to: &output)
                case 0x08: append("\\b", to: &output)
                case 0x0C: append("\\f", to: &output)
                default:
                    let digits: StaticString = "0123456789abcdef"
                    append("\\u00", to: &output)
                    output.append(digits.utf8Start[Int(byte >> 4)])
                    output.append(digits.utf8Start[Int(byte & 0xF)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the decimal digits of `value`.
    public static func writeInteger(_ value: Int, to output: inout [UInt8]) {
        if value >= 0, value < 10 {
            output.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { output.append(UInt8(ascii: "-")) }
            output.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// Appends a literal's bytes.
    public static func append(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
