import SceneJSON
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test("valid JSON parses to the value it means", arguments: [
        (#"{"a":[1,2.5,"x"],"b":null,"c":true}"#, JSONValue.object(["a": [1, 2.5, "x"], "b": nil, "c": true])),
        (#"  [ ]  "#, .array([])),
        (#""\u00e9\ud83d\ude00\n\"""#, .string("é😀\n\"")),
        ("-0", .integer(0)),
        ("1E2", .double(100)),
        ("9223372036854775808", .double(9223372036854775808)),
        (#""日本語""#, .string("日本語")),
        (#"{"k":{"k":{"k":[]}}}"#, .object(["k": .object(["k": .object(["k": .array([])])])])),
    ])
    func valid(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test("an integer is read exactly to Int's bounds, and as a double beyond them or with a fraction or exponent", arguments: [
        ("0", JSONValue.integer(0)), ("-0", .integer(0)), ("7", .integer(7)), ("-42", .integer(-42)),
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .double(9223372036854775808)), ("-9223372036854775809", .double(-9.223372036854775808e18)),
        ("123456789012345678901234567890", .double(1.2345678901234568e29)),
        ("10.0", .double(10)), ("1e3", .double(1000)), ("-2E-1", .double(-0.2)),
    ])
    func integerBounds(text: String, expected: JSONValue) throws {
        let value = try JSONParser.parse(text)
        // == takes 1 and 1.0 as equal: the case is checked too.
        switch (value, expected) {
        case (.integer(let read), .integer(let wanted)): #expect(read == wanted)
        case (.double(let read), .double(let wanted)): #expect(read == wanted)
        default: Issue.record("\(text) read as \(value), expected \(expected)")
        }
    }

    @Test("invalid JSON is refused with a reason", arguments: [
        "", "{", "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "+1", "1e", "tru", "nul", #""abc"#, #""\x""#,
        #""\u12""#, #""\ud800""#, #""\udc00x""#, "1e999", "-1e999", "[1] 2", "{'a':1}", "//", "NaN", "Infinity",
        #"{"a" 1}"#, #"{1:2}"#, "\"\u{01}\"",
    ])
    func invalid(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("invalid UTF-8 inside a string is refused", arguments: [
        [0x22, 0xC3, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0xFF, 0x22],
    ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    @Test("nesting is limited to 256 levels")
    func depth() throws {
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        _ = try JSONParser.parse(ok)
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    }

    @Test("the parser agrees with the printer: print then parse is the identity")
    func roundTrip() throws {
        let value: JSONValue = ["s": "a\"b\\c\n\u{01}é", "n": [1, -2, 3.25, 1e300], "o": ["x": nil, "y": false]]
        #expect(try JSONParser.parse(value.description) == value)
    }
}
