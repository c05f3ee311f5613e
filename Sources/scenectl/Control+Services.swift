import Foundation
import SceneClient
import SceneJSON
import SceneWire

// `scenectl describe`, `emit` and `watch`: scenes as services, and their events.
extension Request {
    /// `watch`'s filter, `--since` and `--follow`.
    static func watching(_ arguments: Arguments) throws(UsageError) -> (EventFilter, UInt64?, Bool) {
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
        var since: UInt64?
        if let text = arguments.option("since") {
            guard let number = UInt64(text) else { throw UsageError("--since takes an event number (0 or more), not \"\(text)\"") }
            since = number
        }
        return (filter, since, arguments.flag("follow"))
    }

    /// `describe`, `emit`.
    func performService(on connection: SceneConnection, json asJSON: Bool) async throws(ClientError) {
        switch command {
        case "describe":
            let description = try await connection.describe(positionals[0])
            asJSON ? printJSON(description) : print(Self.describe(description, scene: positionals[0]))
        case "emit":
            try await connection.emit(positionals[1], payload: json, instance: positionals[0])
            asJSON ? print("{}") : print("emitted \(positionals[1]) from \(positionals[0])")
        default:
            break
        }
    }

    /// `watch`: one line per event; with `--follow`, across reconnects.
    func watch(on connection: SceneConnection, json asJSON: Bool) async throws(ClientError) {
        guard follow else {
            let (seq, events) = try await connection.subscribe(filter, since: since)
            if !asJSON { emit(since.map { "replaying after seq \($0), then watching from seq \(seq); interrupt to stop" } ?? "watching from seq \(seq); interrupt to stop") }
            for await event in events {
                emit(asJSON ? event.params.description : describe(event))
            }
            throw .connectionClosed("the coordinator closed the connection")
        }
        connection.close()
        let subscription = try await ResumingSubscription(path: socketPath, client: "scenectl/watch", filter: filter, since: since)
        if !asJSON { emit("following from seq \(subscription.lastSeq); interrupt to stop") }
        // Held until the loop ends: dropping the subscription would end its updates.
        defer { withExtendedLifetime(subscription) {} }
        for await update in subscription.updates {
            switch update {
            case .event(let event):
                emit(asJSON ? event.params.description : describe(event))
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

    /// `scenectl describe`'s text: the scene, then its methods and signals.
    static func describe(_ description: DescribeResult, scene: String) -> String {
        var head = "\(scene)  \(description.kind), \(description.instances)"
        if let max = description.max, description.instances == "multiple" { head += " (at most \(max))" }
        if description.activatable { head += ", activatable" }
        var lines = [head]
        guard case .object(let interface) = description.interface else {
            lines.append("  no interface declared: any method may be called, any signal emitted")
            return lines.joined(separator: "\n")
        }
        for (kind, key) in [("method", "methods"), ("signal", "signals")] {
            let entries = interface[key]?.objectValue ?? [:]
            for name in entries.keys.sorted() {
                let parts = (entries[name]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                lines.append("  \(kind) \(name)" + (parts.isEmpty ? "" : "  " + parts.joined(separator: "  ")))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `session save|load|list|delete`.
    func performSession(on connection: SceneConnection, json asJSON: Bool) async throws(ClientError) {
        switch positionals[0] {
        case "save":
            try await connection.saveSession(positionals[1])
            asJSON ? print("{}") : print("saved session \(positionals[1])")
        case "load":
            let opened = try await connection.loadSession(positionals[1], force: force)
            asJSON ? printJSON(SessionLoadResult(instances: opened)) : print("loaded session \(positionals[1]): \(opened.isEmpty ? "nothing" : opened.joined(separator: " "))")
        case "list":
            let names = try await connection.sessions()
            asJSON ? printJSON(SessionListResult(sessions: names)) : print(names.isEmpty ? "no sessions" : names.joined(separator: "\n"))
        default:
            try await connection.deleteSession(positionals[1])
            asJSON ? print("{}") : print("deleted session \(positionals[1])")
        }
    }
}
