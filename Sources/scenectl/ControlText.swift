import Foundation
import SceneClient
import SceneFlow
import SceneJSON
import SceneWire

/// How control commands print what the coordinator answered.
enum ControlText {
    /// A path as `a > b`, or `(root)`.
    static func describe(_ path: [RouteStep<JSONValue>]) -> String {
        path.isEmpty ? "(root)" : path.map(\.description).joined(separator: " > ")
    }

    /// One line per event: `#seq type members…`.
    static func describe(_ event: WireEvent) -> String {
        var parts = ["#\(event.seq)", event.type]
        for (key, value) in (event.params.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) where key != "seq" && key != "type" {
            if key == "instance", let object = value.objectValue, let id = object["id"]?.stringValue {
                parts.append("instance=\(id)")
            } else if key == "error", let error = WireError(json: value) {
                parts.append("reason=\(error.reason?.rawValue ?? "\(error.code)")")
            } else {
                parts.append("\(key)=\(value.stringValue ?? value.description)")
            }
        }
        return parts.joined(separator: " ")
    }

    /// `scenectl status`: the instance, then its process, as `systemctl status` shows a unit.
    /// An attach token, one line: `tok-1a2b3c4d notes value "a" · 2 uses left · expires 2026-12-02T10:00:00Z`.
    static func describe(_ token: TokenInfo) -> String {
        var parts = [token.id + " " + token.scene + (token.value.map { " value \($0)" } ?? "")]
        if let instance = token.instance { parts.append("re-attaches \(instance)") }
        parts.append(token.uses.map { "\($0) use\($0 == 1 ? "" : "s") left" } ?? "any number of uses")
        if let expires = token.expires {
            parts.append("expires " + ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: expires)))
        }
        return parts.joined(separator: " · ")
    }

    static func describe(_ status: StatusResult) -> String {
        let instance = status.instance
        var lines = ["\(instance.id)  \(instance.scene) (\(instance.kind))  \(instance.phase)\(instance.focused ? "  focused" : "")"]
        lines.append("  path: " + (instance.path.isEmpty ? "(root)" : instance.path.map(\.description).joined(separator: " > ")))
        if !instance.queue.isEmpty { lines.append("  queued: " + instance.queue.map(\.description).joined(separator: ", ")) }
        if let parent = instance.pushedFrom { lines.append("  pushed from \(parent)") }
        guard let process = status.process else {
            lines.append("  process: none (virtual or in process)")
            return lines.joined(separator: "\n")
        }
        let running: String
        if let pid = process.pid {
            running = "pid \(pid), up \(seconds(process.uptime))"
        } else if process.stage == "connected" {
            running = "attached with a token, up \(seconds(process.uptime))"
        } else {
            running = "not running"
        }
        lines.append("  process: \(process.stage), \(running)")
        lines.append("  command: " + (process.command.isEmpty ? "none: its processes attach with a token" : process.command.joined(separator: " ")))
        lines.append("  started: \(process.starts) time\(process.starts == 1 ? "" : "s"), \(process.restarts) restart\(process.restarts == 1 ? "" : "s")")
        if let age = process.heartbeatAge { lines.append("  last answered: \(seconds(age)) ago") }
        if let end = process.lastExit {
            let how = end.signal.map { "ended by signal \($0)" } ?? "exited with status \(end.status ?? 0)"
            lines.append("  last exit: \(how)" + (end.killed.map { " (\($0))" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ value: Double?) -> String {
        guard let value else { return "?" }
        return value < 10 ? String(format: "%.1f s", value) : "\(Int(value)) s"
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

    /// The scene tree with each process instance's row followed by its pid, uptime and
    /// restarts (one `scene.status` per instance, for the first 200).
    static func withProcesses(_ tree: String, of ids: [String], on connection: SceneConnection) async -> String {
        var notes: [String: String] = [:]
        for id in ids.prefix(200) {
            // One that closed since the state was taken has no row to mark.
            guard let process = try? await connection.status(id).process else { continue }
            let running = process.pid.map { "pid \($0)" } ?? process.stage
            notes[id] = "  [\(running), restarts \(process.restarts)]"
        }
        guard !notes.isEmpty else { return tree }
        return tree.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let words = line.split(separator: " ", maxSplits: 1)
            guard line.hasPrefix("  "), let first = words.first, let note = notes[String(first)] else { return String(line) }
            return line + note
        }.joined(separator: "\n")
    }

    /// Every intent `type`, with its members, for a mistyped intent's message.
    static let intentTypes = """
        push {route}, pushMany {routes}, sheet {route}, cover {route}, pop {count?}, popTo {route}, popToRoot, \
        dismiss, dismissAll, reset {steps}, replaceStack {routes}, backOrPush {route}, pushUnique {route}
        """
}
