/// A warning that comes in bursts, written at most once per ``interval``: the first of a
/// burst at once, the rest counted and told in one line when the interval is over.
///
/// A coordinator that is full turns away every peer that connects, and each refusal is
/// worth a warning; a client retrying in a loop, or a hundred at once, would otherwise
/// write a line each, as fast as they connect. A value the caller keeps, on its own
/// clock (seconds): ``admit(_:at:)`` for each occurrence, ``summary(at:)`` when the interval
/// it was told ends.
struct WarningThrottle {
    /// The shortest time between two lines, in seconds.
    let interval: Double
    /// When the last line was written.
    private var lastWritten: Double?
    /// Occurrences not written since it, and the message of the last of them.
    private(set) var held = 0
    private var lastHeld: String?

    init(interval: Double = 1) {
        self.interval = interval
    }

    /// What to do with one occurrence.
    enum Decision: Equatable {
        /// Write it now.
        case write
        /// It is counted; the first one held asks for ``summary(at:)`` at this time.
        case hold(summaryAt: Double?)
    }

    /// Records an occurrence, with `message`, at `now`.
    mutating func admit(_ message: String, at now: Double) -> Decision {
        // While a count is held, its line is still to come: this one goes into it too, so
        // that lines keep their order even when the summary is late.
        if let last = lastWritten, held > 0 || now - last < interval {
            held += 1
            lastHeld = message
            return .hold(summaryAt: held == 1 ? last + interval : nil)
        }
        lastWritten = now
        return .write
    }

    /// The line that tells what was held, if anything was; a new interval starts with it.
    mutating func summary(at now: Double) -> String? {
        guard held > 0, let message = lastHeld else { return nil }
        defer {
            held = 0
            lastHeld = nil
            lastWritten = now
        }
        return "\(message) (\(held) more since the last such line)"
    }
}
