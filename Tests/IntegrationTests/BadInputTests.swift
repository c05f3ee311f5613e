import Foundation
import SceneCore
import SceneSocket
import SceneTesting
import SceneWire
import Testing

/// One malformed (or merely unusual) input and the answer the contract promises.
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    var helloFirst = true
    /// The error code expected; nil when no answer may come (a notification).
    let code: Int?
    var reason: String?
    /// Whether the server then closes the connection.
    var closes = false

    var testDescription: String { name }

    init(_ name: String, _ text: String, helloFirst: Bool = true, code: Int?, reason: String? = nil, closes: Bool = false) {
        self.init(name, bytes: FrameDecoder.frame(Array(text.utf8)), helloFirst: helloFirst, code: code, reason: reason, closes: closes)
    }

    init(_ name: String, bytes: [UInt8], helloFirst: Bool = true, code: Int?, reason: String? = nil, closes: Bool = false) {
        self.name = name
        self.bytes = bytes
        self.helloFirst = helloFirst
        self.code = code
        self.reason = reason
        self.closes = closes
    }
}

let badInputs: [BadInput] = [
    BadInput("garbage is a parse error", "{not json", code: -32700),
    BadInput("trailing data is a parse error", #"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#, code: -32700),
    BadInput("deep nesting is a parse error", String(repeating: "[", count: 300) + String(repeating: "]", count: 300), code: -32700),
    BadInput("a huge number is a parse error", #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":1e999}}"#, code: -32700),
    BadInput("invalid UTF-8 is a parse error", bytes: FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xFF] + Array(#""}"#.utf8)), code: -32700),
    BadInput("a lone surrogate is a parse error", #"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#, code: -32700),
    BadInput("a batch is one invalid-request error", #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, code: -32600, reason: "batch_not_supported"),
    BadInput("a top-level string is an invalid request", #""ping""#, code: -32600),
    BadInput("jsonrpc must be 2.0", #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, code: -32600),
    BadInput("a missing jsonrpc is an invalid request", #"{"id":1,"method":"ping"}"#, code: -32600),
    BadInput("a missing method is an invalid request", #"{"jsonrpc":"2.0","id":1}"#, code: -32600),
    BadInput("a method that is a number is an invalid request", #"{"jsonrpc":"2.0","id":1,"method":5}"#, code: -32600),
    BadInput("an id that is an object is an invalid request", #"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, code: -32600),
    BadInput("params that are an array are invalid params", #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}"#, code: -32602),
    BadInput("an unknown method is method-not-found", #"{"jsonrpc":"2.0","id":1,"method":"scene.teleport"}"#, code: -32601),
    BadInput("a request before hello is not-initialized", #"{"jsonrpc":"2.0","id":1,"method":"state"}"#, helloFirst: false, code: -32002),
    BadInput("hello with no common version is unsupported_protocol, then close", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[2],"role":"control","client":"x"}}"#, helloFirst: false, code: -32000, reason: "unsupported_protocol", closes: true),
    BadInput("hello twice is already_initialized", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"control","client":"x"}}"#, code: -32600, reason: "already_initialized"),
    BadInput("hello with a missing client is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"control"}}"#, helloFirst: false, code: -32602),
    BadInput("a scene hello without a token", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"scene","client":"x"}}"#, helloFirst: false, code: -32000, reason: "bad_token"),
    BadInput("params of the wrong type are invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":5}}"#, code: -32602),
    BadInput("an unknown intent type is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"flow.send","params":{"instance":"main-1","intent":{"type":"teleport"}}}"#, code: -32602),
    BadInput("a malformed instance id is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.focus","params":{"instance":"main"}}"#, code: -32602),
    BadInput("a plan step of no known type is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"flow.apply","params":{"instance":"main-1","plan":[{"type":"sheet","route":1},{"type":"popover","route":2}]}}"#, code: -32602),
    BadInput("an unknown scene is a domain error with its reason", #"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":"nope"}}"#, code: -32000, reason: "unknown_scene"),
    BadInput("an instance that is not open is not_open", #"{"jsonrpc":"2.0","id":"a","method":"scene.focus","params":{"instance":"main-1"}}"#, code: -32000, reason: "not_open"),
    BadInput("a dismiss with neither instance nor scene is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.dismiss","params":{}}"#, code: -32602),
    BadInput("an unknown subscription topic is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"topics":["weather"]}}"#, code: -32602),
    BadInput("a notification gets no answer, even for an unknown method", #"{"jsonrpc":"2.0","method":"scene.teleport"}"#, code: nil),
    BadInput("a frame of length zero is empty_frame, then close", bytes: [0, 0, 0, 0], code: -32600, reason: "empty_frame", closes: true),
    BadInput("a frame over the cap is frame_too_large, then close", bytes: [0x00, 0x10, 0x00, 0x01], code: -32600, reason: "frame_too_large", closes: true),
    BadInput("a unicode method name is method-not-found, echoed", #"{"jsonrpc":"2.0","id":1,"method":"scène.ouvrir"}"#, code: -32601),
    BadInput("a huge integer id is echoed as a number", #"{"jsonrpc":"2.0","id":1e300,"method":"nope"}"#, code: -32601),
    // JSON text
    BadInput("a byte-order mark before the JSON is a parse error", bytes: FrameDecoder.frame([0xEF, 0xBB, 0xBF] + Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8)), code: -32700),
    BadInput("a raw control character in a string is a parse error", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\u{01}ng\"}", code: -32700),
    BadInput("NaN is a parse error", #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":NaN}}"#, code: -32700),
    BadInput("a number with a leading zero is a parse error", #"{"jsonrpc":"2.0","id":01,"method":"ping"}"#, code: -32700),
    BadInput("single quotes are a parse error", #"{'jsonrpc':'2.0','id':1,'method':'ping'}"#, code: -32700),
    BadInput("a truncated escape is a parse error", #"{"jsonrpc":"2.0","id":1,"method":"\u12"}"#, code: -32700),
    BadInput("an overlong UTF-8 encoding is a parse error", bytes: FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)), code: -32700),
    // JSON-RPC envelope
    BadInput("a null id is an invalid request", #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, code: -32600),
    BadInput("an id that is true is an invalid request", #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, code: -32600),
    BadInput("an id that is an array is an invalid request", #"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, code: -32600),
    BadInput("a top-level number is an invalid request", "42", code: -32600),
    BadInput("a top-level null is an invalid request", "null", code: -32600),
    BadInput("an empty object is an invalid request", "{}", code: -32600),
    BadInput("jsonrpc as a number is an invalid request", #"{"jsonrpc":2.0,"id":1,"method":"ping"}"#, code: -32600),
    BadInput("an answer sent by a control client is an invalid request", #"{"jsonrpc":"2.0","id":1,"result":{}}"#, code: -32600),
    BadInput("params that are null are invalid params", #"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#, code: -32602),
    BadInput("params that are a string are invalid params", #"{"jsonrpc":"2.0","id":1,"method":"state","params":"all"}"#, code: -32602),
    BadInput("method names are case-sensitive", #"{"jsonrpc":"2.0","id":1,"method":"PING"}"#, code: -32601),
    // Handshake and order
    BadInput("hello with an unknown role is unsupported_role", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"admin","client":"x"}}"#, helloFirst: false, code: -32000, reason: "unsupported_role"),
    BadInput("hello with protocol not an array is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":1,"role":"control","client":"x"}}"#, helloFirst: false, code: -32602),
    BadInput("a scene hello with a token nobody was given is bad_token, then close", #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"scene","client":"x","token":"00000000000000000000000000000000"}}"#, helloFirst: false, code: -32000, reason: "bad_token", closes: true),
    BadInput("a notification before hello gets no answer", #"{"jsonrpc":"2.0","method":"state"}"#, helloFirst: false, code: nil),
    // Params and domain rules
    BadInput("scene.call of a reserved method is reserved_method", #"{"jsonrpc":"2.0","id":1,"method":"scene.call","params":{"to":"main-1","method":"scene.close"}}"#, code: -32000, reason: "reserved_method"),
    BadInput("scene.call to a malformed id is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.call","params":{"to":"main","method":"title"}}"#, code: -32602),
    BadInput("scene.call with a zero timeout is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.call","params":{"to":"main-1","method":"title","timeout":0}}"#, code: -32602),
    BadInput("scene.call with an hour and a second of timeout is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.call","params":{"to":"main-1","method":"title","timeout":3601}}"#, code: -32602),
    BadInput("scene.call to an instance that is not open is not_open", #"{"jsonrpc":"2.0","id":1,"method":"scene.call","params":{"to":"main-7","method":"title"}}"#, code: -32000, reason: "not_open"),
    BadInput("scene.phase with a phase that does not exist is invalid params", #"{"jsonrpc":"2.0","id":1,"method":"scene.phase","params":{"instance":"main-1","phase":"asleep"}}"#, code: -32602),
    BadInput("scene.phase for an instance that is not open is not_open", #"{"jsonrpc":"2.0","id":1,"method":"scene.phase","params":{"instance":"main-1","phase":"active"}}"#, code: -32000, reason: "not_open"),
    BadInput("a link from a foreign origin is link_rejected", #"{"jsonrpc":"2.0","id":1,"method":"link.open","params":{"url":"https://evil.example/viewer/1"}}"#, code: -32000, reason: "link_rejected"),
    BadInput("a link over the URL limit is input_limit_exceeded", #"{"jsonrpc":"2.0","id":1,"method":"link.open","params":{"url":"https://demo.example/"# + String(repeating: "a", count: 9000) + #""}}"#, code: -32000, reason: "input_limit_exceeded"),
    BadInput("an emoji scene id is unknown_scene", #"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":"🪟🪟🪟"}}"#, code: -32000, reason: "unknown_scene"),
]

@Suite("Bad input over a real socket")
struct BadInputTests {
    @Test("each bad input gets its documented answer while other connections are served", arguments: badInputs)
    func badInput(_ input: BadInput) async throws {
        try await withServer { server in
            let other = try await server.connect(client: "bystander")
            let client = try RawClient(path: server.path)
            if input.helloFirst { try await client.hello() }
            try await client.write(input.bytes)
            if let code = input.code {
                let answer = try await client.readMessage()
                #expect(answer["error"]?["code"]?.intValue == code)
                if let reason = input.reason { #expect(answer["error"]?["data"]?["reason"]?.stringValue == reason) }
                #expect(answer["jsonrpc"] == "2.0")
            } else {
                try await client.writeFrame(#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#)
                #expect(try await client.readMessage()["id"] == "after")
            }
            if input.closes {
                #expect(try await client.closesWithin())
            } else if input.helloFirst || input.code == -32002 {
                // The connection still works.
                try await client.writeFrame(#"{"jsonrpc":"2.0","id":99,"method":"ping"}"#)
                let answer = try await client.readMessage()
                #expect(answer["id"] == 99)
            }
            try await other.ping()
        }
    }

    @Test("a parse error is answered with a null id and the connection stays open")
    func parseErrorNullID() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            try await client.writeFrame("{oops")
            #expect(try await client.readMessage()["id"] == .null)
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
            #expect(try await client.readMessage()["result"] == [:])
        }
    }

    @Test("a frame written one byte at a time is answered")
    func oneByteWrites() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            for byte in FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#.utf8)) {
                try await client.write([byte])
            }
            #expect(try await client.readMessage()["id"] == 5)
        }
    }

    @Test("several frames in one write are all answered, in order")
    func severalFrames() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            var bytes: [UInt8] = []
            for id in 1...20 { bytes += FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#.utf8)) }
            try await client.write(bytes)
            for id in 1...20 { #expect(try await client.readMessage()["id"]?.intValue == id) }
        }
    }

    @Test("requests of one connection are applied in arrival order")
    func arrivalOrder() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            var bytes: [UInt8] = []
            for id in 1...3 {
                bytes += FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"scene.open","params":{"scene":"notes"}}"#.utf8))
            }
            try await client.write(bytes)
            var opened: [Int: String] = [:]
            for _ in 1...3 {
                let answer = try await client.readMessage()
                opened[answer["id"]?.intValue ?? 0] = answer["result"]?["instance"]?["id"]?.stringValue
            }
            #expect(opened == [1: "notes-1", 2: "notes-2", 3: "notes-3"])
        }
    }

    @Test("EOF in the middle of a frame ends that connection only")
    func eofMidFrame() async throws {
        try await withServer { server in
            let other = try await server.connect()
            let client = try RawClient(path: server.path)
            try await client.hello()
            try await client.write(Array(FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8)).prefix(10)))
            client.close()
            try await other.ping()
            #expect(await eventually { await server.coordinator.connectionCount() == 1 })
        }
    }

    @Test("a client that half-closes right after a framing error still gets the error answer")
    func halfClosedAfterFramingError() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            try await client.write([0, 0, 0, 0])
            client.shutdownWrite()
            let answer = try await client.readMessage()
            #expect(answer["error"]?["data"]?["reason"] == "empty_frame")
            #expect(try await client.closesWithin())
        }
    }

    @Test("EOF in the middle of a frame still delivers the answers to the complete requests before it")
    func eofMidFrameKeepsEarlierAnswers() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            let complete = FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":"done","method":"state"}"#.utf8))
            let cut = Array(FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8)).prefix(9))
            try await client.write(complete + cut)
            client.shutdownWrite()
            #expect(try await client.readMessage()["id"] == "done")
            #expect(try await client.closesWithin())
        }
    }

    @Test("a half-closed client still gets the answers to what it sent")
    func halfClosed() async throws {
        try await withServer { server in
            let client = try RawClient(path: server.path)
            try await client.hello()
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":"last","method":"state"}"#)
            client.shutdownWrite()
            #expect(try await client.readMessage()["id"] == "last")
            #expect(try await client.closesWithin())
        }
    }

    @Test("a client that never reads is disconnected past its write-queue cap; others are served")
    func slowReader() async throws {
        try await withServer(configure: { $0.writeQueueCap = 64 << 10 }) { server in
            let other = try await server.connect()
            let client = try RawClient(path: server.path)
            try await client.hello()
            let request = FrameDecoder.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":"state"}"#.utf8))
            // Ask and never read: once the answers fill the socket and the cap, the server
            // disconnects, and a write fails.
            var disconnected = false
            let deadline = ContinuousClock.now + .seconds(30)
            while !disconnected, ContinuousClock.now < deadline {
                do {
                    try await client.write(request, timeout: .seconds(2))
                } catch {
                    disconnected = true
                }
            }
            #expect(disconnected)
            try await other.ping()
        }
    }

    @Test("one answer larger than the write-queue cap still reaches a client that reads it, whole")
    func answerLargerThanCap() async throws {
        let manifest = try Manifest.load(from: Data(#"{"app": "big", "scenes": [{"id": "board", "kind": "window"}]}"#.utf8))
        try await withServer(manifest: manifest, configure: { $0.writeQueueCap = 4 << 10 }) { server in
            let client = try await server.connect()
            // Far more than the socket's own buffer takes at once, so the answer queues.
            for _ in 1...4000 { _ = try await client.open("board") }
            let state = try await client.state()
            #expect(state.instances.count == 4000)
            #expect(WireCodec.framedResponse(id: 1, result: WireCodec.json(state)).count > 400 << 10)
            try await client.ping()
        }
    }

    @Test("one connection more than the maximum is answered with an error and closed")
    func connectionCap() async throws {
        try await withServer(configure: { $0.maximumConnections = 2 }) { server in
            let first = try await server.connect()
            let second = try await server.connect()
            let third = try RawClient(path: server.path)
            let answer = try await third.readMessage()
            #expect(answer["error"]?["data"]?["reason"] == "too_many_connections")
            #expect(try await third.closesWithin())
            try await first.ping()
            try await second.ping()
        }
    }
}
