public import SceneCore
public import SceneFlow
import SceneSync
public import Testing

/// Exhaustive event assertions for a `SceneRegistry`, for tests.
///
/// Start one before driving the registry; then ``receive(_:timeout:sourceLocation:)``
/// each event in order, and end with ``finish(timeout:sourceLocation:)``, which records an
/// issue for every event that was not asserted. Sequence numbers are checked too: a gap
/// is an issue.
///
/// ```swift
/// let events = RegistryEventRecorder(registry)
/// try await registry.scenes.open(DemoScenes.main)
/// await events.receive(.opened(…))
/// await events.receive(.focused(InstanceID(scene: "main", number: 1)))
/// await events.finish()
/// ```
public final class RegistryEventRecorder<R: Route>: Sendable {
    private let registry: SceneRegistry<R>
    private let shared: Shared
    /// Kept for the subscription's life; it holds nothing (events are taken as emitted).
    private let subscription: EventStream<SequencedEvent<R>>

    private struct State {
        var received: [SequencedEvent<R>] = []
        var consumed = 0
        var lastSeq: UInt64
    }

    /// What the registry's emitting and the recorder share.
    private final class Shared: Sendable {
        let state = Locked(State(lastSeq: 0))
    }

    /// Starts recording every event `registry` emits from now on.
    ///
    /// - An event is recorded as the registry emits it, in the same step: once a request
    ///   has answered, the events it caused are here.
    public init(_ registry: SceneRegistry<R>) {
        self.registry = registry
        let shared = Shared()
        self.shared = shared
        // The filter is asked once about each event, as it is emitted.
        let (seq, stream) = registry.subscribe(buffering: .unbounded) { event in
            shared.state.withLock { $0.received.append(event) }
            return false
        }
        shared.state.withLock { $0.lastSeq = seq }
        self.subscription = stream
    }

    /// Takes, without waiting, every event recorded and not yet received.
    func unassertedNow() -> [SequencedEvent<R>] {
        shared.state.withLock { state in
            defer {
                state.consumed = state.received.count
                if let last = state.received.last { state.lastSeq = last.seq }
            }
            return Array(state.received[state.consumed...])
        }
    }

    /// Waits for the next event and records an issue unless it equals `expected`.
    @discardableResult
    public func receive(
        _ expected: RegistryEvent<R>, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) async -> RegistryEvent<R>? {
        let event = await next(timeout: timeout, sourceLocation: sourceLocation)
        if let event, event != expected {
            Issue.record("expected event \(expected), received \(event)", sourceLocation: sourceLocation)
        }
        return event
    }

    /// Waits for the next event and records an issue unless `matches` accepts it.
    @discardableResult
    public func receive(
        timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
        where matches: (RegistryEvent<R>) -> Bool
    ) async -> RegistryEvent<R>? {
        let event = await next(timeout: timeout, sourceLocation: sourceLocation)
        if let event, !matches(event) {
            Issue.record("unexpected event \(event)", sourceLocation: sourceLocation)
        }
        return event
    }

    /// Waits until every event the registry has emitted so far has arrived, then records
    /// an issue for each one that no `receive` asserted.
    public func finish(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async {
        for event in await unasserted(timeout: timeout, sourceLocation: sourceLocation) {
            Issue.record("event not asserted: #\(event.seq) \(event.event)", sourceLocation: sourceLocation)
        }
    }

    /// Waits until every event the registry has emitted so far has arrived, and answers
    /// those no `receive` took, taking them.
    func unasserted(timeout: Duration, sourceLocation: SourceLocation) async -> [SequencedEvent<R>] {
        let target = registry.sequence
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause = Duration.milliseconds(1)
        while shared.state.withLock({ ($0.received.last?.seq ?? $0.lastSeq) < target }) {
            guard clock.now < deadline else {
                let dump = await ThreadDump.clause(afterWaiting: timeout, for: "events up to #\(target) at \(sourceLocation)")
                Issue.record("events up to seq \(target) did not arrive within \(timeout)\(dump)", sourceLocation: sourceLocation)
                return []
            }
            guard (try? await Task.sleep(for: pause)) != nil else {
                Issue.record("the wait for events up to seq \(target) was cancelled", sourceLocation: sourceLocation)
                return []
            }
            pause = min(pause * 2, .milliseconds(20))
        }
        return shared.state.withLock { state in
            defer {
                state.consumed = state.received.count
                if let last = state.received.last { state.lastSeq = last.seq }
            }
            return Array(state.received[state.consumed...])
        }
    }

    /// The next unconsumed event, checking that its number follows the previous one.
    private func next(timeout: Duration, sourceLocation: SourceLocation) async -> RegistryEvent<R>? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause = Duration.milliseconds(1)
        while true {
            let event: SequencedEvent<R>? = shared.state.withLock { state in
                guard state.consumed < state.received.count else { return nil }
                defer { state.consumed += 1 }
                return state.received[state.consumed]
            }
            if let event {
                let expectedSeq = shared.state.withLock { state -> UInt64 in
                    defer { state.lastSeq = event.seq }
                    return state.lastSeq + 1
                }
                if event.seq != expectedSeq {
                    Issue.record("event #\(event.seq) follows #\(expectedSeq - 1): a gap", sourceLocation: sourceLocation)
                }
                return event.event
            }
            guard clock.now < deadline else {
                let dump = await ThreadDump.clause(afterWaiting: timeout, for: "an event at \(sourceLocation)")
                Issue.record("no event within \(timeout)\(dump)", sourceLocation: sourceLocation)
                return nil
            }
            guard (try? await Task.sleep(for: pause)) != nil else {
                Issue.record("the wait for an event was cancelled", sourceLocation: sourceLocation)
                return nil
            }
            pause = min(pause * 2, .milliseconds(20))
        }
    }
}
