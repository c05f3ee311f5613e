import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import Testing

@Suite("Relay coding")
struct RelayCodingTests {
    /// `scene.call` params as a whole message, and the range of its params.
    private func scanned(_ params: String) -> SceneCallParams.Scanned? {
        let message = Array(#"{"jsonrpc":"2.0","id":1,"method":"scene.call","params":\#(params)}"#.utf8)
        return message.withUnsafeBytes { bytes -> SceneCallParams.Scanned? in
            guard case .success(let envelope) = Envelope.scan(bytes), let range = envelope.params else { return nil }
            return SceneCallParams.scan(bytes, range: range)
        }
    }

    @Test("params read straight from the bytes mean what the Decodable reading means", arguments: [
        #"{"to":"notes-1","method":"echo","params":{"n":1}}"#,
        #"{"to":{"scene":"notes"},"method":"title"}"#,
        #"{ "method" : "echo" , "to" : "notes-2" , "params" : [1, 2.50, "x"] , "timeout" : 2 }"#,
        #"{"to":"notes-1","method":"echo","params":null,"timeout":0.5,"from":"other-3"}"#,
        #"{"to":"notes-1","method":"echo","timeout":null,"extra":{"ignored":true}}"#,
        #"{"\u0074o":"notes-1","m\u0065thod":"echo","par\u0061ms":{"k":"\u00e9"}}"#,
        #"{"to":{"scene":"notes","other":1},"method":"echo"}"#,
    ])
    func agrees(text: String) throws {
        let raw = try #require(scanned(text), "the plain shape is read without the Decodable path")
        let decoded = try WireCodec.decode(SceneCallParams.self, from: try JSONParser.parse(text))
        #expect(raw.to == decoded.to)
        #expect(raw.method == decoded.method)
        #expect(raw.timeout == decoded.timeout)
        #expect(raw.from == decoded.from)
        #expect(raw.params?.value == decoded.params)
    }

    @Test("params of any other shape are left to the Decodable path, which explains the mistake", arguments: [
        #"{"to":7,"method":"echo"}"#,
        #"{"to":"notes-1"}"#,
        #"{"method":"echo"}"#,
        #"{"to":"notes-1","method":["echo"]}"#,
        #"{"to":"notes-1","method":"echo","timeout":"soon"}"#,
        #"{"to":{"instance":"notes-1"},"method":"echo"}"#,
        #"{"to":"notes-1","method":"echo","from":5}"#,
        #"{}"#,
    ])
    func leavesTheRest(text: String) throws {
        #expect(scanned(text) == nil)
        #expect(throws: WireError.self) { try WireCodec.decode(SceneCallParams.self, from: try JSONParser.parse(text)) }
    }

    @Test("a from that is not a string, null included, is left to the general path, which checks it against the scene's own instance")
    func fromNull() {
        #expect(scanned(#"{"to":"notes-1","method":"echo","from":null}"#) == nil)
        #expect(scanned(#"{"to":"notes-1","method":"echo","from":"notes-2"}"#)?.from == "notes-2")
    }

    @Test("a relayed request carries the caller's params byte for byte")
    func requestKeepsParams() throws {
        let params = RawJSON(checked: Array(#"{"z" : 1,"a":[1.50, "\u00e9"]}"#.utf8))
        let frame = WireCodec.framedRequest(id: 7, method: "say \"hi\"", params: params)
        let payload = Array(frame.dropFirst(4))
        #expect(frame.prefix(4) == FrameHeader.bytes(length: payload.count)[...])
        #expect(String(decoding: payload, as: UTF8.self)
            == #"{"jsonrpc":"2.0","id":7,"method":"say \"hi\"","params":{"z" : 1,"a":[1.50, "\u00e9"]}}"#)
        #expect(try JSONParser.parse(payload)["method"] == "say \"hi\"")
    }

    @Test("a relayed answer carries the scene's result byte for byte, under the caller's id")
    func responseKeepsResult() throws {
        let result = RawJSON(checked: Array(#"{"b" : 2.50,"a":[ ]}"#.utf8))
        for (id, written) in [(JSONValue.string("c\"1"), #""c\"1""#), (.integer(-4), "-4")] {
            let frame = WireCodec.framedResponse(id: id, result: result)
            #expect(String(decoding: frame.dropFirst(4), as: UTF8.self) == #"{"jsonrpc":"2.0","id":\#(written),"result":{"b" : 2.50,"a":[ ]}}"#)
            #expect(try JSONParser.parse(Array(frame.dropFirst(4)))["id"] == id)
        }
    }

    @Test("a path written directly is the value its Encodable form gives")
    func pathJSON() throws {
        let path: [RouteStep<JSONValue>] = [
            .push("inbox"), .push(["screen": "message", "id": 7, "tags": ["a", nil, 2.5]]), .sheet(["screen": "compose"]),
        ]
        for prefix in 0...path.count {
            let steps = Array(path.prefix(prefix))
            #expect(WireCodec.json(steps) == (try JSONValue.encoded(steps)))
        }
        #expect(WireCodec.json([.cover("player")]) == (try JSONValue.encoded([RouteStep<JSONValue>.cover("player")])))
    }

    @Test("a notification has no id, and absent params are left out")
    func notificationShape() throws {
        let frame = WireCodec.framedRequest(id: nil, method: "event", params: nil as JSONValue?)
        #expect(String(decoding: frame.dropFirst(4), as: UTF8.self) == #"{"jsonrpc":"2.0","method":"event"}"#)
    }
}
