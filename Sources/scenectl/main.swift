// scenectl: serves, controls, inspects and demos a scene coordinator.
import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire

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

_ = startingParent
let all = Array(CommandLine.arguments.dropFirst())
guard let name = all.first, name != "--help", name != "-h", name != "help" else {
    print(Commands.usage)
    exit(all.isEmpty ? ExitCode.usage.rawValue : ExitCode.success.rawValue)
}
guard let command = Commands.named(name) else {
    standardError("scenectl: unknown command \"\(name)\"\n\n\(Commands.usage)")
    exit(ExitCode.usage.rawValue)
}

let code: ExitCode
do {
    let arguments = try Arguments(Array(all.dropFirst()), for: command)
    if arguments.flag("help") {
        print(command.help)
        exit(ExitCode.success.rawValue)
    }
    code = try await command.run(arguments)
} catch let error as UsageError {
    standardError("scenectl: \(error.message)\n\n\(command.help)")
    code = .usage
} catch {
    standardError("scenectl: \(error)")
    code = .failure
}
exit(code.rawValue)
