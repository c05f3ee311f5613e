import SceneFlow
import SceneWire
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

@Suite("Envelope scan")
struct EnvelopeTests {
    func scan(_ text: String) -> Result<Envelope, Envelope.Failure> {
        Array(text.utf8).withUnsafeBytes { Envelope.scan($0) }
    }

    @Test("a request's members are found and its params located, not decoded")
    func request() throws {
        let text = #"{"jsonrpc":"2.0","id":7,"method":"scene.open","params":{"scene":"main"},"extra":[1]}"#
        let envelope = try scan(text).get()
        #expect(envelope.version == "2.0")
        #expect(envelope.id == 7)
        #expect(envelope.method == "scene.open")
        let params = try #require(envelope.params)
        #expect(String(decoding: Array(text.utf8)[params], as: UTF8.self) == #"{"scene":"main"}"#)
    }

    @Test("a batch, a non-object and broken JSON are told apart")
    func failures() {
        guard case .failure(.batch) = scan("[1,2]") else {
            Issue.record("a JSON array is a batch")
            return
        }
        guard case .failure(.notAnObject) = scan(#""x""#) else {
            Issue.record("a string is not an object")
            return
        }
        guard case .failure(.parse) = scan("[1,") else {
            Issue.record("a broken array is a parse error, not a batch")
            return
        }
        guard case .failure(.parse) = scan(#"{"method":"a"} x"#) else {
            Issue.record("trailing data is a parse error")
            return
        }
    }

    @Test("a method that is not a string is present but unread")
    func methodType() throws {
        let envelope = try scan(#"{"jsonrpc":"2.0","id":1,"method":5}"#).get()
        #expect(envelope.hasMethod)
        #expect(envelope.method == nil)
    }
}

@Suite("JSONValue encoder and decoder")
struct JSONValueCodingTests {
    struct Nested: Codable, Hashable {
        var name: String
        var numbers: [Int]
        var inner: [String: [Double]]
        var optional: String?
        var flag: Bool
        var steps: [RouteStep<JSONValue>]
    }

    @Test("a nested Codable value round-trips through JSONValue, as JSONEncoder would encode it")
    func roundTrip() throws {
        let value = Nested(
            name: "n", numbers: [1, 2], inner: ["a": [0.5, 2]], optional: nil, flag: true,
            steps: [.push(["screen": "x"]), .sheet("s")])
        let json = try JSONValue.encoded(value)
        #expect(try json.decoded(as: Nested.self) == value)
        #expect(json == (try decodeWithFoundation(value)))
    }

    @Test("every intent decodes from JSONValue as from bytes")
    func intents() throws {
        let intents: [FlowIntent<JSONValue>] = [
            .push("a"), .pushMany(["a", 1]), .sheet(nil), .cover(["k": true]), .pop, .popCount(2), .popTo("a"),
            .popToRoot, .dismiss, .dismissAll, .reset([.push("a"), .cover("c")]), .replaceStack([]), .backOrPush(3),
            .pushUnique("u"),
        ]
        for intent in intents {
            #expect(try JSONValue.encoded(intent).decoded(as: FlowIntent<JSONValue>.self) == intent)
        }
    }

    @Test("a mismatch names the coding path")
    func mismatch() {
        do {
            _ = try JSONValue.object(["scene": 5]).decoded(as: OpenParams.self)
            Issue.record("decoding must fail")
        } catch let error as DecodingError {
            #expect(WireCodec.describe(error).hasPrefix("scene:"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

import Foundation

func decodeWithFoundation(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}
