import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import Testing

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

@Suite("Decoding failures name the coding path")
struct DecodingPathTests {
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

@Suite("Framing errors as the wire reports them")
struct FramingReasonTests {
    @Test("each framing error is Invalid Request with its documented reason and what is wrong as detail", arguments: [
        (FramingError.emptyFrame, ReasonCode("empty_frame")),
        (FramingError.frameTooLarge(length: 2_000_000, maximum: 1 << 20), ReasonCode("frame_too_large")),
    ])
    func reasons(error: FramingError, reason: ReasonCode) {
        let wire = WireError.framing(error)
        #expect(wire.code == WireCode.invalidRequest)
        #expect(wire.reason == reason)
        #expect(wire.data["detail"] == .string(error.description))
    }
}
