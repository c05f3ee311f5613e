// scenectl: serves, controls, inspects and demos a scene coordinator.
import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire

let usage = """
    scenectl: serve, control and inspect a scene coordinator

    usage: scenectl COMMAND [ARGUMENTS] [--socket PATH] [--app NAME]

    commands:
      demo                                 a scripted tour: a coordinator, scene processes, every rule
      serve [--manifest FILE] [--state FILE [--durable] [--discard-state]]
                                           serve a registry (the demo app, with scene processes,
                                           without a manifest); keep and restore its state in FILE
      scene [--title T] [--unsaved] [--quiet]
                                           a ready-made scene process (a coordinator spawns it)
      check MANIFEST                       validate a manifest; print every problem with its JSON path
      open SCENE [--value JSON]            open a scene by its instance policy
      push SCENE --from ID [--value JSON]  open SCENE in place of window ID
      dismiss ID | --scene S [--value JSON] [--force]
                                           dismiss an instance, or a scene's instances; scene
                                           processes are asked first and may refuse, unless --force
      dismiss-immersive                    dismiss the open immersive space
      focus ID                             focus a window or volume
      route ID ROUTE-JSON                  ask instance ID to show a route
      send ID INTENT-JSON                  send a flow intent, e.g. '{"type":"push","route":"a"}'
      apply ID PLAN-JSON                   reset a path to a plan, e.g. '[{"type":"push","route":"a"}]'
      link URL                             open a deep link
      auth on|off                          sign in (replaying a pending link) or out
      call ID METHOD [PARAMS-JSON]         call a method of a scene process (ID: an instance, or a
                                           scene for its most recently focused instance)
      notify ID METHOD [PARAMS-JSON]       the same as a notification: no answer
      state [--json] [--format tree|dot|mermaid]
                                           print the scene tree
      watch [--json] [--topics T,T]        print one line per event until interrupted
      ping                                 check that the coordinator answers
      shutdown                             stop the coordinator

    The socket is --socket PATH, else $SCENE_SOCKET, else
    $XDG_RUNTIME_DIR/scenectl/APP.sock or /tmp/scenectl-UID/APP.sock (APP: --app, default demo).
    Exit codes: 0 success, 1 refused (the reason is printed), 2 usage error, 3 cannot connect.
    SCENE_LOG=debug|info|warn|error sets how much the coordinator logs.
    SCENE_EXIT_WITH_PARENT=1 makes serve shut down once the process that started it ends.
    """

/// The usage of each command, for `scenectl COMMAND --help`.
let commandHelp: [String: String] = [
    "demo": "scenectl demo\n  Starts a coordinator on a temporary socket with the demo app, whose scenes are processes\n  (this executable's `scene` command), walks a scripted tour printing the scene tree after\n  each step, and cleans up.",
    "serve": "scenectl serve [--manifest FILE] [--socket PATH] [--state FILE [--durable] [--discard-state]]\n              [--launch-timeout S] [--heartbeat S]\n  Serves the manifest's registry on the socket until SIGINT, SIGTERM or `scenectl shutdown`,\n  then closes every scene process and exits 0. Without --manifest it serves the demo app,\n  each scene a `scenectl scene` process.\n  --state FILE keeps the state there (written within a second of a change, and at the\n  end) and restores it at start; a corrupt file stops the start unless --discard-state.\n  --durable also journals every change, on disk before it is acknowledged: a crash loses\n  nothing acknowledged (without it, what changed after the last state write).",
    "scene": "scenectl scene [--title TEXT] [--unsaved] [--quiet]\n  A scene process: a coordinator starts it with SCENE_SOCKET, SCENE_INSTANCE and SCENE_TOKEN.\n  Answers title, echo, edit, save, path and relay {to, method, params}; vetoes an\n  interactive close while it has unsaved edits (--unsaved, or after edit); logs its path\n  to standard error unless --quiet; exits when its connection closes.",
    "call": "scenectl call ID METHOD [PARAMS-JSON]\n  ID is an instance (viewer-2), or a scene (viewer) for its most recently focused instance.",
    "notify": "scenectl notify ID METHOD [PARAMS-JSON]",
    "check": "scenectl check MANIFEST\n  Prints every problem with its JSON path; exits 1 if there is any.",
    "open": "scenectl open SCENE [--value JSON]",
    "push": "scenectl push SCENE --from ID [--value JSON]",
    "dismiss": "scenectl dismiss ID [--force]\nscenectl dismiss --scene SCENE [--value JSON] [--force]",
    "dismiss-immersive": "scenectl dismiss-immersive",
    "focus": "scenectl focus ID",
    "route": "scenectl route ID ROUTE-JSON",
    "send": "scenectl send ID INTENT-JSON",
    "apply": "scenectl apply ID PLAN-JSON",
    "link": "scenectl link URL",
    "auth": "scenectl auth on|off",
    "state": "scenectl state [--json] [--format tree|dot|mermaid]",
    "watch": "scenectl watch [--json] [--topics scene,flow,link,request]",
    "ping": "scenectl ping",
    "shutdown": "scenectl shutdown",
]

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Writes a line to standard output at once (for long-running commands read by others).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func parseJSON(_ text: String, what: String) throws(UsageError) -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        throw UsageError("\(what) is not JSON: \(error)")
    }
}

func socketPath(_ arguments: Arguments) -> String {
    if let path = arguments.option("socket") { return path }
    if let path = ProcessInfo.processInfo.environment["SCENE_SOCKET"], !path.isEmpty { return path }
    return CoordinatorConfiguration.defaultSocketPath(app: arguments.option("app") ?? "demo")
}

func printJSON(_ value: some Encodable) {
    print(WireCodec.json(value).description)
}

let valuedOptions: Set<String> = [
    "socket", "app", "manifest", "value", "from", "scene", "format", "topics", "state", "title", "launch-timeout", "heartbeat",
]
let flagOptions: Set<String> = ["json", "help", "force", "discard-state", "durable", "unsaved", "quiet"]

_ = startingParent
let all = Array(CommandLine.arguments.dropFirst())
guard let command = all.first, command != "--help", command != "-h", command != "help" else {
    print(usage)
    exit(all.isEmpty ? ExitCode.usage.rawValue : ExitCode.success.rawValue)
}

let code: ExitCode
do {
    let arguments = try Arguments(Array(all.dropFirst()), valued: valuedOptions, flags: flagOptions)
    if arguments.flag("help") {
        print(commandHelp[command] ?? usage)
        exit(ExitCode.success.rawValue)
    }
    switch command {
    case "serve":
        code = await Serve.run(arguments)
    case "check":
        code = try Check.run(arguments)
    case "scene":
        code = await SceneCommand.run(arguments)
    case "demo":
        code = await Demo.run(arguments)
    default:
        guard commandHelp[command] != nil else { throw UsageError("unknown command \"\(command)\"") }
        code = try await Control.run(command, arguments)
    }
} catch let error as UsageError {
    standardError("scenectl: \(error.message)\n\n\(commandHelp[command] ?? usage)")
    code = .usage
} catch {
    standardError("scenectl: \(error)")
    code = .failure
}
exit(code.rawValue)
