import Testing

@testable import SceneCoordinator

@Suite("Warnings in bursts")
struct WarningThrottleTests {
    @Test("the first warning of a burst is written at once, the rest are counted and told in one line when the second is over")
    func burst() {
        var throttle = WarningThrottle(interval: 1)
        #expect(throttle.admit("refused a connection: full", at: 10.0) == .write)
        // The first one held asks for the summary when the interval from the line is over.
        #expect(throttle.admit("refused a connection: full", at: 10.1) == .hold(summaryAt: 11.0))
        for step in 2...99 {
            #expect(throttle.admit("refused a connection: full (\(step))", at: 10.1 + Double(step) / 1000) == .hold(summaryAt: nil))
        }
        #expect(throttle.held == 99)
        #expect(throttle.summary(at: 11.0) == "refused a connection: full (99) (99 more since the last such line)")
        #expect(throttle.held == 0)
        // Nothing held: no line.
        #expect(throttle.summary(at: 11.5) == nil)
    }

    @Test("the summary line starts the next interval, and a warning after a quiet interval is written at once")
    func intervals() {
        var throttle = WarningThrottle(interval: 1)
        #expect(throttle.admit("a", at: 0) == .write)
        #expect(throttle.admit("b", at: 0.5) == .hold(summaryAt: 1.0))
        #expect(throttle.summary(at: 1.0) == "b (1 more since the last such line)")
        // Within a second of the summary: held again, its own summary a second after it.
        #expect(throttle.admit("c", at: 1.2) == .hold(summaryAt: 2.0))
        #expect(throttle.summary(at: 2.0) == "c (1 more since the last such line)")
        #expect(throttle.admit("d", at: 3.5) == .write)
    }

    @Test("a warning that comes while a count waits for its line goes into that count, so lines keep their order when the summary is late")
    func lateSummary() {
        var throttle = WarningThrottle(interval: 1)
        #expect(throttle.admit("a", at: 0) == .write)
        #expect(throttle.admit("b", at: 0.9) == .hold(summaryAt: 1.0))
        // The summary's time passed, but it has not run yet.
        #expect(throttle.admit("c", at: 1.3) == .hold(summaryAt: nil))
        #expect(throttle.summary(at: 1.4) == "c (2 more since the last such line)")
    }
}
