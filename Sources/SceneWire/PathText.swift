package import SceneFlow
package import SceneJSON

/// The wire's text of the path one instance last answered with, kept step by step, so that
/// the next answer writes only the steps that changed: a push writes one step and a pop
/// none, however deep the path is.
///
/// - ``update(to:)`` keeps the steps the new path shares with the last one from its start,
///   and writes the rest; the text is then exactly what `WireCodec.write(_:to:)` writes
///   for the new path, less its closing bracket.
/// - A step is shared when it is the very same value: the same bytes, its route's storage
///   shared (a path that grew from the last one holds its steps, not copies of them).
///   Equal is not enough: `1` equals `1.0` and a precomposed `é` its decomposed form, and
///   each writes its own text. Anything else is written anew, so the text is right
///   whatever path comes.
/// - It belongs to the one that serves the instance (a coordinator, on its loop), and is
///   released with the instance.
package final class PathText {
    /// The path the text is of.
    private var steps: [RouteStep<JSONValue>] = []
    /// `[`, then each step's JSON, comma-separated; no closing bracket.
    private var text: [UInt8] = [UInt8(ascii: "[")]
    /// Where each step's text ends in `text`.
    private var ends: [Int] = []

    package init() {}

    /// Brings the text to `path` and returns it (without its closing `]`).
    package func update(to path: [RouteStep<JSONValue>]) -> [UInt8] {
        var shared = 0
        let limit = min(steps.count, path.count)
        while shared < limit, Self.same(steps[shared], path[shared]) { shared += 1 }
        if shared < ends.count {
            text.removeSubrange((shared == 0 ? 1 : ends[shared - 1])...)
            ends.removeSubrange(shared...)
        }
        for index in shared..<path.count {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            WireCodec.write(path[index], to: &text)
            ends.append(text.count)
        }
        steps = path
        return text
    }

    /// Whether two steps are the very same value, and so write the same text: the same
    /// bytes, the route's storage shared. The last path's steps are held here, so storage
    /// they share cannot have been freed and reused meanwhile.
    private static func same(_ one: RouteStep<JSONValue>, _ other: RouteStep<JSONValue>) -> Bool {
        withUnsafeBytes(of: one) { one in withUnsafeBytes(of: other) { other in one.elementsEqual(other) } }
    }
}

/// A `flow.send` result whose path was written ahead (``PathText``): the same text as
/// ``FlowSendResult``'s for the same outcome and path.
package struct WrittenFlowSendResult: WireWritable {
    let outcome: OutcomeName
    /// The path's text, without its closing `]`.
    let path: [UInt8]

    package init(outcome: OutcomeName, path: [UInt8]) {
        self.outcome = outcome
        self.path = path
    }

    package var writtenSizeEstimate: Int { 32 + path.count }

    package func write(to output: inout [UInt8]) {
        var object = ObjectWriter()
        object.key("outcome", to: &output)
        JSONValue.writeQuoted(outcome.rawValue, to: &output)
        object.key("path", to: &output)
        output.append(contentsOf: path)
        output.append(UInt8(ascii: "]"))
        object.end(&output)
    }
}
