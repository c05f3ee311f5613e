import SceneSync
import Testing

/// Records what a mailbox delivered, and lets a test wait until it delivered `count`.
private actor Deliveries {
    private(set) var log: [String] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []

    func append(_ entry: String) {
        log.append(entry)
        let ready = waiters.filter { $0.count <= log.count }
        waiters.removeAll { $0.count <= log.count }
        for waiter in ready { waiter.continuation.resume(returning: log) }
    }

    func wait(for count: Int) async -> [String] {
        if log.count >= count { return log }
        return await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

@Suite("A mailbox delivers one message at a time, in order")
struct MailboxTests {
    @Test("messages posted before it opens wait, then go out in the order posted")
    func waitsForOpen() async {
        let deliveries = Deliveries()
        let mailbox = Mailbox<Int> { await deliveries.append("\($0)") }
        for number in 1...5 { mailbox.post(number) }
        #expect(await deliveries.log.isEmpty)
        mailbox.open()
        #expect(await deliveries.wait(for: 5) == ["1", "2", "3", "4", "5"])
    }

    @Test("a message is delivered only once the one before it returned, even when it suspends")
    func oneAtATime() async {
        let deliveries = Deliveries()
        let mailbox = Mailbox<Int>(opened: true) { number in
            await deliveries.append("start \(number)")
            // Suspends in the middle of a delivery: the next must not begin meanwhile.
            await Task.yield()
            await deliveries.append("end \(number)")
        }
        for number in 1...3 { mailbox.post(number) }
        #expect(await deliveries.wait(for: 6) == ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
    }

    @Test("an abandoned mailbox answers what it still held, delivers nothing more and refuses later posts")
    func abandoned() async {
        let deliveries = Deliveries()
        let mailbox = Mailbox<Int> { await deliveries.append("\($0)") }
        mailbox.post(1)
        mailbox.post(2)
        #expect(mailbox.abandon() == [1, 2])
        #expect(mailbox.post(3) == false)
        mailbox.open()
        // A sentinel mailbox on the same path shows deliveries would have happened by now.
        let sentinel = Mailbox<Int>(opened: true) { await deliveries.append("sentinel \($0)") }
        sentinel.post(0)
        #expect(await deliveries.wait(for: 1) == ["sentinel 0"])
    }
}
