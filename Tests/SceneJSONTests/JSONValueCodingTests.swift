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

    /// A member of type `T`, so that it is decoded through a keyed container.
    struct Member<T: Decodable & Equatable>: Decodable, Equatable {
        let v: T
    }

    /// What `json` decodes to as a `T`, as a member and alone; nil when it does not.
    func decode<T: Decodable & Equatable>(_ json: JSONValue, as type: T.Type) -> T? {
        let member = try? JSONValue.object(["v": json]).decoded(as: Member<T>.self).v
        #expect(member == (try? json.decoded(as: T.self)), "\(json) as \(T.self): a member and a value alone decode alike")
        return member
    }

    @Test("a standard library number decodes from a JSON number only when it fits exactly; a string, a flag and a number are not each other")
    func primitives() {
        #expect(decode(300, as: Int.self) == 300)
        #expect(decode(300, as: Int16.self) == 300)
        #expect(decode(300, as: UInt16.self) == 300)
        #expect(decode(300, as: Int8.self) == nil)
        #expect(decode(300, as: UInt8.self) == nil)
        #expect(decode(-1, as: Int8.self) == -1)
        #expect(decode(-1, as: Int64.self) == -1)
        #expect(decode(-1, as: UInt.self) == nil)
        #expect(decode(-1, as: UInt64.self) == nil)
        #expect(decode(-1, as: UInt32.self) == nil)
        #expect(decode(70_000, as: Int32.self) == 70_000)
        #expect(decode(1.5, as: Int.self) == nil)
        #expect(decode(1.5, as: Double.self) == 1.5)
        #expect(decode(1.5, as: Float.self) == 1.5)
        #expect(decode(300, as: Double.self) == 300)
        #expect(decode("7", as: Int.self) == nil)
        #expect(decode("7", as: String.self) == "7")
        #expect(decode(7, as: String.self) == nil)
        #expect(decode(true, as: Bool.self) == true)
        #expect(decode(true, as: Int.self) == nil)
        #expect(decode(1, as: Bool.self) == nil)
        #expect(decode(nil, as: Int.self) == nil)
    }

    /// The coding path of the type mismatch decoding `json` as a `type` is refused with;
    /// nil when it decodes.
    func mismatchPath(_ json: JSONValue, as type: (some Decodable).Type) -> [String]? {
        do {
            _ = try json.decoded(as: type)
            return nil
        } catch DecodingError.typeMismatch(_, let context) {
            return context.codingPath.map(\.stringValue)
        } catch {
            return ["not a type mismatch: \(error)"]
        }
    }

    @Test("a value that does not fit is refused with the path of its member or element")
    func mismatchPaths() {
        #expect(mismatchPath(["v": [1, "x"]], as: Member<[Int]>.self) == ["v", "1"])
        #expect(mismatchPath(["v": ["a": 300]], as: Member<[String: Int8]>.self) == ["v", "a"])
        #expect(mismatchPath(["v": [[true], [1]]], as: Member<[[Bool]]>.self) == ["v", "1", "0"])
        #expect(mismatchPath(["v": "7"], as: Member<Int>.self) == ["v"])
        #expect(mismatchPath("7", as: Int.self) == [])
    }

    /// Members of the four types a container reads and writes without its generic step,
    /// required and optional.
    struct Scalars: Codable, Equatable {
        var int: Int
        var text: String
        var flag: Bool
        var real: Double
        var maybeInt: Int?
        var maybeText: String?
        var maybeFlag: Bool?
        var maybeReal: Double?
    }

    @Test("Int, String, Bool and Double members decode and encode as any other: absent or null optionals are nil, a mismatch names its member")
    func scalarMembers() throws {
        let full: JSONValue = [
            "int": -3, "text": "t", "flag": false, "real": 0.25, "maybeInt": 4, "maybeText": "", "maybeFlag": true, "maybeReal": 2,
        ]
        let value = try full.decoded(as: Scalars.self)
        #expect(value == Scalars(int: -3, text: "t", flag: false, real: 0.25, maybeInt: 4, maybeText: "", maybeFlag: true, maybeReal: 2))
        #expect(try JSONValue.encoded(value) == full)
        #expect(try JSONValue.encoded(value) == (try decodeWithFoundation(value)))

        let bare: JSONValue = ["int": 1, "text": "", "flag": true, "real": 1, "maybeText": nil, "maybeReal": nil]
        let none = try bare.decoded(as: Scalars.self)
        #expect([none.maybeInt == nil, none.maybeText == nil, none.maybeFlag == nil, none.maybeReal == nil] == [true, true, true, true])

        func refusal(_ member: String, _ json: JSONValue) -> [String]? {
            guard case .object(var members) = full else { return nil }
            members[member] = json
            return mismatchPath(.object(members), as: Scalars.self)
        }
        #expect(refusal("int", 1.5) == ["int"])
        #expect(refusal("text", 7) == ["text"])
        #expect(refusal("flag", 1) == ["flag"])
        #expect(refusal("real", "0.5") == ["real"])
        #expect(refusal("maybeInt", "7") == ["maybeInt"])
        #expect(refusal("maybeText", false) == ["maybeText"])
        #expect(refusal("maybeFlag", 0) == ["maybeFlag"])
        #expect(refusal("maybeReal", [1]) == ["maybeReal"])
        #expect(throws: DecodingError.self) { try JSONValue.object(["text": "", "flag": true, "real": 1]).decoded(as: Scalars.self) }
    }

    /// Counts the times a decoder asked it for `userInfo`.
    final class CountingContext: DecodingContext, @unchecked Sendable {
        static let key = CodingUserInfoKey(rawValue: "counting")!
        var asked = 0
        var decodingUserInfo: [CodingUserInfoKey: Any] {
            asked += 1
            return [Self.key: "from the context"]
        }
    }

    /// Reads the decoder's `userInfo` as it decodes.
    struct ReadsUserInfo: Decodable {
        let found: String?
        init(from decoder: any Decoder) throws {
            found = decoder.userInfo[CountingContext.key] as? String
        }
    }

    @Test("a decoder asks its context for userInfo only when a type being decoded reads it, and finds it at any depth")
    func userInfoFromContext() throws {
        let context = CountingContext()
        _ = try JSONValue.object(["v": ["a": 1]]).decoded(as: Member<[String: Int]>.self, context: context)
        #expect(context.asked == 0)
        let read = try JSONValue.array([["x": 1], 2]).decoded(as: [ReadsUserInfo].self, context: context)
        #expect(read.map(\.found) == ["from the context", "from the context"])
        #expect(context.asked == 2)
    }
}

func decodeWithFoundation(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}
