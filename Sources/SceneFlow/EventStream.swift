public import SceneSync

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
    /// reader that keeps up costs one lock per burst rather than one per event; the array
    /// it took them in goes back to the buffer for the next burst.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let subscription: Subscription
        @usableFromInline var taken: [Event] = []
        @usableFromInline var nextIndex = 0

        init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next event, or `nil` once the stream has ended.
        @inlinable public mutating func next() async -> Event? {
            if nextIndex == taken.count {
                nextIndex = 0
                guard await subscription.buffer.refill(&taken) else { return nil }
            }
            defer { nextIndex += 1 }
            return taken[nextIndex]
        }
    }

    /// Ties the subscriber's lifetime to the stream: when the last copy of the stream or
    /// of an iterator goes away, the broadcaster forgets the subscriber.
    @usableFromInline final class Subscription: Sendable {
        @usableFromInline let buffer: SubscriberBuffer<Event>
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
///
/// The reader takes every queued event at once, in the queue's own array; the next time,
/// it hands that array back with the events it has read, and the publishing thread
/// releases them when it next delivers. Memory is then freed on the thread that
/// allocated it: a reader freeing a producer's arrays takes the allocator's lock of the
/// producer's arena, and the two threads wait on each other in the kernel (a one-
/// subscriber flow-bench ran 1.2 million intents/s so, 1.8 million/s with the hand-back).
/// What a subscriber has read is kept until the next delivery or until the buffer goes.
@usableFromInline
final class SubscriberBuffer<Event: Sendable>: Sendable {
    @usableFromInline struct State: Sendable {
        @usableFromInline var queue = FIFOQueue<Event>()
        /// Events the reader has read, handed back for the publishing thread to release.
        @usableFromInline var spent: [[Event]] = []
        @usableFromInline var waiter: UnsafeContinuation<Bool, Never>?
        @usableFromInline var finished = false
        @usableFromInline var dropped = 0

        init() {}
    }

    @usableFromInline enum Take {
        case taken
        case empty
        case ended
    }

    @usableFromInline let buffering: EventBuffering
    @usableFromInline let state = Locked(State())

    init(buffering: EventBuffering) {
        self.buffering = buffering
    }

    var droppedCount: Int { state.withLock { $0.dropped } }

    /// Whether the stream can still receive events.
    @usableFromInline var isOpen: Bool { state.withLock { !$0.finished } }

    /// Queues `events` by the buffering policy and wakes a parked reader.
    /// Returns `false` once the subscriber has ended, so the broadcaster can forget it.
    @inlinable func deliver(contentsOf events: some Collection<Event>) -> Bool {
        var released: [[Event]] = []
        let (open, waiter): (Bool, UnsafeContinuation<Bool, Never>?) = state.withLock { state in
            if !state.spent.isEmpty { swap(&released, &state.spent) }
            if state.finished { return (false, nil) }
            for event in events {
                enqueue(event, into: &state)
            }
            guard !state.queue.isEmpty, let waiter = state.waiter else { return (true, nil) }
            state.waiter = nil
            return (true, waiter)
        }
        waiter?.resume(returning: true)
        return open
    }

    @inlinable func enqueue(_ event: Event, into state: inout State) {
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
        waiter?.resume(returning: true)
    }

    /// Replaces `burst` with every queued event, waiting for one when none is queued.
    /// Returns `false` once the stream has ended and nothing is left.
    @inlinable func refill(_ burst: inout [Event]) async -> Bool {
        while true {
            switch take(into: &burst) {
            case .taken: return true
            case .ended: return false
            case .empty: break
            }
            guard await park() else { return false }
        }
    }

    @inlinable func take(into burst: inout [Event]) -> Take {
        state.withLock { state in
            if !burst.isEmpty {
                state.spent.append(burst)
                burst = []
            }
            if !state.queue.isEmpty {
                state.queue.moveAll(into: &burst)
                return .taken
            }
            if state.finished || Task.isCancelled {
                state.finished = true
                return .ended
            }
            return .empty
        }
    }

    /// Waits until an event is queued or the stream ends; `false` when a second reader
    /// is already waiting (it sees the stream end).
    @usableFromInline func park() async -> Bool {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                let ready: Bool? = state.withLock { state in
                    if !state.queue.isEmpty || state.finished || Task.isCancelled { return true }
                    // One reader at a time: a second concurrent reader sees the stream end.
                    if state.waiter != nil { return false }
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
            waiter?.resume(returning: true)
        }
    }
}
