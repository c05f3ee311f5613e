import SceneClient
import SceneJSON
import SceneWire

// Calls to scenes, sessions, restarts, what is open and how it does, signals and events,
// and the coordinator itself.
extension Commands {
    static let services: [CommandSpec] = [
        control(
            "call", "call a method of a scene process (ID: an instance, or a scene for its most recently focused instance)",
            arguments: [.required("ID"), .required("METHOD"), .optional("PARAMS-JSON")],
            details: """
                Calls METHOD of a scene process and prints its answer. ID is an instance (viewer-2), or a \
                scene (viewer) for its most recently focused instance.
                """
        ) { arguments throws(UsageError) in
            let params = try callParams(arguments)
            return ControlPlan { connection, _ throws(ClientError) in
                print(try await connection.call(WireMethod.sceneCall.rawValue, params: WireCodec.json(params)).description)
            }
        },
        control(
            "notify", "the same as call, as a notification: no answer",
            arguments: [.required("ID"), .required("METHOD"), .optional("PARAMS-JSON")]
        ) { arguments throws(UsageError) in
            let params = try callParams(arguments)
            return ControlPlan { connection, json throws(ClientError) in
                _ = try await connection.call(WireMethod.sceneNotify.rawValue, params: WireCodec.json(params))
                Control.done(json: json, "delivered")
            }
        },
        control(
            "session", "save, load, list or delete a named session of open instances (kept beside --state)",
            arguments: [.required("save|load|list|delete", .choice(["save", "load", "list", "delete"])), .optional("NAME")],
            options: [.flag("force", "load: close what is open without asking (no veto)")]
        ) { arguments throws(UsageError) in
            let action = arguments.positionals[0]
            guard ["save", "load", "list", "delete"].contains(action) else { throw UsageError("session takes save, load, list or delete") }
            guard arguments.positionals.count == (action == "list" ? 1 : 2) else {
                throw UsageError(action == "list" ? "session list takes no name" : "session \(action) needs a NAME")
            }
            let (name, force) = (arguments.positionals.dropFirst().first ?? "", arguments.flag("force"))
            return ControlPlan { connection, json throws(ClientError) in
                switch action {
                case "save":
                    try await connection.saveSession(name)
                    Control.done(json: json, "saved session \(name)")
                case "load":
                    let opened = try await connection.loadSession(name, force: force)
                    Control.show(
                        SessionLoadResult(instances: opened), json: json,
                        "loaded session \(name): \(opened.isEmpty ? "nothing" : opened.joined(separator: " "))")
                case "list":
                    let names = try await connection.sessions()
                    Control.show(SessionListResult(sessions: names), json: json, names.isEmpty ? "no sessions" : names.joined(separator: "\n"))
                default:
                    try await connection.deleteSession(name)
                    Control.done(json: json, "deleted session \(name)")
                }
            }
        },
        control(
            "token", "issue, list or revoke attach tokens: a process the coordinator did not start says hello as a scene with one",
            arguments: [.required("issue|list|revoke", .choice(["issue", "list", "revoke"])), .optional("SCENE|ID")],
            options: [
                .value,
                .option("ttl", "SECONDS", "issue: the token is good for this long (default: until revoked)"),
                .option("uses", "N", "issue: the token is good for N hellos (default: any number)"),
            ],
            details: """
                token issue SCENE prints the secret once (the coordinator keeps only its hash); a process \
                says hello with it as role scene (SCENE_TOKEN for a SceneProcess) and becomes an instance \
                of SCENE. token list shows the tokens still good, token revoke ID withdraws one.
                """
        ) { arguments throws(UsageError) in
            let action = arguments.positionals[0]
            guard ["issue", "list", "revoke"].contains(action) else { throw UsageError("token takes issue, list or revoke") }
            guard arguments.positionals.count == (action == "list" ? 1 : 2) else {
                throw UsageError(action == "list" ? "token list takes nothing more" : action == "issue" ? "token issue needs a SCENE" : "token revoke needs an ID")
            }
            let target = arguments.positionals.dropFirst().first ?? ""
            let value = try arguments.jsonOption("value")
            let ttl = try arguments.option("ttl").map { text throws(UsageError) -> Duration in
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw UsageError("--ttl takes a number of seconds more than 0") }
                return .milliseconds(Int64((seconds * 1000).rounded(.up)))
            }
            let uses = try arguments.option("uses").map { text throws(UsageError) -> Int in
                guard let uses = Int(text), uses >= 1 else { throw UsageError("--uses takes a whole number of at least 1") }
                return uses
            }
            return ControlPlan { connection, json throws(ClientError) in
                switch action {
                case "issue":
                    let issued = try await connection.issueToken(scene: target, value: value, ttl: ttl, uses: uses)
                    Control.show(issued, json: json, "\(issued.token)\n(\(ControlText.describe(issued.info)); shown only now)")
                case "list":
                    let tokens = try await connection.tokens()
                    Control.show(
                        TokenListResult(tokens: tokens), json: json,
                        tokens.isEmpty ? "no attach tokens" : tokens.map(ControlText.describe).joined(separator: "\n"))
                default:
                    try await connection.revokeToken(target)
                    Control.done(json: json, "revoked \(target)")
                }
            }
        },
        onInstance(
            "restart", "restart the process (or in-process behaviour) behind instance ID now; its path is kept",
            call: { connection, id throws(ClientError) in try await connection.restart(id) },
            text: { "restarting \($0.id); its path: \(ControlText.describe($0.path))" }),
        onInstance(
            "status", "how instance ID is doing: its phase and path, and its process's pid, uptime, restarts, last exit, heartbeat",
            call: { connection, id throws(ClientError) in try await connection.status(id) },
            text: { ControlText.describe($0) }),
        control(
            "state", "print the scene tree",
            options: [.option("format", "tree|dot|mermaid", "the tree (the default), or a Graphviz or Mermaid graph", kind: .choice(["tree", "dot", "mermaid"]))]
        ) { arguments throws(UsageError) in
            let format = arguments.option("format") ?? "tree"
            guard ["tree", "dot", "mermaid"].contains(format) else { throw UsageError("--format is tree, dot or mermaid") }
            return ControlPlan { connection, json throws(ClientError) in
                let state = try await connection.state()
                if json {
                    printJSON(state)
                } else {
                    switch format {
                    case "dot": print(state.dot)
                    case "mermaid": print(state.mermaid)
                    default: print(await ControlText.withProcesses(state.tree, of: state.instances.map(\.id), on: connection))
                    }
                }
            }
        },
        control(
            "describe", "what scene SCENE serves: its methods and signals, kind, instances, and whether a call opens it",
            arguments: [.required("SCENE")]
        ) { arguments throws(UsageError) in
            let scene = arguments.positionals[0]
            return ControlPlan { connection, json throws(ClientError) in
                let description = try await connection.describe(scene)
                Control.show(description, json: json, ControlText.describe(description, scene: scene))
            }
        },
        control(
            "emit", "announce signal SIGNAL from instance ID, with an optional payload",
            arguments: [.required("ID"), .required("SIGNAL"), .optional("PAYLOAD-JSON")]
        ) { arguments throws(UsageError) in
            let (id, signal) = (arguments.positionals[0], arguments.positionals[1])
            let payload = try arguments.optionalJSON(at: 2, what: "the payload")
            return ControlPlan { connection, json throws(ClientError) in
                try await connection.emit(signal, payload: payload, instance: id)
                Control.done(json: json, "emitted \(signal) from \(id)")
            }
        },
        control(
            "watch", "print one line per event until interrupted (or --count N events)",
            options: [
                .option(
                    "topics", "T,T", "only these topics, comma-separated: scene, flow, link, request, signal",
                    kind: .list(["scene", "flow", "link", "request", "signal"])),
                .option("instances", "ID,ID", "only events about these instances"),
                .option("scenes", "S,S", "only events about instances of these scenes"),
                .option("signals", "N,N", "only these signals"),
                .option("since", "SEQ", "first replay every event after SEQ that the coordinator still keeps"),
                .flag("follow", "when the coordinator goes away, connect again and resume where it left off"),
                .option("count", "N", "stop after N events, with exit 0 (a script's wait for what it expects)"),
            ],
            details: """
                Prints one line per event (with --json, the event's params). Filters combine: an event \
                passes when its topic is wanted and it matches every filter given. --since replays what \
                was missed first (exit 1 with history_gone when the coordinator no longer keeps it); \
                --follow keeps watching across coordinator restarts, without a gap or a duplicate. \
                --count N exits 0 once N events are printed.
                """
        ) { arguments throws(UsageError) in
            let watch = try Watch(arguments)
            return ControlPlan { connection, json throws(ClientError) in try await watch.run(on: connection, json: json) }
        },
        control("ping", "check that the coordinator answers") { _ throws(UsageError) in
            ControlPlan { connection, json throws(ClientError) in
                let clock = ContinuousClock()
                let start = clock.now
                try await connection.ping()
                Control.done(json: json, "pong from \(connection.hello.server) in \(clock.now - start)")
            }
        },
        control("shutdown", "stop the coordinator") { _ throws(UsageError) in
            ControlPlan { connection, json throws(ClientError) in
                try await connection.shutdownCoordinator()
                Control.done(json: json, "the coordinator is shutting down")
            }
        },
    ]

    /// `call` and `notify`'s target, method and params: an ID of the form `scene-N` is an
    /// instance, anything else a scene.
    private static func callParams(_ arguments: Arguments) throws(UsageError) -> SceneCallParams {
        let id = arguments.positionals[0]
        let target: CallTarget = InstanceIDText.isInstance(id) ? .instance(id) : .scene(id)
        return SceneCallParams(to: target, method: arguments.positionals[1], params: try arguments.optionalJSON(at: 2, what: "the params"))
    }
}
