/// Every scenectl command, in the order the usage lists them: the one place a command,
/// its arguments, options and help are declared.
enum Commands {
    static let all: [CommandSpec] = [
        CommandSpec(
            "demo", "a scripted tour: a coordinator, scene processes, every rule",
            options: [.flag("verbose", "print the whole scene tree after each step, not only what changed")],
            details: """
                Starts a coordinator on a temporary socket with the demo app, whose scenes are processes \
                (this executable's `scene` command), walks a scripted tour printing what each step changed \
                in the scene tree (+ a line that appeared, - one that went), and cleans up.
                """,
            run: { await Demo.run($0) }),
        CommandSpec(
            "serve", "serve a registry (the demo app, with scene processes, without a manifest); keep and restore its state in FILE",
            options: [
                .option("manifest", "FILE", "the manifest to serve (default: the demo app)", kind: .file),
                .option("state", "FILE", "keep the state in FILE and restore it from there at start", kind: .file),
                .flag("durable", "also journal every change, on disk before it is acknowledged", requires: "state"),
                .flag("discard-state", "start afresh when the state file cannot be used", requires: "state"),
                .option("launch-timeout", "S", "seconds a scene process has to say hello (default 10)"),
                .option("heartbeat", "S", "seconds between pings of every scene process (default 5)"),
                .option("history", "N", "events kept in memory for subscribers that resume with since (default 10000)"),
                .option("reopenable", "N", "dismissed instances kept for reopen (default 20)"),
                .option("socket", "PATH", "the socket to serve on (default: the app's default socket)", kind: .file, shared: true),
                .option(
                    "app", "NAME", "the app whose default socket to serve on (default: the manifest's app)", shared: true),
            ],
            details: """
                Serves the manifest's registry on the socket until SIGINT, SIGTERM or `scenectl shutdown`, \
                then closes every scene process and exits 0. Without --manifest it serves the demo app, \
                each scene a `scenectl scene` process.
                --state FILE keeps the state there (written within a second of a change, and at the end) \
                and restores it at start; a corrupt file stops the start unless --discard-state.
                --durable also journals every change, on disk before it is acknowledged: a crash loses \
                nothing acknowledged (without it, what changed after the last state write).
                """,
            run: { await Serve.run($0) }),
        CommandSpec(
            "scene", "a ready-made scene process (a coordinator spawns it)",
            options: [
                .option("title", "TEXT", "the answer to title (default: $SCENE_INSTANCE)"),
                .flag("unsaved", "start with unsaved edits, so an interactive close is vetoed"),
                .flag("quiet", "do not log the path to standard error"),
            ],
            details: """
                A scene process: a coordinator starts it with SCENE_SOCKET, SCENE_INSTANCE and SCENE_TOKEN. \
                Answers title, echo, edit, save, path and relay {to, method, params}; vetoes an interactive \
                close while it has unsaved edits (--unsaved, or after edit); logs its path to standard \
                error unless --quiet; exits when its connection closes.
                """,
            run: { await SceneCommand.run($0) }),
        CommandSpec(
            "check", "validate a manifest; print every problem with its JSON path",
            arguments: [.required("MANIFEST", .file)],
            details: "Validates a manifest: prints every problem with its JSON path; exits 1 if there is any.",
            run: { try Check.run($0) }),
        control(
            "open", "open a scene by its instance policy", arguments: [.required("SCENE")],
            options: [.value]),
        control(
            "push", "open SCENE in place of window ID", arguments: [.required("SCENE")],
            options: [.option("from", "ID", "the window whose place SCENE takes", required: true), .value]),
        control(
            "dismiss", "dismiss an instance, or a scene's instances; scene processes are asked first and may refuse, unless --force",
            arguments: [.optional("ID")],
            options: [
                .option("scene", "SCENE", "dismiss the scene's instances instead of instance ID"),
                .option("value", "JSON", "only the scene's instance with this value (with --scene)"),
                .flag("force", "close without asking the scene processes, which may refuse"),
            ],
            forms: ["ID [--force]", "--scene SCENE [--value JSON] [--force]"]),
        control("dismiss-immersive", "dismiss the open immersive space"),
        control("focus", "focus a window or volume", arguments: [.required("ID")]),
        control(
            "reopen", "reopen the most recently dismissed instance (of SCENE), with its value and path",
            arguments: [.optional("SCENE")]),
        control(
            "immersive-style", "change the open immersive space's style to one its scene declares",
            arguments: [.required("mixed|progressive|full", .choice(["mixed", "progressive", "full"]))]),
        control("route", "ask instance ID to show a route", arguments: [.required("ID"), .required("ROUTE-JSON")]),
        control(
            "send", #"send a flow intent, e.g. '{"type":"push","route":"a"}'"#,
            arguments: [.required("ID"), .required("INTENT-JSON")]),
        control(
            "apply", #"reset a path to a plan, e.g. '[{"type":"push","route":"a"}]'"#,
            arguments: [.required("ID"), .required("PLAN-JSON")]),
        control(
            "reconcile", "adopt or refuse the path a UI toolkit shows for instance ID",
            arguments: [.required("ID"), .required("OBSERVED-JSON")],
            options: [
                .option(
                    "policy", "adopt|reject", "adopt the observed path, or refuse it when it differs",
                    kind: .choice(["adopt", "reject"]), required: true),
            ],
            details: """
                OBSERVED-JSON is the path the toolkit shows, e.g. '[{"type":"push","route":"a"}]'. adopt \
                turns the difference into the fewest intents and applies them as one change, printing \
                them; reject refuses a different path (path_mismatch).
                """),
        control(
            "program", "run several steps as one request, from FILE or standard input (-)",
            arguments: [.required("FILE|-", .file)],
            details: """
                FILE holds the steps as JSON: an array of {"method", "params"}, or {"steps": [...]}. Each \
                method is scene.open, scene.push, scene.focus, scene.dismiss, immersive.dismiss, \
                scene.route, flow.send, flow.apply or link.open; "$k" in a member naming an instance \
                names the instance of step k's result. The first step that fails ends the program \
                (exit 1, naming the step); the steps before it stay applied.
                """),
        control(
            "present", "open SCENE from instance ID and wait until it finishes; print its result",
            arguments: [.required("SCENE")],
            options: [.option("from", "ID", "the instance it is presented from", required: true), .value]),
        control(
            "finish", "end presented instance ID with a result; whoever presented it gets it",
            arguments: [.required("ID"), .required("RESULT-JSON")]),
        control(
            "link", "open a deep link (--start: start a coordinator first when none answers)", arguments: [.required("URL")],
            options: [
                .flag("start", "when no coordinator answers, start one (detached) and then open the link"),
                .option("manifest", "FILE", "the manifest to start it with (default: the one desktop install recorded)", kind: .file),
            ]),
        control("auth", "sign in (replaying a pending link) or out", arguments: [.required("on|off", .choice(["on", "off"]))]),
        control(
            "call", "call a method of a scene process (ID: an instance, or a scene for its most recently focused instance)",
            arguments: [.required("ID"), .required("METHOD"), .optional("PARAMS-JSON")],
            details: """
                Calls METHOD of a scene process and prints its answer. ID is an instance (viewer-2), or a \
                scene (viewer) for its most recently focused instance.
                """),
        control(
            "notify", "the same as call, as a notification: no answer",
            arguments: [.required("ID"), .required("METHOD"), .optional("PARAMS-JSON")]),
        control(
            "session", "save, load, list or delete a named session of open instances (kept beside --state)",
            arguments: [.required("save|load|list|delete", .choice(["save", "load", "list", "delete"])), .optional("NAME")],
            options: [.flag("force", "load: close what is open without asking (no veto)")]),
        control(
            "restart", "restart the process (or in-process behaviour) behind instance ID now; its path is kept",
            arguments: [.required("ID")]),
        control(
            "status", "how instance ID is doing: its phase and path, and its process's pid, uptime, restarts, last exit, heartbeat",
            arguments: [.required("ID")]),
        control(
            "state", "print the scene tree",
            options: [.option("format", "tree|dot|mermaid", "the tree (the default), or a Graphviz or Mermaid graph", kind: .choice(["tree", "dot", "mermaid"]))]),
        control(
            "describe", "what scene SCENE serves: its methods and signals, kind, instances, and whether a call opens it",
            arguments: [.required("SCENE")]),
        control(
            "emit", "announce signal SIGNAL from instance ID, with an optional payload",
            arguments: [.required("ID"), .required("SIGNAL"), .optional("PAYLOAD-JSON")]),
        control(
            "watch", "print one line per event until interrupted",
            options: [
                .option(
                    "topics", "T,T", "only these topics, comma-separated: scene, flow, link, request, signal",
                    kind: .list(["scene", "flow", "link", "request", "signal"])),
                .option("instances", "ID,ID", "only events about these instances"),
                .option("scenes", "S,S", "only events about instances of these scenes"),
                .option("signals", "N,N", "only these signals"),
                .option("since", "SEQ", "first replay every event after SEQ that the coordinator still keeps"),
                .flag("follow", "when the coordinator goes away, connect again and resume where it left off"),
            ],
            details: """
                Prints one line per event (with --json, the event's params). Filters combine: an event \
                passes when its topic is wanted and it matches every filter given. --since replays what \
                was missed first (exit 1 with history_gone when the coordinator no longer keeps it); \
                --follow keeps watching across coordinator restarts, without a gap or a duplicate.
                """),
        control("ping", "check that the coordinator answers"),
        control("shutdown", "stop the coordinator"),
        CommandSpec(
            "desktop", "register scenectl with the desktop as the handler of a manifest's custom link schemes",
            arguments: [.required("install|uninstall|status", .choice(["install", "uninstall", "status"]))],
            options: [
                .option("manifest", "FILE", "the manifest whose custom schemes to register (install)", kind: .file),
                .option("socket", "PATH", "the socket the links go to (default: the manifest's app's default socket)", kind: .file),
            ],
            details: """
                install writes a .desktop entry per custom scheme of the manifest's links.origins \
                (MimeType=x-scheme-handler/SCHEME;, NoDisplay=true, Exec= this scenectl's link --start --socket … %u) \
                in $XDG_DATA_HOME/applications, and makes it the scheme's default handler in \
                $XDG_CONFIG_HOME/mimeapps.list (through xdg-mime when it is installed). xdg-open of such a link \
                then opens it in the coordinator, starting one on the socket when none answers. uninstall removes \
                exactly what install added; status shows it.
                """,
            run: { try await Desktop.run($0) }),
        CommandSpec(
            "completions", "print a completion script for bash, zsh or fish",
            arguments: [.required("SHELL", .choice(Completions.shells))],
            details: """
                Prints a shell completion script made from scenectl's own list of commands: commands, \
                then each command's options and their values.
                bash: `source <(scenectl completions bash)` in ~/.bashrc. zsh: save it as _scenectl in a \
                folder of $fpath. fish: save it as ~/.config/fish/completions/scenectl.fish.
                """,
            run: { try Completions.run($0) }),
    ]

