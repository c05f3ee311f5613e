import Foundation
import SceneClient
import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

/// The commands that talk to a running coordinator.
enum Control {
    static func run(_ command: String, _ arguments: Arguments) async throws -> ExitCode {
        // Check the arguments before connecting: a usage error is exit 2 even with no server.
        let request = try Request(command, arguments)
        let asJSON = arguments.flag("json")
        let socket = socketChoice(arguments)
        if command == "link", arguments.flag("start") {
            if case .failure(let problem) = await Activation.ensureCoordinator(socket: socket.path, manifest: arguments.option("manifest")) {
                if asJSON {
                    printJSONError(WireError(
                        code: -32000, message: problem.description, data: ["reason": "cannot_start", "socket": .string(socket.path)]))
                } else {
                    standardError("scenectl: \(problem)")
                }
                return .cannotConnect
            }
        }
        let connection: SceneConnection
        do {
            connection = try await SceneConnection.connect(path: socket.path, client: "scenectl/\(command)")
        } catch {
            return report(error, command: command, socket: socket, json: asJSON)
        }
        defer { connection.close() }
        do {
            try await request.perform(on: connection, json: asJSON)
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
            lines = ["\(command) refused: \(remote.reason ?? "error \(remote.code)"): \(remote.message)"]
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
}

/// One parsed control command, ready to send.
struct Request {
    let command: String
    let positionals: [String]
    let value: JSONValue?
    let from: String?
    let scene: String?
    let json: JSONValue?
    let intent: FlowIntent<JSONValue>?
    let plan: FlowPlan<JSONValue>?
    let format: String
    let filter: EventFilter
    let since: UInt64?
    let follow: Bool
    /// The socket, for `watch --follow`'s reconnects.
    let socketPath: String
    let force: Bool
    let policy: ReconcilePolicy?
    let observed: [RouteStep<JSONValue>]?

    init(_ command: String, _ arguments: Arguments) throws(UsageError) {
        self.command = command
        self.value = try arguments.option("value").map { text throws(UsageError) in try parseJSON(text, what: "--value") }
        self.from = arguments.option("from")
        self.scene = arguments.option("scene")
        self.format = arguments.option("format") ?? "tree"
        self.force = arguments.flag("force")
        self.policy = arguments.option("policy").flatMap(ReconcilePolicy.init(rawValue:))
        var json: JSONValue?
        switch command {
        case "open", "focus", "link", "status":
            positionals = try arguments.expect(command == "link" ? "URL" : command == "open" ? "SCENE" : "ID")
        case "push", "present":
            positionals = try arguments.expect("SCENE")
            guard from != nil else { throw UsageError("\(command) needs --from ID") }
        case "finish":
            positionals = try arguments.expect("ID", "RESULT-JSON")
            json = try parseJSON(positionals[1], what: "the result")
        case "program":
            positionals = try arguments.expect("FILE|-")
            json = try Self.readProgram(positionals[0])
        case "dismiss":
            if scene != nil {
                positionals = try arguments.expect()
            } else {
                positionals = try arguments.expect("ID")
                if value != nil { throw UsageError("--value goes with --scene") }
            }
        case "call", "notify":
            guard (2...3).contains(arguments.positionals.count) else {
                throw UsageError("expected ID METHOD [PARAMS-JSON], got \(arguments.positionals.count) arguments")
            }
            positionals = arguments.positionals
            if positionals.count == 3 { json = try parseJSON(positionals[2], what: "the params") }
        case "route", "send", "apply":
            positionals = try arguments.expect("ID", command == "route" ? "ROUTE-JSON" : command == "send" ? "INTENT-JSON" : "PLAN-JSON")
            json = try parseJSON(positionals[1], what: "the \(command == "route" ? "route" : command == "send" ? "intent" : "plan")")
        case "reconcile":
            positionals = try arguments.expect("ID", "OBSERVED-JSON")
            json = try parseJSON(positionals[1], what: "the observed path")
            guard policy != nil else { throw UsageError("reconcile needs --policy adopt or --policy reject") }
        case "auth":
            positionals = try arguments.expect("on|off")
            guard ["on", "off"].contains(positionals[0]) else { throw UsageError("auth takes on or off") }
        case "state":
            positionals = try arguments.expect()
            guard ["tree", "dot", "mermaid"].contains(format) else { throw UsageError("--format is tree, dot or mermaid") }
        case "describe":
            positionals = try arguments.expect("SCENE")
        case "immersive-style":
            positionals = try arguments.expect("mixed|progressive|full")
        case "restart":
            positionals = try arguments.expect("ID")
        case "session":
            positionals = arguments.positionals
            guard let action = positionals.first, ["save", "load", "list", "delete"].contains(action) else {
                throw UsageError("session takes save, load, list or delete")
            }
            guard positionals.count == (action == "list" ? 1 : 2) else {
                throw UsageError(action == "list" ? "session list takes no name" : "session \(action) needs a NAME")
            }
        case "reopen":
            guard arguments.positionals.count <= 1 else {
                throw UsageError("expected [SCENE], got \(arguments.positionals.count) arguments")
            }
            positionals = arguments.positionals
        case "emit":
            guard (2...3).contains(arguments.positionals.count) else {
                throw UsageError("expected ID SIGNAL [PAYLOAD-JSON], got \(arguments.positionals.count) arguments")
            }
            positionals = arguments.positionals
            if positionals.count == 3 { json = try parseJSON(positionals[2], what: "the payload") }
        case "watch":
            positionals = try arguments.expect()
        default:
            positionals = try arguments.expect()
        }
        self.json = json
        // The shapes are checked here, so a mis-shaped intent or plan is a usage error.
        var intent: FlowIntent<JSONValue>?
        var plan: FlowPlan<JSONValue>?
        var observed: [RouteStep<JSONValue>]?
        do {
            if command == "send" { intent = try json?.decoded(as: FlowIntent<JSONValue>.self) }
            if command == "apply" { plan = try json?.decoded(as: FlowPlan<JSONValue>.self) }
            if command == "reconcile" { observed = try json?.decoded(as: [RouteStep<JSONValue>].self) }
        } catch let error as DecodingError {
            let what = command == "send" ? "intent" : command == "apply" ? "plan" : "observed path"
            let types = command == "send" ? "; intent types: \(Self.intentTypes)" : ""
            throw UsageError("the \(what) does not fit: \(WireCodec.describe(error))\(types)")
        } catch {
            throw UsageError("\(error)")
        }
        self.intent = intent
        self.plan = plan
        self.observed = observed
        (filter, since, follow) = try Self.watching(arguments)
        socketPath = socketChoice(arguments).path
    }

    /// Every intent `type`, with its members, for a mistyped intent's message.
    static let intentTypes = """
        push {route}, pushMany {routes}, sheet {route}, cover {route}, pop {count?}, popTo {route}, popToRoot, \
        dismiss, dismissAll, reset {steps}, replaceStack {routes}, backOrPush {route}, pushUnique {route}
        """

    /// A program's steps from `path` (`-`: standard input): an array, or `{"steps": […]}`.
    private static func readProgram(_ path: String) throws(UsageError) -> JSONValue {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read \(path)") }
            data = read
        }
        let json = try parseJSON(String(decoding: data, as: UTF8.self), what: "the program")
        if case .array = json { return json }
        if case .array(let steps)? = json["steps"] { return .array(steps) }
        throw UsageError("the program must be an array of steps, or {\"steps\": [...]}")
    }

    func perform(on connection: SceneConnection, json asJSON: Bool) async throws(ClientError) {
        switch command {
        case "program":
            let result = try await connection.program(json?.arrayValue ?? [])
            if asJSON {
                printJSON(result)
            } else {
                print("completed \(result.completed) step\(result.completed == 1 ? "" : "s")")
                for (index, step) in result.results.enumerated() { print("  \(index): \(step)") }
            }
        case "present":
            let result = try await connection.present(positionals[0], value: value, from: from!)
            asJSON ? printJSON(result) : print("\(result.instance.id) finished with \(result.result)")
        case "finish":
            try await connection.finish(positionals[0], result: json ?? .null)
            asJSON ? print("{}") : print("finished \(positionals[0])")
        case "open":
            let result = try await connection.open(positionals[0], value: value)
            asJSON ? printJSON(result) : print("\(result.outcome) \(result.instance.id)")
        case "push":
            let instance = try await connection.push(positionals[0], value: value, from: from!)
            asJSON ? printJSON(instance) : print("pushed \(instance.id) in place of \(from!)")
        case "dismiss":
            let dismissed: [String]
            var vetoed: [String]?
            if let scene {
                (dismissed, vetoed) = try await connection.dismiss(scene: scene, value: value, force: force)
            } else {
                dismissed = try await connection.dismiss(instance: positionals[0], force: force)
            }
            if asJSON {
                printJSON(DismissResult(dismissed: dismissed, vetoed: vetoed))
            } else {
                print("dismissed \(dismissed.isEmpty ? "nothing" : dismissed.joined(separator: " "))"
                    + (vetoed?.isEmpty == false ? "; refused to close: \(vetoed!.joined(separator: " "))" : ""))
            }
        case "call", "notify":
            let target: CallTarget = InstanceIDText.isInstance(positionals[0]) ? .instance(positionals[0]) : .scene(positionals[0])
            let params = SceneCallParams(to: target, method: positionals[1], params: json)
            if command == "call" {
                let result = try await connection.call(WireMethod.sceneCall.rawValue, params: WireCodec.json(params))
                print(result.description)
            } else {
                _ = try await connection.call(WireMethod.sceneNotify.rawValue, params: WireCodec.json(params))
                asJSON ? print("{}") : print("delivered")
            }
        case "dismiss-immersive":
            let dismissed = try await connection.dismissImmersive()
            asJSON ? printJSON(DismissResult(dismissed: dismissed)) : print("dismissed \(dismissed.joined(separator: " "))")
        case "focus":
            let instance = try await connection.focus(positionals[0])
            asJSON ? printJSON(instance) : print("focused \(instance.id)")
        case "session":
            try await performSession(on: connection, json: asJSON)
        case "restart":
            let instance = try await connection.restart(positionals[0])
            asJSON ? printJSON(instance) : print("restarting \(instance.id); its path: \(describe(instance.path))")
        case "immersive-style":
            let instance = try await connection.setImmersiveStyle(positionals[0])
            asJSON ? printJSON(instance) : print("\(instance.id) is now \(instance.style ?? positionals[0])")
        case "reopen":
            let instance = try await connection.reopen(positionals.first)
            asJSON ? printJSON(instance) : print("reopened \(instance.id): \(describe(instance.path))")
        case "route":
            let result = try await connection.route(json!, from: positionals[0])
            asJSON ? printJSON(result) : print("\(result.outcome) in \(result.instance.id): \(describe(result.path))")
        case "send":
            let result = try await connection.send(intent!, to: positionals[0])
            asJSON ? printJSON(result) : print("\(result.outcome): \(describe(result.path))")
        case "apply":
            let path = try await connection.apply(plan!, to: positionals[0])
            asJSON ? printJSON(PathResult(path: path)) : print(describe(path))
        case "reconcile":
            let result = try await connection.reconcile(positionals[0], observed: observed!, policy: policy!)
            if asJSON {
                printJSON(result)
            } else {
                let intents = result.intents.map { ((try? JSONValue(encoding: $0)) ?? .null).description }
                print("\(result.outcome): \(describe(result.path))" + (intents.isEmpty ? "" : " by \(intents.joined(separator: ", "))"))
            }
        case "link":
            let result = try await connection.openLink(positionals[0])
            if asJSON {
                printJSON(result)
            } else if let program = result.program {
                print("handled by its program: \(program.completed) step\(program.completed == 1 ? "" : "s")")
            } else if let instance = result.instance {
                print("\(result.outcome) in \(instance.id)\(result.opened == true ? " (opened)" : ""): \(describe(instance.path))")
            } else {
                print("\(result.outcome)" + (result.superseded.map { " (supersedes \($0))" } ?? ""))
            }
        case "auth":
            let replayed = try await connection.setAuthenticated(positionals[0] == "on")
            if asJSON {
                print(JSONValue.object(["replayed": replayed]).description)
            } else if replayed.isNull {
                print(positionals[0] == "on" ? "signed in; nothing to replay" : "signed out")
            } else if let error = replayed["error"] {
                print("signed in; the pending link failed: \(WireError(json: error)?.description ?? error.description)")
            } else {
                print("signed in; replayed the pending link: \(replayed["outcome"]?.stringValue ?? "?") in \(replayed["instance"]?["id"]?.stringValue ?? "?")")
            }
        case "status":
            let status = try await connection.status(positionals[0])
            asJSON ? printJSON(status) : print(Self.describe(status))
        case "state":
            let state = try await connection.state()
            if asJSON {
                printJSON(state)
            } else {
                switch format {
                case "dot": print(state.dot)
                case "mermaid": print(state.mermaid)
                default: print(try await withProcesses(state.tree, of: state.instances.map(\.id), on: connection))
                }
            }
        case "watch":
            try await watch(on: connection, json: asJSON)
        case "ping":
            let clock = ContinuousClock()
            let start = clock.now
            try await connection.ping()
            asJSON ? print("{}") : print("pong from \(connection.hello.server) in \(clock.now - start)")
        case "shutdown":
            try await connection.shutdownCoordinator()
            asJSON ? print("{}") : print("the coordinator is shutting down")
        default:
            try await performService(on: connection, json: asJSON)
        }
    }

    func describe(_ path: [RouteStep<JSONValue>]) -> String {
        path.isEmpty ? "(root)" : path.map(\.description).joined(separator: " > ")
    }

    /// One line per event: `#seq type members…`.
    func describe(_ event: WireEvent) -> String {
        var parts = ["#\(event.seq)", event.type]
        for (key, value) in (event.params.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) where key != "seq" && key != "type" {
            if key == "instance", let object = value.objectValue, let id = object["id"]?.stringValue {
                parts.append("instance=\(id)")
            } else if key == "error", let error = WireError(json: value) {
                parts.append("reason=\(error.reason ?? "\(error.code)")")
            } else {
                parts.append("\(key)=\(value.stringValue ?? value.description)")
            }
        }
        return parts.joined(separator: " ")
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
