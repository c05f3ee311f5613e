import SceneCore
import SceneJSON
import SceneSocket
import SceneWire

/// The subscription side of a session: `subscribe` with its filters, and the replay of the
/// events a resuming subscriber missed.
extension Session {
    /// `subscribe`: the answer's `seq` is the last event before the subscription; every
    /// later event it takes follows, in order, written as it is emitted (both happen on this
    /// thread, so nothing falls between).
    ///
    /// - With `since`, the events after it that the subscription takes are written first,
    ///   before the answer, from the history (and a durable journal); then the live ones
    ///   follow it, with no gap and no duplicate. Once the answer arrives, every event
    ///   through its `seq` has been sent: a client that loses the connection before then
    ///   resumes from the last event it got, and after it from the answer's `seq`. A `since` older than what is kept, or
    ///   newer than the last event, is `history_gone` and leaves any earlier subscription
    ///   as it was.
    func subscribe(id: JSONValue, params: JSONValue?) {
        let request: SubscribeParams
        let subscription: Subscription
        do {
            request = try WireCodec.decode(SubscribeParams.self, from: params)
            subscription = try Subscription(request)
        } catch {
            reply(id, error: error)
            return
        }
        // What subscribers have been sent so far (with a durable journal, what is on disk).
        let current = server.fanout.delivered
        var missed: [EventHistory.Entry] = []
        if let origin = request.origin, request.since != nil, origin != server.origin {
            reply(id, error: .domain(
                reason: .historyGone,
                message: "these events are numbered afresh (origin \(server.origin)), not in the line of origin \(origin)",
                data: ["oldest": .integer(Int(server.oldestKept(through: current))), "last": .integer(Int(current))]))
            return
        }
        if let since = request.since, since != current {
            switch server.replay(after: since, through: current) {
            case .events(let entries):
                missed = entries
            case .gone(let oldest):
                let message = since > current
                    ? "event \(since) was never emitted here: the last is \(current) (the coordinator started afresh?)"
                    : "events after \(since) are no longer kept: the oldest kept is \(oldest)"
                reply(id, error: .domain(
                    reason: .historyGone, message: message,
                    data: ["oldest": .integer(Int(oldest)), "last": .integer(Int(current))]))
                return
            }
        }
        for entry in missed where subscription.takes(entry.keys) {
            connection.sendFramed(entry.frame)
        }
        // A replay past the write-queue cap disconnects the peer (it resumes from what it
        // got): a closed session must not be subscribed again.
        guard !connection.isClosed else { return }
        self.subscription = subscription
        server.fanout.subscribe(self)
        reply(id, result: WireCodec.json(SubscribeResult(seq: current, origin: server.origin)))
    }

    func unsubscribe() {
        guard subscription != nil else { return }
        subscription = nil
        server.fanout.unsubscribe(self)
    }
}

extension CoordinatorServer {
    /// What a resuming subscriber missed.
    enum Replay {
        /// Every event after its `since`, in order.
        case events([EventHistory.Entry])
        /// Some are no longer kept: `oldest` is the oldest event still kept (the number
        /// after the last one when none is).
        case gone(oldest: UInt64)
    }

    /// Every event after `since` through `current`, in order, from the history and, for
    /// what the history no longer holds, a durable journal.
    func replay(after since: UInt64, through current: UInt64) -> Replay {
        let kept = history.oldest ?? current + 1
        let journal = groupCommit?.journal
        let oldest = oldestKept(through: current)
        guard since <= current else { return .gone(oldest: oldest) }
        var entries: [EventHistory.Entry] = []
        if since + 1 < kept, let journal {
            // Lines not on disk yet (held from subscribers) are not replayed: they follow live.
            for event in journal.events(after: since, before: min(kept, current + 1)) {
                guard let seq = event["seq"]?.intValue.flatMap(UInt64.init(exactly:)) else { continue }
                entries.append(EventHistory.Entry(seq: seq, recorded: event))
            }
        }
        // A durable coordinator's history also holds events not on disk yet: they follow live.
        entries += history.entries(after: since).prefix { $0.seq <= current }
        // Resumable only when nothing is missing in between (numbers a restart skipped
        // were never given to an event).
        var expected = since + 1
        func skipping() {
            if let skipped, skipped.contains(expected) { expected = skipped.upperBound + 1 }
        }
        for entry in entries {
            skipping()
            guard entry.seq == expected else { return .gone(oldest: oldest) }
            expected += 1
        }
        skipping()
        guard expected == current + 1 else { return .gone(oldest: oldest) }
        return .events(entries)
    }

    /// The number of the oldest event still kept, in the history or a durable journal; the
    /// number after `current` when none is.
    func oldestKept(through current: UInt64) -> UInt64 {
        let kept = history.oldest ?? current + 1
        return min(kept, groupCommit?.journal.oldestRecorded ?? kept)
    }
}
