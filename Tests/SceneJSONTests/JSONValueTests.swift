import Foundation
import SceneJSON
import Testing

func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

func encodeJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("object key order does not matter to equality or hashing")
    func keyOrder() throws {
        let first = try decodeJSON(JSONValue.self, #"{"a": 1, "b": {"x": [1, 2], "y": null}}"#)
        let second = try decodeJSON(JSONValue.self, #"{"b": {"y": null, "x": [1, 2]}, "a": 1}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test("an integer equals the same number written with a fraction, and hashes the same")
    func integerEqualsDouble() throws {
        let one = try decodeJSON(JSONValue.self, "1")
        let onePointZero = try decodeJSON(JSONValue.self, "1.0")
        #expect(one == onePointZero)
        #expect(Set([one, onePointZero]).count == 1)
        #expect(JSONValue.integer(0) == JSONValue.double(-0.0))
        #expect(JSONValue.integer(0).hashValue == JSONValue.double(-0.0).hashValue)
    }

    @Test("different numbers, or a number and a string, are not equal")
    func differentValues() {
        #expect(JSONValue.integer(1) != .double(1.5))
        #expect(JSONValue.integer(1) != .string("1"))
        #expect(JSONValue.bool(true) != .integer(1))
        #expect(JSONValue.integer(Int.max) != .double(9.3e18))
        #expect(JSONValue.array([1, 2]) != .array([2, 1]))
    }

    @Test("decoding keeps every kind of value", arguments: [
        ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)),
        ("42", .integer(42)), ("-7", .integer(-7)), ("2.5", .double(2.5)),
        (#""héllo""#, .string("héllo")), ("[1,\"a\"]", .array([1, "a"])),
        (#"{"k":{"n":[]}}"#, .object(["k": .object(["n": .array([])])])),
    ])
    func decodes(text: String, expected: JSONValue) throws {
        #expect(try decodeJSON(JSONValue.self, text) == expected)
    }

    @Test("a number beyond Double's range fails to decode rather than changing value")
    func hugeNumber() {
        #expect(throws: (any Error).self) { try decodeJSON(JSONValue.self, "1e400") }
    }

    @Test("a value round-trips through JSON")
    func roundTrip() throws {
        let value: JSONValue = ["screen": "page", "doc": 42, "tags": ["a", "b"], "ratio": 0.5, "on": true, "none": nil]
        let text = try encodeJSON(value)
        #expect(try decodeJSON(JSONValue.self, text) == value)
    }

    @Test("description is compact JSON with sorted keys")
    func description() {
        let value: JSONValue = ["b": [1, 2.5, "x\"y\n"], "a": nil, "c": true]
        #expect(value.description == #"{"a":null,"b":[1,2.5,"x\"y\n"],"c":true}"#)
    }

    @Test("description escapes control characters as \\u escapes")
    func controlCharacters() {
        #expect(JSONValue.string("\u{01}").description == #""\u0001""#)
    }

    @Test("contains matches when every named member is present and equal, recursively")
    func contains() {
        let route: JSONValue = ["screen": "settings", "section": ["id": 3, "name": "x"]]
        #expect(route.contains([:]))
        #expect(route.contains(["screen": "settings"]))
        #expect(route.contains(["section": ["id": 3.0]]))
        #expect(!route.contains(["screen": "admin"]))
        #expect(!route.contains(["missing": nil]))
        #expect(!JSONValue.string("settings").contains(["screen": "settings"]))
    }

    @Test("typed accessors convert only exact values")
    func accessors() {
        #expect(JSONValue.double(2.0).intValue == 2)
        #expect(JSONValue.double(2.5).intValue == nil)
        #expect(JSONValue.integer(3).doubleValue == 3.0)
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.object(["a": 1])["a"] == 1)
        #expect(JSONValue.integer(1)["a"] == nil)
    }
}
