import SceneClient
import SceneJSON

/// Every scenectl command, in the order the usage lists them: the one place a command,
/// its arguments, options and help are declared.
enum Commands {
    static let all: [CommandSpec] = [
        CommandSpec(
            "demo", "a scripted tour: a coordinator, scene processes, every rule",
            options: [
                .flag("verbose", "print the whole scene tree after each step, not only what changed"),
                .flag("windows", "run the scenes as GTK 4 windows (Examples/gtk-scene), pausing after each step"),
                .option("pause", "SECONDS", "wait this long after each step (default 2 with --windows, else 0)"),
            ],
            details: """
                Starts a coordinator on a temporary socket with the demo app, whose scenes are processes \
                (this executable's `scene` command), walks a scripted tour printing what each step changed \
                in the scene tree (+ a line that appeared, - one that went), and cleans up. With --windows \
                each scene process is the GTK example scene instead, a real window on the display \
                (DISPLAY or WAYLAND_DISPLAY; it needs /usr/bin/python3 with PyGObject and GTK 4, and \
                Examples/gtk-scene/scene.py under the working folder or beside this executable's \
                checkout), and the tour waits 2 s after each step (--pause) so the windows can be seen.
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
                .option("socket", "PATH", "the socket to serve on (default: $SCENE_SOCKET, else the app's default socket)", kind: .file, shared: true),
                .option(
                    "app", "NAME", "the app whose default socket to serve on, when neither --socket nor $SCENE_SOCKET is given (default: the manifest's app)", shared: true),
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
    ] + scenes + navigation + links + services + [
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
    /// `--json` besides its own options; `prepare` reads its arguments into what it does
    /// (``ControlPlan``), and ``Control`` connects and runs it.
    static func control(
        _ name: String, _ summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        forms: [String]? = nil, details: String? = nil, prepare: @escaping ControlPrepare
    ) -> CommandSpec {
        CommandSpec(
            name, summary, arguments: arguments, options: options + [.socket, .app, .json], forms: forms, details: details,
            run: { try await Control.run(name, $0, prepare) })
    }

    /// A control command whose one argument is instance ID: `call` asks the coordinator,
    /// and its answer is printed as `text` says (or as JSON).
    static func onInstance<Answer: Encodable & Sendable>(
        _ name: String, _ summary: String,
        call: @escaping @Sendable (SceneConnection, _ id: String) async throws(ClientError) -> Answer,
        text: @escaping @Sendable (Answer) -> String
    ) -> CommandSpec {
        control(name, summary, arguments: [.required("ID")]) { arguments throws(UsageError) in
            let id = arguments.positionals[0]
            return ControlPlan { connection, json throws(ClientError) in
                let answer = try await call(connection, id)
                Control.show(answer, json: json, text(answer))
            }
        }
    }

    /// A control command that opens SCENE (with `--value`) from the instance `--from`
    /// names: `call` asks the coordinator, and its answer is printed as `text` says (or as
    /// JSON).
    static func fromInstance<Answer: Encodable & Sendable>(
        _ name: String, _ summary: String, from: String,
        call: @escaping @Sendable (SceneConnection, _ scene: String, _ value: JSONValue?, _ from: String) async throws(ClientError) -> Answer,
        text: @escaping @Sendable (Answer, _ from: String) -> String
    ) -> CommandSpec {
        control(
            name, summary, arguments: [.required("SCENE")],
            options: [.option("from", "ID", from, required: true), .value]
        ) { arguments throws(UsageError) in
            guard let from = arguments.option("from") else { throw UsageError("\(name) needs --from ID") }
            let (scene, value) = (arguments.positionals[0], try arguments.jsonOption("value"))
            return ControlPlan { connection, json throws(ClientError) in
                let answer = try await call(connection, scene, value, from)
                Control.show(answer, json: json, text(answer, from))
            }
        }
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
        "app", "NAME", "the app whose default socket to use, when neither --socket nor $SCENE_SOCKET is given (default demo)", shared: true)
    static let json = OptionSpec.flag("json", "print the answer as JSON", shared: true)
    static let value = OptionSpec.option("value", "JSON", #"the scene's value, as JSON (e.g. '"42"')"#)
}
