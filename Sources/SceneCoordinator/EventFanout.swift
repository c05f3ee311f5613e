import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneWire

/// Where each registry event goes in a coordinator, on the loop thread, as it is emitted:
/// to every subscribed connection whose topics and filters take it (one encoding per
/// event, written straight to each connection), to the scene process of the instance it
/// concerns, and to the state file's writer.
///
/// - Subscribers see every event after their `subscribe` answer's `seq`, in order, with no
///   gap: events are written as they are emitted, on the thread that emits them. A peer
///   that does not read is disconnected at its write-queue cap, as for any write.
/// - With a durable journal, subscribers are sent only what is on disk: each event waits
///   for the group commit that writes its line (``release(through:)``), as the answer to
///   the request that caused it does. So no subscriber ever saw an event a crash loses,
///   and the numbers a restart gives out again were never seen.
final class EventFanout {
    private var subscribers: [Session] = []
    /// Called for each event that changes what the state file holds.
    var stateChanged: (() -> Void)?
    /// Called for each flow or phase change of an instance a process backs.
    var sceneChanged: ((SequencedEvent<JSONValue>) -> Void)?
    /// Durable: events not on disk yet, held back from subscribers, in order.
    private var held: FIFOQueue<EventHistory.Entry>?
    /// The number of the last event subscribers were sent (or would have been, had their
    /// topics taken it): what a `subscribe` answers as its `seq`.
    private(set) var delivered: UInt64

    var subscriberCount: Int { subscribers.count }

    /// A fan-out that has delivered every event through `delivered`; with `holding`, the
    /// events after it that wait for the disk (a durable coordinator's restore), and every
    /// later one until ``release(through:)`` says it is on disk.
    init(delivered: UInt64, holding: [EventHistory.Entry]? = nil) {
        self.delivered = delivered
        if let holding {
            var queue = FIFOQueue<EventHistory.Entry>()
            for entry in holding { queue.append(entry) }
            held = queue
        }
    }

    func subscribe(_ session: Session) {
        guard !subscribers.contains(where: { $0 === session }) else { return }
        subscribers.append(session)
    }

    func unsubscribe(_ session: Session) {
        subscribers.removeAll { $0 === session }
    }

    /// One event, as the registry emits it.
    func publish(_ event: SequencedEvent<JSONValue>) {
        if held != nil {
            held?.append(EventHistory.Entry(live: event))
        } else {
            deliver(event)
        }
        switch event.event {
        case .flowChanged, .phaseChanged:
            sceneChanged?(event)
            stateChanged?()
        case .linkHandled, .linkRejected, .requestRejected, .signalEmitted:
            // They change no state; a durable journal's compaction still follows state
            // writes, so a durable coordinator writes for them too (coalesced as any).
            if held != nil { stateChanged?() }
        default:
            stateChanged?()
        }
    }

    /// Durable: the journal is on disk through `synced`; the events held until then go out.
    func release(through synced: UInt64) {
        while let first = held?.first, first.seq <= synced {
            _ = held?.popFirst()
            deliver(first)
        }
    }

    private func deliver(_ event: SequencedEvent<JSONValue>) {
        delivered = event.seq
        guard !subscribers.isEmpty else { return }
        let topic = WireTopic(of: event.event)
        var keys: EventKeys?  // made for the first subscriber that filters beyond topics
        var frame: [UInt8] = []  // encoded for the first subscriber that takes it
        // Iterating a copy: a write that disconnects a subscriber removes it meanwhile.
        for session in subscribers {
            guard let subscription = session.subscription, subscription.takes(topic) else { continue }
            if subscription.filters {
                if keys == nil { keys = EventKeys(event.event) }
                guard let keys, subscription.takes(keys) else { continue }
            }
            if frame.isEmpty {
                frame = WireCodec.framedRequest(id: nil, method: WireMethod.event, params: EventParams(event))
            }
            session.connection.sendFramed(frame)
        }
    }

    private func deliver(_ entry: EventHistory.Entry) {
        delivered = entry.seq
        guard !subscribers.isEmpty else { return }
        let keys = entry.keys
        var frame: [UInt8] = []
        for session in subscribers where session.subscription?.takes(keys) == true {
            if frame.isEmpty { frame = entry.frame }
            session.connection.sendFramed(frame)
        }
    }
}
