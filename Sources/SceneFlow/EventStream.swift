import SceneSync

/// The events one subscriber of an ``EventBroadcaster`` has not read yet, as an
/// `AsyncSequence`.
///
/// - Events arrive in publication order; the buffering policy decides what is dropped
///   when the subscriber falls behind (``droppedCount`` counts them).
/// - The stream ends when the broadcaster finishes or the reading task is cancelled.
/// - One task iterates a stream at a time; a second task that waits on it concurrently
///   sees it end.
/// - When the stream and its iterators are gone, the subscription ends by itself.
public struct EventStream<Event: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Event
    public typealias Failure = Never

    let subscription: Subscription

    /// How many events this subscriber's buffering policy has dropped so far.
    public var droppedCount: Int { subscription.buffer.droppedCount }

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription)
    }

    /// Reads the stream one event at a time.
    ///
    /// The iterator takes every queued event at once and hands them out one by one, so a
    /// reader that keeps up costs one lock per burst rather than one per event.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription
        private var taken: [Event] = []
        private var nextIndex = 0

        init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next event, or `nil` once the stream has ended.
        public mutating func next() async -> Event? {
            if nextIndex == taken.count {
                taken = await subscription.buffer.nextBurst()
                nextIndex = 0
                if taken.isEmpty { return nil }
            }
            defer { nextIndex += 1 }
            return taken[nextIndex]
        }
    }

    /// Ties the subscriber's lifetime to the stream: when the last copy of the stream or
    /// of an iterator goes away, the broadcaster forgets the subscriber.
    final class Subscription: Sendable {
        let buffer: SubscriberBuffer<Event>
        let cancel: @Sendable () -> Void

        init(buffer: SubscriberBuffer<Event>, cancel: @escaping @Sendable () -> Void) {
            self.buffer = buffer
            self.cancel = cancel
        }

        deinit {
            buffer.finish()
            cancel()
        }
    }
}

/// One subscriber's queue of undelivered events and its waiting reader, if any.
final class SubscriberBuffer<Event: Sendable>: Sendable {
    private struct State {
        var queue = FIFOQueue<Event>()
        var waiter: UnsafeContinuation<[Event], Never>?
        var finished = false
        var dropped = 0
    }

    private enum Delivery {
        case handed(UnsafeContinuation<[Event], Never>, [Event])
        case queued
        case ended
    }

    private let buffering: EventBuffering
    private let state = Locked(State())

    init(buffering: EventBuffering) {
        self.buffering = buffering
    }

    var droppedCount: Int { state.withLock { $0.dropped } }

    /// Whether the stream can still receive events.
    var isOpen: Bool { state.withLock { !$0.finished } }

    /// Queues `events` by the buffering policy and wakes a waiting reader.
    /// Returns `false` once the subscriber has ended, so the broadcaster can forget it.
    func deliver(contentsOf events: some Collection<Event>) -> Bool {
        let delivery: Delivery = state.withLock { state in
            if state.finished { return .ended }
            for event in events {
                enqueue(event, into: &state)
            }
            if let waiter = state.waiter, !state.queue.isEmpty {
                state.waiter = nil
                return .handed(waiter, state.queue.removeAll())
            }
            return .queued
        }
        switch delivery {
        case .handed(let waiter, let events):
            waiter.resume(returning: events)
            return true
        case .queued:
            return true
        case .ended:
            return false
        }
    }

    private func enqueue(_ event: Event, into state: inout State) {
        switch buffering {
        case .unbounded:
            state.queue.append(event)
        case .newest(let limit):
            if limit <= 0 {
                state.dropped += 1
                return
            }
            if state.queue.count >= limit {
                _ = state.queue.popFirst()
                state.dropped += 1
            }
            state.queue.append(event)
        case .oldest(let limit):
            if state.queue.count >= limit {
                state.dropped += 1
            } else {
                state.queue.append(event)
            }
        }
    }

    /// Ends the stream: the reader gets what is queued, then the end.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }

    /// Every queued event, waiting for one when none is queued; empty once ended.
    func nextBurst() async -> [Event] {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<[Event], Never>) in
                let ready: [Event]? = state.withLock { state in
                    if !state.queue.isEmpty { return state.queue.removeAll() }
                    if state.finished || Task.isCancelled {
                        state.finished = true
                        return []
                    }
                    // One reader at a time: a second concurrent reader sees the stream end.
                    if state.waiter != nil { return [] }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: [])
        }
    }
}
