import SceneCore
import SceneSocket
import SceneSync
import SceneTesting
import Testing

private func callError(_ body: () async throws(SceneError) -> ScenePayload) async -> SceneError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// Calls between in-process scenes, and the errors a call answers: the same as a scene
/// process's over the wire.
@Suite("Calls to in-process scenes: Swift values as they are, errors as on the wire")
struct SceneBehaviorCallTests {
    @Test("a typed call between in-process scenes passes its Swift values through, never encoding them")
    func typedCallsMakeNoJSON() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: heard) }, "b": { Recorder($0, heard: heard) }])
        let a = try await registry.open("a").instance.id
        _ = try await registry.open("b")
        let before = Counted.encodings.withLock { $0 }
        let answer = try await registry.call(SceneCall(method: "forward", params: ScenePayload("b")), to: .instance(a))
        #expect(try answer.decode(Counted.self) == Counted(42))
        #expect(Counted.encodings.withLock { $0 } == before)
    }

    @Test("a handler's own call error is answered as it is; any other error is scene_failed with its description")
    func handlerErrors() async throws {
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let own = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "refuse"), to: .instance(a)) }
        #expect(own?.reason == "out_of_paper")
        let failed = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "boom"), to: .instance(a)) }
        #expect(failed?.code == -32000)
        #expect(failed?.reason == .sceneFailed)
        #expect(failed?.data["detail"] == "it broke")
        let missing = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "nope"), to: .instance(a)) }
        #expect(missing?.code == -32601)
    }

    @Test("calls are refused not_open, not_connected, reserved_method or call_timeout as the case is")
    func callRefusals() async throws {
        let clock = LoopClock.manual()
        let registry = try typedRegistry(
            time: clock, behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let plain = try await registry.open("plain").instance.id
        let gone = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "x"), to: .instance(InstanceID("b-9")!)) }
        #expect(gone?.reason == .notOpen)
        let virtual = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "x"), to: .instance(plain)) }
        #expect(virtual?.reason == .notConnected)
        let reserved = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "scene.x"), to: .instance(a)) }
        #expect(reserved?.reason == .reservedMethod)
        let unknown = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "x"), to: .scene("nowhere")) }
        #expect(unknown?.reason == .unknownScene)
        let slow = await clock.advancing(by: .milliseconds(50)) {
            await callError { () throws(SceneError) in
                try await registry.call(SceneCall(method: "hang"), to: .instance(a), timeout: .milliseconds(50))
            }
        }
        #expect(slow?.reason == .callTimeout)
        #expect(slow?.data["method"] == "hang")
    }

    @Test("a call's timeout must be positive and at most an hour, in process as on the wire")
    func timeoutBounds() async throws {
        let registry = try typedRegistry(behaviors: ["a": { Recorder($0, heard: Heard()) }, "b": { Recorder($0, heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        for timeout in [Duration.zero, .seconds(3601), .seconds(Int64.max)] {
            let refused = await callError { () throws(SceneError) in
                try await registry.call(SceneCall(method: "double", params: ScenePayload(Counted(1))), to: .instance(a), timeout: timeout)
            }
            #expect(refused?.code == -32602, "\(timeout)")
        }
    }
}