    /// The command called `name`.
    static func named(_ name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }

    /// A command that talks to a running coordinator: it takes the socket, the app and
    /// `--json` besides its own options, and ``Control`` runs it.
    private static func control(
        _ name: String, _ summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        forms: [String]? = nil, details: String? = nil
    ) -> CommandSpec {
        CommandSpec(
            name, summary, arguments: arguments, options: options + [.socket, .app, .json], forms: forms, details: details,
            run: { try await Control.run(name, $0) })
    }

    /// What the list of commands begins with.
    static let overview = """
        scenectl: serve, control and inspect a scene coordinator

        usage: scenectl COMMAND [ARGUMENTS] [--socket PATH] [--app NAME]
        """

    /// What the list of commands ends with.
    static let notes = """
        The socket is --socket PATH, else $SCENE_SOCKET, else
        $XDG_RUNTIME_DIR/scenectl/APP.sock or /tmp/scenectl-UID/APP.sock (APP: --app, default demo).
        --socket, --app, --json and -h/--help may come before the command or after it (for the
        commands that take them).
        --json prints a control command's answer as JSON, and its errors as {"error": {code, message,
        data}} on standard output; scenectl COMMAND --help describes a command.
        Exit codes: 0 success, 1 refused (the reason and its data are printed), 2 usage error (also
        params or a method the coordinator refuses), 3 cannot connect.
        SCENE_LOG=debug|info|warn|error sets how much the coordinator logs.
        SCENE_EXIT_WITH_PARENT=1 makes serve shut down once the process that started it ends.
        """
}

extension OptionSpec {
    /// The coordinator's socket, for the commands that connect to one.
    static let socket = OptionSpec.option(
        "socket", "PATH", "the coordinator's socket (default: $SCENE_SOCKET, else the app's default socket)", kind: .file,
        shared: true)
    /// The app whose default socket a command connects to.
    static let app = OptionSpec.option(
        "app", "NAME", "the app whose default socket to use (default demo)", shared: true)
    static let json = OptionSpec.flag("json", "print the answer as JSON", shared: true)
    static let value = OptionSpec.option("value", "JSON", #"the scene's value, as JSON (e.g. '"42"')"#)
}
