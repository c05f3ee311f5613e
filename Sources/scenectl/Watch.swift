import SceneClient
import SceneJSON
import SceneWire

/// `scenectl watch`: one line per event; with `--follow`, across reconnects.
struct Watch: Sendable {
    let filter: EventFilter
    let since: UInt64?
    let follow: Bool
    /// Events to print before stopping (`--count`), or nil to watch until interrupted.
    let count: Int?
    /// The socket, for `--follow`'s reconnects.
    let socket: String

    /// The filter, `--since` and `--follow` from `arguments`.
    init(_ arguments: Arguments) throws(UsageError) {
        func list(_ name: String) -> [String]? {
            arguments.option(name).map { $0.split(separator: ",").map(String.init) }
        }
        var filter = EventFilter(instances: list("instances"), scenes: list("scenes"), signals: list("signals"))
        if let names = list("topics") {
            var topics: [WireTopic] = []
            for name in names {
                guard let topic = WireTopic(rawValue: name) else {
                    throw UsageError("unknown topic \"\(name)\" (expected \(WireTopic.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                topics.append(topic)
            }
            filter.topics = topics
        }
        if let text = arguments.option("since") {
            guard let number = UInt64(text) else { throw UsageError("--since takes an event number (0 or more), not \"\(text)\"") }
            since = number
        } else {
            since = nil
        }
        self.filter = filter
        follow = arguments.flag("follow")
        if let text = arguments.option("count") {
            guard let number = Int(text), number > 0 else { throw UsageError("--count takes a number of events (1 or more), not \"\(text)\"") }
            count = number
        } else {
            count = nil
        }
        socket = socketChoice(arguments).path
    }

    /// How the watch ends, as its first line says.
    private var stopping: String { count.map { "stops after \($0) event\($0 == 1 ? "" : "s")" } ?? "interrupt to stop" }

    func run(on connection: SceneConnection, json asJSON: Bool) async throws(ClientError) {
        var printed = 0
        /// Prints `event`; true once `--count` events are printed.
        func print(_ event: WireEvent) -> Bool {
            emit(asJSON ? event.params.description : ControlText.describe(event))
            printed += 1
            return printed == count
        }
        guard follow else {
            let (seq, events) = try await connection.subscribe(filter, since: since)
            if !asJSON {
                emit(since.map { "replaying after seq \($0), then watching from seq \(seq); \(stopping)" } ?? "watching from seq \(seq); \(stopping)")
            }
            for await event in events where print(event) { return }
            throw .connectionClosed("the coordinator closed the connection")
        }
        connection.close()
        let subscription = try await ResumingSubscription(path: socket, client: "scenectl/watch", filter: filter, since: since)
        if !asJSON { emit("following from seq \(subscription.lastSeq); \(stopping)") }
        // Held until the loop ends: dropping the subscription would end its updates.
        defer { withExtendedLifetime(subscription) {} }
        for await update in subscription.updates {
            switch update {
            case .event(let event):
                if print(event) { return }
            case .resumed(let seq):
                if !asJSON { emit("(reconnected; resumed after seq \(seq))") }
            case .historyGone(let seen, let oldest):
                if asJSON {
                    emit(JSONValue.object(["type": "watch.gap", "lastSeen": .integer(Int(seen)), "oldest": .integer(Int(oldest))]).description)
                } else {
                    emit("(reconnected, but events after seq \(seen) are gone: the oldest kept is \(oldest); some were missed)")
                }
            }
        }
    }
}
