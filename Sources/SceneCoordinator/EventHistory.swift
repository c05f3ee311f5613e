import SceneCore
import SceneJSON
import SceneWire

/// What a subscription filters an event by: its topic, the instance it concerns, and, for
/// `signal.emitted`, the signal.
struct EventKeys {
    var topic: WireTopic?
    var instance: InstanceID?
    var signal: String?

    init(_ event: RegistryEvent<JSONValue>) {
        topic = WireTopic(of: event)
        instance = event.instance
        if case .signalEmitted(_, let name, _) = event { signal = name }
    }

    /// The instance an event as the wire carries it concerns: its `instance` member, an id
    /// or an instance object's `id`.
    static func instance(ofWire event: JSONValue) -> InstanceID? {
        (event["instance"]?.stringValue ?? event["instance"]?["id"]?.stringValue).flatMap(InstanceID.init)
    }

    /// The keys of an event as the wire carries it (a journal line's `event`).
    init(wire event: JSONValue) {
        let type = event["type"]?.stringValue ?? ""
        topic = WireTopic(rawValue: String(type.prefix { $0 != "." }))
        instance = Self.instance(ofWire: event)
        signal = type == "signal.emitted" ? event["signal"]?.stringValue : nil
    }
}

/// One connection's subscription: the topics it takes and the filters it gave.
///
/// - An event passes when its topic is wanted and it matches every filter given: its
///   instance is among `instances`, its instance's scene among `scenes`, its signal among
///   `signals`. An event that concerns no instance (or is no signal) matches no such filter.
struct Subscription {
    var topics: Set<WireTopic>
    var instances: Set<InstanceID>?
    var scenes: Set<String>?
    var signals: Set<String>?

    /// Whether it filters beyond topics.
    var filters: Bool { instances != nil || scenes != nil || signals != nil }

    func takes(_ topic: WireTopic) -> Bool { topics.contains(topic) }

    func takes(_ keys: EventKeys) -> Bool {
        guard let topic = keys.topic, topics.contains(topic) else { return false }
        if let instances, !(keys.instance.map(instances.contains) ?? false) { return false }
        if let scenes, !(keys.instance.map { scenes.contains($0.scene) } ?? false) { return false }
        if let signals, !(keys.signal.map(signals.contains) ?? false) { return false }
        return true
    }

    /// The subscription `params` ask for; -32602 naming what does not fit.
    init(_ params: SubscribeParams) throws(WireError) {
        var topics = Set<WireTopic>()
        for name in params.topics ?? WireTopic.allCases.map(\.rawValue) {
            guard let topic = WireTopic(rawValue: name) else {
                let known = WireTopic.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidParams("topics: unknown topic \"\(name)\" (expected \(known))")
            }
            topics.insert(topic)
        }
        self.topics = topics
        if let names = params.instances {
            var ids = Set<InstanceID>()
            for name in names { ids.insert(try instanceID(name, field: "instances")) }
            instances = ids
        }
        scenes = params.scenes.map(Set.init)
        signals = params.signals.map(Set.init)
    }
}

/// The last events a coordinator emitted, for subscribers that resume where they left off
/// (`subscribe` with `since`). Lives on the loop thread.
///
/// - Keeps at most `limit` events, oldest dropped first.
/// - At start a durable coordinator seeds it with its journal's events, so a subscriber
///   resumes across a restart.
final class EventHistory {
    enum Stored {
        /// Emitted by this run.
        case live(SequencedEvent<JSONValue>)
        /// Read back from the journal: the event as the wire carries it, with its keys.
        case recorded(JSONValue, EventKeys)
    }

    struct Entry {
        let seq: UInt64
        let stored: Stored

        /// An event this run emitted. Its keys are worked out when a subscriber asks for
        /// them, not for every event kept.
        init(live event: SequencedEvent<JSONValue>) {
            seq = event.seq
            stored = .live(event)
        }

        /// An event read back from a journal (`{seq, type, …}`), numbered `seq`.
        init(seq: UInt64, recorded event: JSONValue) {
            self.seq = seq
            stored = .recorded(event, EventKeys(wire: event))
        }

        /// What subscriptions filter it by.
        var keys: EventKeys {
            switch stored {
            case .live(let event): EventKeys(event.event)
            case .recorded(_, let keys): keys
            }
        }

        /// The event's whole `event` notification frame.
        var frame: [UInt8] {
            let params: JSONValue
            switch stored {
            case .live(let event): params = WireCodec.eventParams(event)
            case .recorded(let json, _): params = json
            }
            return WireCodec.framedRequest(id: nil, method: WireMethod.event, params: params)
        }
    }

    let limit: Int
    private var ring: [Entry] = []
    /// Where the oldest entry is once the ring is full.
    private var head = 0

    init(limit: Int) {
        self.limit = max(0, limit)
        ring.reserveCapacity(min(self.limit, 1024))
    }

    func append(_ event: SequencedEvent<JSONValue>) {
        append(Entry(live: event))
    }

    /// Seeds events read back from a journal (each `{seq, type, …}`), in order.
    func seed(_ events: [JSONValue]) {
        for event in events {
            guard let seq = event["seq"]?.intValue.flatMap(UInt64.init(exactly:)) else { continue }
            if let last, seq <= last { continue }
            append(Entry(seq: seq, recorded: event))
        }
    }

    private func append(_ entry: Entry) {
        guard limit > 0 else { return }
        if ring.count < limit {
            ring.append(entry)
        } else {
            ring[head] = entry
            head = (head + 1) % limit
        }
    }

    /// The number of the oldest event kept; nil when none is.
    var oldest: UInt64? { ring.isEmpty ? nil : ring[head].seq }
    /// The number of the newest event kept.
    var last: UInt64? { ring.isEmpty ? nil : ring[(head + ring.count - 1) % ring.count].seq }

    /// The events after `seq`, in order.
    func entries(after seq: UInt64) -> [Entry] {
        guard let oldest, let last, seq < last else { return [] }
        // Numbers run without gaps within one line of runs, but a restart may skip some (the
        // state's mark can be past the journal's last line): search rather than index.
        var found: [Entry] = []
        let skip = seq >= oldest ? Int(min(UInt64(ring.count), seq - oldest)) : 0
        var index = skip
        // Step back to the first entry after `seq` (a gap leaves fewer entries than numbers).
        while index > 0, ring[(head + index - 1) % ring.count].seq > seq { index -= 1 }
        while index < ring.count {
            let entry = ring[(head + index) % ring.count]
            if entry.seq > seq { found.append(entry) }
            index += 1
        }
        return found
    }
}
