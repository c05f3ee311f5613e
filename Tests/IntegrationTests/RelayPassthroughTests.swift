import Foundation
import SceneClient
import SceneFlow
import SceneJSON
import SceneTesting
import SceneWire
import Testing

@Suite("Relay passthrough")
struct RelayPassthroughTests {
    @Test("a relayed call reaches the scene with the caller's params as written, and the caller gets the scene's result as written")
    func bytesPassThrough() async throws {
        try await withProcesses { harness in
            // The puppet's process only sleeps: this test says hello with its token, as raw frames.
            let control = harness.control
            let before = Set(harness.events.all.filter { $0.kind == .spawned }.compactMap { $0.params["pid"]?.intValue })
            let opening = Task { try await control.open("puppet") }
            var pid: Int?
            _ = await eventually {
                pid = harness.events.all.last { $0.kind == .spawned && !before.contains($0.params["pid"]?.intValue ?? -1) }?
                    .params["pid"]?.intValue
                return pid != nil
            }
            let token = try harness.token(of: Int32(try #require(pid, "the puppet's process did not start")))
            let scene = try RawClient(path: harness.path)
            defer { scene.close() }
            try await scene.writeFrame(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"scene","client":"raw-scene","token":"\#(token)"}}"#)
            let welcome = try await scene.readMessage()
            let instance = try #require(welcome["result"]?["instance"]?["id"]?.stringValue)
            #expect(try await opening.value.instance.id == instance)

            let caller = try RawClient(path: harness.path)
            defer { caller.close() }
            try await caller.hello()
            let params = #"{"z" : 1,"a":[1.50, "\u00e9"]}"#
            try await caller.writeFrame(#"{"jsonrpc":"2.0","id":"c1","method":"scene.call","params":{"to":"\#(instance)","method":"echo","params":\#(params)}}"#)

            // What the scene receives, skipping the coordinator's own notifications.
            var relayed = ""
            _ = try await eventually {
                let frame = try #require(try await scene.readFrame())
                relayed = String(decoding: frame, as: UTF8.self)
                return relayed.contains(#""method":"echo""#)
            }
            #expect(relayed.hasSuffix(#","params":\#(params)}"#))
            let number = try #require(try JSONParser.parse(relayed)["id"]?.intValue)
            try await scene.writeFrame(#"{"jsonrpc":"2.0","id":\#(number),"result":{"b" : 2.50,"a":[ ]}}"#)

            let answer = String(decoding: try #require(try await caller.readFrame()), as: UTF8.self)
            #expect(answer == #"{"jsonrpc":"2.0","id":"c1","result":{"b" : 2.50,"a":[ ]}}"#)
        }
    }
}
