import SceneFlow
import SceneJSON
import SceneWire
import Testing

/// What `WireCodec` writes for `path`, whole.
private func written(_ path: [RouteStep<JSONValue>]) -> [UInt8] {
    var bytes: [UInt8] = []
    WireCodec.write(path, to: &bytes)
    return bytes
}

/// `PathText`'s text for `path`, closed as an answer closes it.
private func kept(_ text: PathText, _ path: [RouteStep<JSONValue>]) -> [UInt8] {
    text.update(to: path) + [UInt8(ascii: "]")]
}

@Suite("The text of an instance's path, kept between answers")
struct PathTextTests {
    @Test("over pushes, pops, modals and replaced steps the kept text is always the path written whole")
    func followsEveryChange() {
        var rng = SystemRandomNumberGenerator()
        let text = PathText()
        var path: [RouteStep<JSONValue>] = []
        for round in 0..<2_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                path.append(.push(["screen": "page", "n": .integer(round)]))
            case 4..<7:
                if !path.isEmpty { path.removeLast() }
            case 7:
                path.append(.sheet(.string("share \(round)")))
            case 8:
                // A step replaced in the middle: everything after it is written anew.
                if !path.isEmpty { path[Int.random(in: 0..<path.count, using: &rng)] = .cover(.double(Double(round) / 4)) }
            default:
                path = Array(path.prefix(Int.random(in: 0...path.count, using: &rng)))
            }
            #expect(kept(text, path) == written(path), "after round \(round)")
        }
    }

    @Test("an equal route that writes other text is written anew: 1 and 1.0, a precomposed é and a decomposed one")
    func equalIsNotTheSameText() {
        let text = PathText()
        let whole: [RouteStep<JSONValue>] = [.push(.integer(1)), .push(.string("caf\u{E9}"))]
        let other: [RouteStep<JSONValue>] = [.push(.double(1)), .push(.string("cafe\u{301}"))]
        #expect(whole == other)
        #expect(kept(text, whole) == written(whole))
        #expect(kept(text, other) == written(other))
        #expect(written(whole) != written(other))
    }

    @Test("the empty path, after a long one, is []")
    func emptyAfterLong() {
        let text = PathText()
        let long: [RouteStep<JSONValue>] = (0..<16).map { .push(["screen": .integer($0)]) }
        #expect(kept(text, long) == written(long))
        #expect(kept(text, []) == Array("[]".utf8))
    }

    @Test("an answer written from the kept text is the flow.send result's own text")
    func answerMatchesTheResult() {
        let text = PathText()
        let path: [RouteStep<JSONValue>] = [.push(["screen": "page"]), .sheet("share \"quoted\"")]
        var fromText: [UInt8] = []
        WrittenFlowSendResult(outcome: .changed, path: text.update(to: path)).write(to: &fromText)
        var fromResult: [UInt8] = []
        FlowSendResult(outcome: .changed, path: path).write(to: &fromResult)
        #expect(fromText == fromResult)
    }
}
