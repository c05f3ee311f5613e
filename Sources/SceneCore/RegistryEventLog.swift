import SceneFlow
import SceneSync

/// Numbers registry events and fans them out.
///
/// Every event is stamped with the next sequence number as it is emitted, so numbers
/// follow emission order with no gaps; a subscriber whose buffer dropped events sees the
/// gap.
final class RegistryEventLog<R: Route>: Sendable {
    private let lastSeq = Locked<UInt64>(0)
    private let broadcaster = EventBroadcaster<SequencedEvent<R>>()
    private let observer = Locked<(@Sendable (SequencedEvent<R>) -> Void)?>(nil)

    /// Runs `body` for every event from now on, as it is emitted, under the numbering
    /// lock: in order, and before any later event exists.
    func observe(_ body: @escaping @Sendable (SequencedEvent<R>) -> Void) {
        observer.withLock { $0 = body }
    }

    /// The number of the last event emitted (0 before the first).
    var seq: UInt64 { lastSeq.withLock { $0 } }

    func emit(_ event: RegistryEvent<R>) {
        // Numbering and publishing under one lock keeps subscribers' order equal to seq order.
        lastSeq.withLock { seq in
            seq += 1
            let sequenced = SequencedEvent(seq: seq, event: event)
            observer.withLock { $0 }?(sequenced)
            broadcaster.publish(sequenced)
        }
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
        lastSeq.withLock { seq in (seq, broadcaster.subscribe(buffering: buffering, where: include)) }
    }

    func finish() { broadcaster.finish() }
}
