// scenectl: serves, controls, inspects and demos a scene coordinator.
import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire

/// Writes a line to standard error. One that cannot be written is dropped (a serving
/// coordinator goes on).
func standardError(_ text: String) {
    _ = Log.emit(text + "\n", to: STDERR_FILENO)
}

/// Writes a line to standard output at once (for long-running commands read by others).
func emit(_ line: String) {
    _ = Log.emit(line + "\n", to: STDOUT_FILENO)
}

func parseJSON(_ text: String, what: String) throws(UsageError) -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        // Text that does not even start like JSON is most likely a string left unquoted.
        let start = text.trimmingCharacters(in: .whitespaces).first
        let looksLikeJSON = start.map { "{[\"-0123456789tfn".contains($0) } ?? false
        let hint = looksLikeJSON ? "" : #" (a string is quoted: '"\#(text)"')"#
        throw UsageError("\(what) is not JSON: \(error)\(hint)")
    }
}

func socketPath(_ arguments: Arguments) -> String { socketChoice(arguments).path }

/// The socket a command uses, and the rule that chose it: `--socket`, else
/// `$SCENE_SOCKET`, else the default path of `--app` (else of `app`, else of the demo
/// app). `serve` chooses its socket by the same rule, with its manifest's app as `app`.
func socketChoice(_ arguments: Arguments, app defaultApp: String = "demo") -> (path: String, rule: String, serve: String) {
    if let path = arguments.option("socket") { return (path, "from --socket", "scenectl serve --socket \(path)") }
    if let path = ProcessInfo.processInfo.environment["SCENE_SOCKET"], !path.isEmpty {
        return (path, "from $SCENE_SOCKET", "scenectl serve --socket \(path)")
    }
    let app = arguments.option("app") ?? defaultApp
    return (
        CoordinatorConfiguration.defaultSocketPath(app: app), "the default socket of app \(app)",
        app == "demo" ? "scenectl serve" : "scenectl serve --manifest FILE (whose app is \(app))"
    )
}

func printJSON(_ value: some Encodable) {
    print(WireCodec.json(value).description)
}

/// Prints `error` as `--json` prints a failure: `{"error": {code, message, data}}` on
/// standard output.
func printJSONError(_ error: WireError) {
    print(JSONValue.object(["error": error.json]).description)
}

_ = startingParent
// `-h` is `--help`; the global options may come before the command's name.
let all = CommandLine.arguments.dropFirst().map { $0 == "-h" ? "--help" : $0 }
guard let at = Arguments.commandIndex(in: all) else {
    print(Commands.usage)
    exit(all.contains("--help") ? ExitCode.success.rawValue : ExitCode.usage.rawValue)
}
// `scenectl help` is the usage; `scenectl help COMMAND` is that command's --help.
if all[at] == "help" {
    let rest = Array(all.dropFirst(at + 1))
    guard let index = Arguments.commandIndex(in: rest) else {
        print(Commands.usage)
        exit(ExitCode.success.rawValue)
    }
    let asked = rest[index]
    guard let command = Commands.named(asked) else {
        let near = Suggestion.nearest(to: asked, among: Commands.all.map(\.name))
        standardError("scenectl: unknown command \"\(asked)\"" + (near.map { " (did you mean \"\($0)\"?)" } ?? ""))
        exit(ExitCode.usage.rawValue)
    }
    print(command.help)
    exit(ExitCode.success.rawValue)
}
let name = all[at]
guard let command = Commands.named(name) else {
    let near = Suggestion.nearest(to: name, among: Commands.all.map(\.name))
    standardError(
        "scenectl: unknown command \"\(name)\"" + (near.map { " (did you mean \"\($0)\"?)" } ?? "")
            + "\nscenectl --help lists the commands.")
    exit(ExitCode.usage.rawValue)
}

let code: ExitCode
do {
    var rest = all
    rest.remove(at: at)
    let arguments = try Arguments(rest, for: command)
    if arguments.flag("help") {
        print(command.help)
        exit(ExitCode.success.rawValue)
    }
    code = try await command.run(arguments)
} catch let error as UsageError {
    if all.contains("--json"), command.flags.contains("json") {
        printJSONError(WireError(code: -32602, message: error.message, data: ["reason": "usage"]))
    } else {
        standardError("scenectl: \(error.message)\n\n\(command.usageLines)\nscenectl \(command.name) --help describes it.")
    }
    code = .usage
} catch {
    standardError("scenectl: \(error)")
    code = .failure
}
exit(code.rawValue)
