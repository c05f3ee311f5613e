// Public: the inlinable publishing path uses `Locked` and `FIFOQueue`.
public import SceneSync
import Synchronization

/// How many undelivered events a subscriber keeps.
public enum EventBuffering: Hashable, Sendable {
    /// Keep every event. A subscriber that never reads grows without bound.
    case unbounded
    /// Keep the newest `n`; the oldest undelivered event is dropped to make room.
    case newest(Int)
    /// Keep the oldest `n`; newer events are dropped until the subscriber catches up.
    case oldest(Int)

    /// The default: the newest 1024 events.
    public static var `default`: EventBuffering { .newest(1024) }
}

/// Fans events out to any number of subscribers, each with its own buffer.
///
/// - A subscriber registered before an event is published sees it, unless its own
///   buffering policy dropped it.
/// - Every subscriber sees events in publication order.
/// - A subscriber whose stream is gone or whose task was cancelled is forgotten;
///   ``finish()`` ends every stream.
///
/// Publishing is inlinable: a module that publishes its own event type gets the path
/// specialized for it, with no generic metadata looked up per event.
public final class EventBroadcaster<Event: Sendable>: Sendable {
    @usableFromInline struct Subscriber: Sendable {
        @usableFromInline let id: UInt64
        @usableFromInline let buffer: SubscriberBuffer<Event>
        @usableFromInline let include: (@Sendable (Event) -> Bool)?

        init(id: UInt64, buffer: SubscriberBuffer<Event>, include: (@Sendable (Event) -> Bool)?) {
            self.id = id
            self.buffer = buffer
            self.include = include
        }
    }

    @usableFromInline struct State: Sendable {
        var nextID: UInt64 = 0
        @usableFromInline var subscribers: [Subscriber] = []
        var finished = false

        init() {}
    }

    @usableFromInline let state = Locked(State())
    /// How many subscribers are registered, readable without the lock: publishing to none
    /// costs no lock at all.
    private let registered = Atomic<Int>(0)

    /// A broadcaster with no subscribers.
    public init() {}

    /// How many subscribers are registered.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Registers a subscriber and returns its stream of the events published from now on.
    ///
    /// - `include`, when given, picks the events the subscriber wants; it runs on the
    ///   publishing thread, under the broadcaster's lock, so it must be quick, and it is
    ///   asked once about each event. Events it leaves out never reach the subscriber's
    ///   buffer, nor wake its reader.
    /// - After ``finish()``, the stream is already finished.
    public func subscribe(
        buffering: EventBuffering = .default, where include: (@Sendable (Event) -> Bool)? = nil
    ) -> EventStream<Event> {
        let buffer = SubscriberBuffer<Event>(buffering: buffering)
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            defer { state.nextID += 1 }
            state.subscribers.append(Subscriber(id: state.nextID, buffer: buffer, include: include))
            registered.store(state.subscribers.count, ordering: .releasing)
            return state.nextID
        }
        if id == nil { buffer.finish() }
        let subscription = EventStream<Event>.Subscription(buffer: buffer) { [weak self] in
            guard let self, let id else { return }
            self.state.withLock { state in
                state.subscribers.removeAll { $0.id == id }
                self.registered.store(state.subscribers.count, ordering: .releasing)
            }
        }
        return EventStream(subscription: subscription)
    }

    /// Delivers `event` to every subscriber.
    @inlinable
    public func publish(_ event: Event) {
        publish(contentsOf: CollectionOfOne(event))
    }

    /// Delivers each of `events`, in order, to every subscriber.
    @inlinable
    public func publish(contentsOf events: some Collection<Event>) {
        // A subscriber registering meanwhile starts after these events either way.
        guard hasSubscribers else { return }
        let ended = state.withLock { state in
            var ended = false
            for subscriber in state.subscribers {
                let delivered: Bool
                if let include = subscriber.include {
                    // Each event is asked about once; all of them wanted is delivered as is.
                    if let first = events.firstIndex(where: { !include($0) }) {
                        let wanted = Array(events[..<first]) + events[events.index(after: first)...].filter(include)
                        delivered = wanted.isEmpty ? subscriber.buffer.isOpen : subscriber.buffer.deliver(contentsOf: wanted)
                    } else {
                        delivered = subscriber.buffer.deliver(contentsOf: events)
                    }
                } else {
                    delivered = subscriber.buffer.deliver(contentsOf: events)
                }
                if !delivered { ended = true }
            }
            return ended
        }
        if ended { forgetEnded() }
    }

    /// Whether any subscriber is registered, without taking the lock.
    @usableFromInline var hasSubscribers: Bool { registered.load(ordering: .acquiring) > 0 }

    /// Forgets the subscribers whose streams have ended.
    @usableFromInline func forgetEnded() {
        state.withLock { state in
            state.subscribers.removeAll { !$0.buffer.isOpen }
            registered.store(state.subscribers.count, ordering: .releasing)
        }
    }

    /// Ends every stream; later subscribers get a finished stream.
    public func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            registered.store(0, ordering: .releasing)
            defer { state.subscribers.removeAll() }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.buffer.finish() }
    }
}
