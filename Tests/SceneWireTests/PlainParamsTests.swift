import SceneFlow
import SceneJSON
@testable import SceneWire
import Testing

/// The params object `text` as a whole message's params, read by `read` from its bytes.
private func fromBytes<T>(_ text: String, _ read: (UnsafeRawBufferPointer) -> T?) -> T? {
    let message = Array(#"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(text)}"#.utf8)
    return message.withUnsafeBytes { bytes -> T? in
        guard case .success(let envelope) = Envelope.scan(bytes), let range = envelope.params else { return nil }
        return read(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
}

@Suite("Hot params read straight from their bytes")
struct PlainParamsTests {
    @Test("flow.send params read from the bytes are what the Decodable reading gives", arguments: [
        #"{"instance":"board-3","intent":{"type":"push","route":{"screen":"page"}}}"#,
        #"{"instance":"board-3","intent":{"type":"pop"}}"#,
        #"{ "intent" : { "route" : [1, 2.5, "x", null, {"a": {}}] , "type" : "sheet" } , "instance" : "main-1" }"#,
        #"{"instance":"main-1","intent":{"type":"pop","count":3}}"#,
        #"{"instance":"main-1","intent":{"type":"pop","count":null}}"#,
        #"{"instance":"main-1","intent":{"type":"popToRoot","route":"ignored"},"extra":[{"x":1}]}"#,
        #"{"instance":"main-1","intent":{"type":"cover","route":"c"}}"#,
        #"{"instance":"main-1","intent":{"type":"popTo","route":"a"}}"#,
        #"{"instance":"main-1","intent":{"type":"backOrPush","route":"a"}}"#,
        #"{"instance":"main-1","intent":{"type":"pushUnique","route":"a"}}"#,
        #"{"instance":"main-1","intent":{"type":"dismiss"}}"#,
        #"{"instance":"main-1","intent":{"type":"dismissAll"}}"#,
        #"{"\u0069nstance":"m\u00e9-1","intent":{"typ\u0065":"p\u0075sh","route":"\n"}}"#,
        #"{"instance":"x-1","instance":"main-1","intent":{"type":"push","route":"a","route":"b"}}"#,
        #"{"instance":"main-1","intent":{"type":"push","route":"a"},"intent":{"type":"pop"}}"#,
    ])
    func flowSendAgrees(text: String) throws {
        let plain = try #require(fromBytes(text, FlowSendParams.plain(bytes:)), "the plain shape is read from the bytes")
        #expect(plain == (try WireCodec.decode(FlowSendParams.self, from: try JSONParser.parse(text))))
    }

    @Test("flow.send params of any other shape are left to the general path", arguments: [
        #"{"instance":7,"intent":{"type":"pop"}}"#,
        #"{"intent":{"type":"pop"}}"#,
        #"{"instance":"main-1"}"#,
        #"{"instance":"main-1","intent":"pop"}"#,
        #"{"instance":"main-1","intent":{"type":"push"}}"#,
        #"{"instance":"main-1","intent":{"type":"push","route":null}}"#,
        #"{"instance":"main-1","intent":{"type":"pop","count":1.5}}"#,
        #"{"instance":"main-1","intent":{"type":"replace","path":[]}}"#,
        #"{"instance":"main-1","intent":{"type":5}}"#,
        #"{"instance":"main-1","intent":{"route":"a"}}"#,
        #"{"instance":"main-1","intent":{"type":"pop"},"intent":{"type":"push"}}"#,
        #"[]"#,
        #"{}"#,
    ])
    func flowSendLeftAlone(text: String) {
        #expect(fromBytes(text, FlowSendParams.plain(bytes:)) == nil)
    }

    @Test("scene.open params read from the bytes are what the Decodable reading gives", arguments: [
        #"{"scene":"main"}"#,
        #"{"scene":"viewer","value":"42"}"#,
        #"{ "value" : {"doc": [1, {"k": null}]} , "scene" : "viewer" }"#,
        #"{"scene":"main","value":null,"other":{"x":[]}}"#,
        #"{"sc\u0065ne":"m\u0061in"}"#,
    ])
    func openAgrees(text: String) throws {
        let plain = try #require(fromBytes(text, OpenParams.plain(bytes:)), "the plain shape is read from the bytes")
        #expect(plain == (try WireCodec.decode(OpenParams.self, from: try JSONParser.parse(text))))
    }

    @Test("scene.open params of any other shape are left to the general path", arguments: [
        #"{"scene":1}"#, #"{"value":"42"}"#, #"{"scene":null}"#, #"{}"#, #""main""#,
    ])
    func openLeftAlone(text: String) {
        #expect(fromBytes(text, OpenParams.plain(bytes:)) == nil)
    }

    @Test("members given as null are left to the decoder or read as absent, as the decoder reads them, on the tree's fast paths too")
    func nullMembers() throws {
        #expect(FlowIntent<JSONValue>(plainJSON: ["type": "push", "route": .null]) == nil)
        #expect(try WireCodec.decode(FlowIntent<JSONValue>.self, from: ["type": "push", "route": .null]) == .push(.null))
        #expect(FlowIntent<JSONValue>(plainJSON: ["type": "pop", "count": .null]) == .pop)
        #expect(try WireCodec.decode(OpenParams.self, from: ["scene": "main", "value": .null]).value == nil)
        #expect(Optional<JSONValue>.some(.null).nullAsAbsent == nil)
        #expect(Optional<JSONValue>.some("x").nullAsAbsent == "x")
    }

    @Test("a member reader gives up on a value its body does not take and on bytes that are not an object")
    func readerGivesUp() {
        for text in [#"{"a":1,"b":2}"#, #"[1]"#, #"{"a" 1}"#, #"{"a":1,}"#] {
            let read = Array(text.utf8).withUnsafeBytes { bytes in
                var parser = JSONParser(bytes: bytes)
                return parser.readObject(keys: ["a"]) { parser, key throws(JSONParseError) in
                    guard key == 0 else { return false }
                    try parser.skipValue()
                    return true
                }
            }
            #expect(!read, "\(text)")
        }
    }
}
