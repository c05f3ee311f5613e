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
}

func decodeWithFoundation(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}
