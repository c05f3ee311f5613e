import Foundation
import SceneJSON
import Testing

@Suite("JSONValue encoder and decoder")
struct JSONValueCodingTests {
    /// An enum with associated values, coded by the synthesised conformance.
    enum Step: Codable, Hashable {
        case push(JSONValue)
        case sheet(JSONValue)
    }

    struct Nested: Codable, Hashable {
        var name: String
        var numbers: [Int]
        var inner: [String: [Double]]
        var optional: String?
        var flag: Bool
        var steps: [Step]
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

    /// Writes through every kind of container: nested ones inside arrays, a member written
    /// again after a nested container was made for it, a super encoder.
    struct Handwritten: Encodable {
        enum Key: String, CodingKey { case rows, replaced, again, base }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            var rows = keyed.nestedUnkeyedContainer(forKey: .rows)
            try rows.encode(1)
            var row = rows.nestedContainer(keyedBy: Key.self)
            try row.encode("inner", forKey: .again)
            var cells = row.nestedUnkeyedContainer(forKey: .rows)
            try cells.encode(true)
            try cells.encodeNil()
            try rows.encode("last")
            var replaced = keyed.nestedContainer(keyedBy: Key.self, forKey: .replaced)
            try replaced.encode(1, forKey: .again)
            try keyed.encode("leaf wins", forKey: .replaced)
            try keyed.encode(1, forKey: .again)
            try keyed.encode(2, forKey: .again)
            var base = keyed.superEncoder(forKey: .base).singleValueContainer()
            try base.encode([0.5])
        }
    }

    @Test("every container writes what JSONEncoder writes, the last write of a key winning")
    func containers() throws {
        #expect(try JSONValue.encoded(Handwritten()) == (try decodeWithFoundation(Handwritten())))
        #expect(
            try JSONValue.encoded(Handwritten())
                == ["rows": [1, ["again": "inner", "rows": [true, nil]], "last"], "replaced": "leaf wins", "again": 2, "base": [0.5]])
    }
}

func decodeWithFoundation(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}
