import SceneClient
import SceneJSON
import SceneWire

// Deep links, and signing in for the ones that need it.
extension Commands {
    static let links: [CommandSpec] = [
        control(
            "link", "open a deep link (--start: start a coordinator first when none answers)", arguments: [.required("URL")],
            options: [
                .flag("start", "when no coordinator answers, start one (detached) and then open the link"),
                .option("manifest", "FILE", "the manifest to start it with (default: the one desktop install recorded)", kind: .file),
            ]
        ) { arguments throws(UsageError) in
            let url = arguments.positionals[0]
            let manifest = arguments.option("manifest")
            var plan = ControlPlan { connection, json throws(ClientError) in
                let result = try await connection.openLink(url)
                if json {
                    printJSON(result)
                } else if let program = result.program {
                    print("handled by its program: \(program.completed) step\(program.completed == 1 ? "" : "s")")
                } else if let instance = result.instance {
                    print("\(result.outcome) in \(instance.id)\(result.opened == true ? " (opened)" : ""): \(ControlText.describe(instance.path))")
                } else {
                    print("\(result.outcome)" + (result.superseded.map { " (supersedes \($0))" } ?? ""))
                }
            }
            if arguments.flag("start") {
                plan.beforeConnecting = { socket, json in await startCoordinator(socket, manifest: manifest, json: json) }
            }
            return plan
        },
        control("auth", "sign in (replaying a pending link) or out", arguments: [.required("on|off", .choice(["on", "off"]))]) { arguments throws(UsageError) in
            guard ["on", "off"].contains(arguments.positionals[0]) else { throw UsageError("auth takes on or off") }
            let on = arguments.positionals[0] == "on"
            return ControlPlan { connection, json throws(ClientError) in
                let replayed = try await connection.setAuthenticated(on)
                if json {
                    print(JSONValue.object(["replayed": replayed]).description)
                } else if replayed.isNull {
                    print(on ? "signed in; nothing to replay" : "signed out")
                } else if let error = replayed["error"] {
                    print("signed in; the pending link failed: \(WireError(json: error)?.description ?? error.description)")
                } else {
                    print("signed in; replayed the pending link: \(replayed["outcome"]?.stringValue ?? "?") in \(replayed["instance"]?["id"]?.stringValue ?? "?")")
                }
            }
        },
    ]

    /// `link --start`: a coordinator on `socket` when none answers there; nil when one
    /// does, else the exit code, with why on standard error (or as JSON).
    private static func startCoordinator(_ socket: String, manifest: String?, json: Bool) async -> ExitCode? {
        guard case .failure(let problem) = await Activation.ensureCoordinator(socket: socket, manifest: manifest) else { return nil }
        if json {
            printJSONError(WireError(code: -32000, message: problem.description, data: ["reason": "cannot_start", "socket": .string(socket)]))
        } else {
            standardError("scenectl: \(problem)")
        }
        return .cannotConnect
    }
}
