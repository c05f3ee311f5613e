import SceneSocket
import Testing

/// Feeds `chunks` to a decoder and collects the frames and the error.
func decode(_ chunks: [[UInt8]], maximum: Int = 1 << 20) -> (frames: [[UInt8]], error: FramingError?, partial: Bool) {
    var decoder = FrameDecoder(maximum: maximum)
    var frames: [[UInt8]] = []
    var error: FramingError?
    for chunk in chunks {
        error = chunk.withUnsafeBytes { bytes in decoder.feed(bytes) { frames.append(Array($0)) } }
    }
    return (frames, error, decoder.hasPartialFrame)
}

@Suite("Frame decoder")
struct FrameDecoderTests {
    let stream = FrameDecoder.frame(Array("hello".utf8)) + FrameDecoder.frame(Array("{}".utf8)) + FrameDecoder.frame([0x41])

    @Test("several frames in one read are all delivered, in order")
    func severalInOneRead() {
        #expect(decode([stream]).frames == [Array("hello".utf8), Array("{}".utf8), [0x41]])
    }

    @Test("frames split at every byte boundary are reassembled")
    func oneByteAtATime() {
        let result = decode(stream.map { [$0] })
        #expect(result.frames == [Array("hello".utf8), Array("{}".utf8), [0x41]])
        #expect(result.error == nil)
        #expect(!result.partial)
    }

    @Test("a frame cut short leaves a partial frame, so EOF now is mid-frame")
    func partial() {
        let result = decode([Array(stream.prefix(7))])
        #expect(result.frames.isEmpty)
        #expect(result.partial)
    }

    @Test("a length of zero is empty_frame")
    func empty() {
        let result = decode([[0, 0, 0, 0]])
        #expect(result.error == .emptyFrame)
    }

    @Test("a length over the maximum is frame_too_large, found from the header alone")
    func tooLarge() {
        let result = decode([[0x00, 0x10, 0x00, 0x01]], maximum: 1 << 20)
        #expect(result.error == .frameTooLarge(length: (1 << 20) + 1, maximum: 1 << 20))
        #expect(!result.partial)
    }

    @Test("a frame of exactly the maximum is accepted")
    func atMaximum() {
        let payload = [UInt8](repeating: 0x20, count: 64)
        #expect(decode([FrameDecoder.frame(payload)], maximum: 64).frames == [payload])
    }

    @Test("frames before a framing error are delivered; nothing after it")
    func errorStops() {
        let result = decode([FrameDecoder.frame([1]) + [0, 0, 0, 0] + FrameDecoder.frame([2])])
        #expect(result.frames == [[1]])
        #expect(result.error == .emptyFrame)
    }

    @Test("the header is the payload length, big-endian")
    func header() {
        #expect(FrameHeader.bytes(length: 0x0102_0304) == [1, 2, 3, 4])
    }
}
