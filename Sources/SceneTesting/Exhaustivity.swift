import Testing

/// How much a test store insists on: everything, or only what the test asserted.
///
/// - `on` (the default): every event must be received and every state change asserted;
///   anything left over is a test failure.
/// - `off`: what the test did not assert is let go. With `showSkipped`, each skipped item
///   is still reported, as a known issue that does not fail the test, so the test's log
///   says what it chose not to check.
public enum Exhaustivity: Hashable, Sendable {
    /// Everything must be asserted.
    case on
    /// Only what the test asserts is checked; `showSkipped` lists the rest as known issues.
    case off(showSkipped: Bool)

    /// Only what the test asserts is checked; the rest is let go without a word.
    public static let off = Self.off(showSkipped: false)

    /// Reports `what` as not asserted: a failure when exhaustive, a known issue when
    /// skipped items are shown, nothing otherwise.
    func report(_ what: String, sourceLocation: SourceLocation) {
        switch self {
        case .on:
            Issue.record(Comment(rawValue: what), sourceLocation: sourceLocation)
        case .off(showSkipped: true):
            withKnownIssue("skipped: not asserted with exhaustivity off", isIntermittent: true) {
                Issue.record(Comment(rawValue: what), sourceLocation: sourceLocation)
            }
        case .off(showSkipped: false):
            break
        }
    }
}

/// A readable difference between two values: their dumps, line by line, with `−` before
/// a line only the expected value has and `+` before one only the actual value has.
func difference(expected: some Any, actual: some Any) -> String {
    var expectedText = ""
    var actualText = ""
    dump(expected, to: &expectedText)
    dump(actual, to: &actualText)
    let old = expectedText.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actualText.split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for change in new.difference(from: old).sorted(by: { $0.offset < $1.offset }) {
        switch change {
        case .remove(_, let line, _): lines.append("− \(line)")
        case .insert(_, let line, _): lines.append("+ \(line)")
        }
    }
    return lines.joined(separator: "\n")
}

extension CollectionDifference.Change {
    fileprivate var offset: Int {
        switch self {
        case .remove(let offset, _, _), .insert(let offset, _, _): return offset
        }
    }
}
