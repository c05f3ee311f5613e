import SceneFlow
import SceneSync
import Testing

/// Reads up to `count` events, or fewer when the stream ends.
func collect<E: Sendable>(_ stream: EventStream<E>, count: Int) async -> [E] {
    var seen: [E] = []
    for await event in stream {
        seen.append(event)
        if seen.count == count { break }
    }
    return seen
}

/// Reads events until `stoppingAt` says so, `count` are read, or the stream ends.
func collect<E: Sendable>(_ stream: EventStream<E>, count: Int, stoppingAt: (E) -> Bool) async -> [E] {
    var seen: [E] = []
    for await event in stream {
        seen.append(event)
        if seen.count == count || stoppingAt(event) { break }
    }
    return seen
}

@Suite("Event streams")
struct EventStreamTests {
    @Test("a subscriber registered before a publication sees it, in order")
    func seesEventsInOrder() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe()
        broadcaster.publish(contentsOf: [1, 2, 3])
        broadcaster.publish(4)
        #expect(await collect(stream, count: 4) == [1, 2, 3, 4])
    }

    @Test("a subscriber registered after a publication does not see it")
    func lateSubscriber() async {
        let broadcaster = EventBroadcaster<Int>()
        broadcaster.publish(1)
        let stream = broadcaster.subscribe()
        broadcaster.publish(2)
        broadcaster.finish()
        #expect(await collect(stream, count: 10) == [2])
    }

    @Test("every subscriber gets every event")
    func fanOut() async {
        let broadcaster = EventBroadcaster<Int>()
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe(buffering: .unbounded)
        broadcaster.publish(contentsOf: Array(0..<100))
        broadcaster.finish()
        #expect(await collect(first, count: 1000) == Array(0..<100))
        #expect(await collect(second, count: 1000) == Array(0..<100))
    }

    @Test("a subscriber's filter keeps out what it does not pick, in order, and only its own stream")
    func filtered() async {
        let broadcaster = EventBroadcaster<Int>()
        let even = broadcaster.subscribe(buffering: .oldest(3)) { $0 % 2 == 0 }
        let all = broadcaster.subscribe()
        broadcaster.publish(1)
        broadcaster.publish(2)
        broadcaster.publish(contentsOf: [3, 4, 5, 6, 7, 8])
        broadcaster.finish()
        // Left-out events take no room in its buffer: 2, 4, 6 fit in three, 8 does not.
        #expect(await collect(even, count: 10) == [2, 4, 6])
        #expect(await collect(all, count: 10) == Array(1...8))
    }

    @Test("a subscriber's filter is asked once about each event, whether it picks all of a batch or some")
    func filterAskedOnce() async {
        let broadcaster = EventBroadcaster<Int>()
        let asked = Locked<[Int]>([])
        let odd = broadcaster.subscribe { event in
            asked.withLock { $0.append(event) }
            return event % 2 == 1
        }
        broadcaster.publish(contentsOf: [1, 3, 5])
        broadcaster.publish(contentsOf: [7, 8, 9, 10, 11])
        broadcaster.finish()
        #expect(asked.withLock { $0 } == [1, 3, 5, 7, 8, 9, 10, 11])
        #expect(await collect(odd, count: 10) == [1, 3, 5, 7, 9, 11])
    }

    @Test("newest(n) keeps the newest n undelivered events and counts the dropped")
    func newestPolicy() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe(buffering: .newest(3))
        broadcaster.publish(contentsOf: Array(1...10))
        broadcaster.finish()
        #expect(await collect(stream, count: 100) == [8, 9, 10])
        #expect(stream.droppedCount == 7)
    }

    @Test("oldest(n) keeps the oldest n undelivered events and counts the dropped")
    func oldestPolicy() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe(buffering: .oldest(3))
        broadcaster.publish(contentsOf: Array(1...10))
        broadcaster.finish()
        #expect(await collect(stream, count: 100) == [1, 2, 3])
        #expect(stream.droppedCount == 7)
    }

    @Test("the default buffering keeps the newest 1024 undelivered events")
    func defaultBuffering() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe()
        broadcaster.publish(contentsOf: Array(0..<1030))
        broadcaster.finish()
        let seen = await collect(stream, count: 2000)
        #expect(seen.count == 1024)
        #expect(seen.first == 6)
        #expect(stream.droppedCount == 6)
    }

    @Test("a waiting reader is woken by a publication")
    func wakesReader() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe()
        let reader = Task { await collect(stream, count: 2) }
        broadcaster.publish(1)
        broadcaster.publish(2)
        #expect(await reader.value == [1, 2])
    }

    @Test("finish ends every stream and later subscriptions start finished")
    func finishEnds() async {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe()
        let reader = Task { await collect(stream, count: 5) }
        broadcaster.finish()
        #expect(await reader.value == [])
        #expect(await collect(broadcaster.subscribe(), count: 1) == [])
    }

    @Test("cancelling the reading task ends its stream and the broadcaster forgets it")
    func cancellationEnds() async throws {
        let broadcaster = EventBroadcaster<Int>()
        let stream = broadcaster.subscribe()
        let reader = Task { await collect(stream, count: 5) }
        reader.cancel()
        #expect(await reader.value == [])
        broadcaster.publish(1)
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test("a stream nobody holds any more unsubscribes itself")
    func droppedStreamUnsubscribes() {
        let broadcaster = EventBroadcaster<Int>()
        do {
            let stream = broadcaster.subscribe()
            #expect(broadcaster.subscriberCount == 1)
            _ = stream
        }
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test("events a reader has read are not kept: at most its last burst and the one before are alive")
    func readEventsAreReleased() async {
        final class Token: Sendable {
            let alive: Locked<Int>
            init(_ alive: Locked<Int>) {
                self.alive = alive
                alive.withLock { $0 += 1 }
            }
            deinit { alive.withLock { $0 -= 1 } }
        }
        let alive = Locked(0)
        let broadcaster = EventBroadcaster<Token>()
        let stream = broadcaster.subscribe()
        var iterator = stream.makeAsyncIterator()
        for _ in 0..<100 {
            broadcaster.publish(contentsOf: [Token(alive), Token(alive)])
            #expect(await iterator.next() != nil)
            #expect(await iterator.next() != nil)
        }
        #expect(alive.withLock { $0 } <= 4)
    }
}
