/// Slows down a peer that keeps saying scene `hello` with bad tokens: a value the server
/// keeps per peer (uid and pid), that says how long to hold its next scene hello before
/// the token is even looked at.
///
/// - After `free` refusals within `window` seconds, each hello waits twice as long as the
///   one before, from `base`, up to `maximum` (a right token waits too, so the wait tells
///   a guesser nothing).
/// - Refusals older than `window` are forgotten, so a peer that stops is soon forgiven.
public struct HelloThrottle: Hashable, Sendable {
    /// How many refusals within ``window`` a peer may have before its hellos are held
    /// (default 3).
    public var free = 3
    /// How long a refusal is remembered, in seconds (default 60).
    public var window = 60.0
    /// The first hold once ``free`` is used up, in seconds (default 0.1).
    public var base = 0.1
    /// The longest hold, in seconds (default 5).
    public var maximum = 5.0
    /// When each recent refusal happened, in seconds on the caller's clock.
    public private(set) var refusals: [Double] = []

    /// A throttle with the default limits and no refusals.
    public init() {}

    /// How many seconds to hold a scene hello that comes at `now`.
    public mutating func hold(at now: Double) -> Double {
        refusals.removeAll { now - $0 >= window }
        let over = refusals.count - free
        guard over >= 0 else { return 0 }
        return min(maximum, base * Double(1 << min(over, 30)))
    }

    /// Records a refused hello at `now`.
    public mutating func refused(at now: Double) {
        refusals.removeAll { now - $0 >= window }
        refusals.append(now)
    }

    /// Whether nothing is remembered at `now` (the entry can be dropped).
    public func isIdle(at now: Double) -> Bool {
        refusals.allSatisfy { now - $0 >= window }
    }
}
