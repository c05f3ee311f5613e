import SceneFlow
import SceneSync

/// Numbers registry events and fans them out.
///
/// Every event is stamped with the next sequence number as it is emitted, so numbers
/// follow emission order with no gaps; a subscriber whose buffer dropped events sees the
/// gap. Events are emitted only on the registry's executor, one at a time.
final class RegistryEventLog<R: Route>: Sendable {
    private struct State {
        var seq: UInt64 = 0
        var observers: [@Sendable (SequencedEvent<R>) -> Void] = []
    }

    private let state = Locked(State())
    private let broadcaster = EventBroadcaster<SequencedEvent<R>>()

    /// Runs `body` for every event from now on, as it is emitted, on the registry's
    /// executor: in order, each once, before the request that caused it is answered.
    /// `body` must not make the registry emit (an event emitted from inside it would
    /// reach the observers after it before the one being delivered).
    func observe(_ body: @escaping @Sendable (SequencedEvent<R>) -> Void) {
        state.withLock { $0.observers.append(body) }
    }

    /// The number of the last event emitted (0 before the first).
    var seq: UInt64 { state.withLock { $0.seq } }

    /// Numbers the next event `seq + 1` (or later, when numbers past it were used).
    func continueNumbering(after seq: UInt64) {
        state.withLock { $0.seq = max($0.seq, seq) }
    }

    func emit(_ event: RegistryEvent<R>) {
        // Numbering and publishing to the streams under one lock keeps a stream that starts
        // at a number (subscribeWithSeq) exact; observers run after it, outside the lock,
        // so that what they do may subscribe (they must not emit: see `observe`).
        let (sequenced, observers) = state.withLock { state in
            state.seq += 1
            let sequenced = SequencedEvent(seq: state.seq, event: event)
            broadcaster.publish(sequenced)
            return (sequenced, state.observers)
        }
        for observer in observers { observer(sequenced) }
    }

    func subscribe(
        buffering: EventBuffering, where include: (@Sendable (SequencedEvent<R>) -> Bool)? = nil
    ) -> EventStream<SequencedEvent<R>> {
        broadcaster.subscribe(buffering: buffering, where: include)
    }

    /// Subscribes and returns the current number in one step: the stream starts with the
    /// event after it.
    func subscribeWithSeq(
        buffering: EventBuffering, where include: (@Sendable (SequencedEvent<R>) -> Bool)? = nil
    ) -> (seq: UInt64, stream: EventStream<SequencedEvent<R>>) {
        state.withLock { state in (state.seq, broadcaster.subscribe(buffering: buffering, where: include)) }
    }

    func finish() { broadcaster.finish() }
}
