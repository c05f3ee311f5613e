import Foundation
import SceneClient
import SceneJSON
import SceneWire

/// What a control command does once its arguments have parsed: its request on a
/// connection to the coordinator, and, rarely, something first.
struct ControlPlan: Sendable {
    /// Runs before connecting (`link --start` starts a coordinator); an exit code it
    /// answers ends the command there.
    var beforeConnecting: (@Sendable (_ socket: String, _ json: Bool) async -> ExitCode?)?
    /// Sends the request and prints the answer, as text or, with `--json`, as JSON.
    let perform: @Sendable (_ connection: SceneConnection, _ json: Bool) async throws(ClientError) -> Void

    init(
        beforeConnecting: (@Sendable (_ socket: String, _ json: Bool) async -> ExitCode?)? = nil,
        _ perform: @escaping @Sendable (_ connection: SceneConnection, _ json: Bool) async throws(ClientError) -> Void
    ) {
        self.beforeConnecting = beforeConnecting
        self.perform = perform
    }
}

/// Reads a control command's arguments into its plan; a mistake is a usage error (exit 2),
/// found before any connection.
typealias ControlPrepare = @Sendable (Arguments) throws(UsageError) -> ControlPlan

/// Runs the commands that talk to a running coordinator.
enum Control {
    static func run(_ command: String, _ arguments: Arguments, _ prepare: ControlPrepare) async throws -> ExitCode {
        // The arguments are checked before connecting: a usage error is exit 2 even with no server.
        let plan = try prepare(arguments)
        let asJSON = arguments.flag("json")
        let socket = socketChoice(arguments)
        if let first = plan.beforeConnecting, let code = await first(socket.path, asJSON) { return code }
        let connection: SceneConnection
        do {
            connection = try await SceneConnection.connect(path: socket.path, client: "scenectl/\(command)")
        } catch {
            return report(error, command: command, socket: socket, json: asJSON)
        }
        defer { connection.close() }
        do {
            try await plan.perform(connection, asJSON)
            return .success
        } catch {
            return report(error, command: command, socket: socket, json: asJSON)
        }
    }

    /// Prints why `command` failed — as text on standard error, or with `--json` as
    /// `{"error": {code, message, data}}` on standard output — and answers the exit code:
    /// 3 when the coordinator cannot be reached, 2 for params or a method it refuses
    /// (-32602, -32601), 1 for any other refusal.
    static func report(
        _ error: ClientError, command: String, socket: (path: String, rule: String, serve: String), json: Bool
    ) -> ExitCode {
        let code: ExitCode
        let wire: WireError
        var lines: [String]
        switch error {
        case .remote(let remote):
            wire = remote
            code = remote.code == -32602 || remote.code == -32601 ? .usage : .failure
            lines = ["\(command) refused: \(remote.reason?.rawValue ?? "error \(remote.code)"): \(remote.message)"]
            for (key, value) in remote.data.sorted(by: { $0.key < $1.key }) where key != "reason" {
                lines.append("  \(key): \(value.stringValue ?? value.description)")
            }
        case .cannotConnect(let path, let detail):
            code = .cannotConnect
            wire = WireError(code: -32000, message: "cannot connect to \(path): \(detail)", data: [
                "reason": "cannot_connect", "socket": .string(path), "rule": .string(socket.rule),
            ])
            lines = [
                "cannot connect to \(path) (\(socket.rule)): \(detail)",
                "Is a coordinator serving there? Start one with: \(socket.serve)",
            ]
        default:
            code = .failure
            wire = WireError(code: -32000, message: "\(error)", data: ["reason": "client_error"])
            lines = ["\(error)"]
        }
        if json {
            printJSONError(wire)
        } else {
            standardError("scenectl: " + lines.joined(separator: "\n"))
        }
        return code
    }

    /// Prints `value` as JSON with `--json`, else `text`.
    static func show(_ value: some Encodable, json: Bool, _ text: @autoclosure () -> String) {
        json ? printJSON(value) : print(text())
    }

    /// Prints `{}` with `--json`, else `text`: for an answer with nothing in it.
    static func done(json: Bool, _ text: @autoclosure () -> String) {
        json ? print("{}") : print(text())
    }
}

extension Arguments {
    /// Option `name` parsed as JSON, when given.
    func jsonOption(_ name: String) throws(UsageError) -> JSONValue? {
        try option(name).map { text throws(UsageError) in try parseJSON(text, what: "--\(name)") }
    }

    /// Positional `index` parsed as JSON (`what` names it in a mistake).
    func json(at index: Int, what: String) throws(UsageError) -> JSONValue {
        try parseJSON(positionals[index], what: what)
    }

    /// Positional `index` parsed as JSON when it is there.
    func optionalJSON(at index: Int, what: String) throws(UsageError) -> JSONValue? {
        index < positionals.count ? try json(at: index, what: what) : nil
    }

    /// Positional `index` parsed as JSON and decoded as `type`: a shape that does not fit is
    /// a usage error saying why (`hint` is added to it).
    func decoded<T: Decodable>(_ type: T.Type, at index: Int, what: String, hint: String = "") throws(UsageError) -> T {
        let json = try json(at: index, what: "the \(what)")
        do {
            return try json.decoded(as: type)
        } catch let error as DecodingError {
            throw UsageError("the \(what) does not fit: \(WireCodec.describe(error))\(hint)")
        } catch {
            throw UsageError("\(error)")
        }
    }
}

/// Whether a command-line ID names an instance (`viewer-2`) rather than a scene.
enum InstanceIDText {
    static func isInstance(_ text: String) -> Bool {
        guard let dash = text.lastIndex(of: "-") else { return false }
        let number = text[text.index(after: dash)...]
        return !number.isEmpty && number.allSatisfy(\.isASCII) && Int(number).map { $0 >= 1 } == true && dash != text.startIndex
    }
}
