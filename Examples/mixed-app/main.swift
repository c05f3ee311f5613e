// mixed-app: a Swift program that embeds the coordinator, hosts two scenes in process and
// runs one as a process (the Python scene), and has them call each other in a ring.
//
//   swift run mixed-app [--python-scene PATH]
//
// `left` and `right` are the same `Notebook` behaviour swift-scene runs in a process of
// its own; here the program declares them in Swift with the behaviour beside them. The
// Python scene cannot tell them from processes, nor they it: a call is a call.
//
// Then typed calls: `inotes` (in process) and `dnotes` (swift-scene --distributed, a
// process) are the notebook as a distributed actor. The program hands `dnotes`'s reference
// to `inotes`, which saves through it; `dnotes` saves in the Python scene through the
// `NotebookService` protocol, which Python answers by name. (`dnotes` needs swift-scene
// built beside this program: `swift build --product swift-scene`.)
import Foundation
import NotebookScene
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON

/// Writes a line at once, so that this program's lines and the Python scene's interleave
/// as they happen.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
let pythonScene = arguments.firstIndex(of: "--python-scene").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("python-scene/scene.py").path
/// swift-scene, built beside this program.
let swiftScene = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments[0])
    .deletingLastPathComponent().appendingPathComponent("swift-scene").path
let hasSwiftScene = FileManager.default.isExecutableFile(atPath: swiftScene)

/// The app's scenes, each named once.
enum Mixed {
    static let left: SceneID<NoValue> = "left"
    static let right: SceneID<NoValue> = "right"
    static let python: SceneID<NoValue> = "py"
    static let typedInProcess: SceneID<NoValue> = "inotes"
    static let typedProcess: SceneID<NoValue> = "dnotes"
}

// `left` and `right` run the notebook in process, beside the coordinator; `py` is a process.
let scenes = SceneSet(app: "mixed") {
    Window(Mixed.left) { Notebook(title: "Left (in process)", context: $0) { say("   [left] \($0)") } }
    Window(Mixed.right) { Notebook(title: "Right (in process)", context: $0) { say("   [right] \($0)") } }
    Window(Mixed.python).process(LaunchSpec(command: ["python3", pythonScene, "--title", "Python (a process)"]))
    Window(Mixed.typedInProcess, behavior: NotebookActor.behavior { NotebookActor(title: "Typed (in process)", context: $0) { say("   [inotes] \($0)") } })
    if hasSwiftScene {
        Window(Mixed.typedProcess).process(LaunchSpec(command: [swiftScene, "--distributed", "--title", "Typed (a Swift process)"]))
    }
}

// A socket of the program's own choosing, in a folder of its own.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-app-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
// `exit` runs no `defer` of top-level code: every way out of the program's own removes the
// folder here (a signal that kills it leaves the folder, as it does any process's).
func leave(_ folder: String, failed: Bool) -> Never {
    try? FileManager.default.removeItem(atPath: folder)
    exit(failed ? 1 : 0)
}
let configuration = CoordinatorConfiguration(socketPath: "\(folder)/mixed.sock")

let coordinator: Coordinator<JSONValue>
do {
    coordinator = try await Coordinator.start(scenes: scenes, configuration: configuration)
} catch {
    say("cannot start the coordinator: \(error)")
    leave(folder, failed: true)
}
say("coordinator serving \(configuration.socketPath)")

var failed = false
do {
    let registry = coordinator.registry
    for scene in [Mixed.left, Mixed.right, Mixed.python, Mixed.typedInProcess] + (hasSwiftScene ? [Mixed.typedProcess] : []) {
        let opened = try await registry.scenes.open(scene)
        say("opened \(opened) (\(registry.hosting(of: opened)?.name ?? "?"))")
    }

    say("\nleft (in process) → py (a process) → right (in process), from the program itself:")
    let toRight = RelayRequest(to: .scene(Mixed.right.id), method: NotebookMethods.title.name)
    let ring = RelayRequest(to: .scene(Mixed.python.id), method: NotebookMethods.relay.name, params: try JSONValue.encoded(toRight))
    say("answer: \(try await registry.scenes.call(NotebookMethods.relay, ring, on: .scene(Mixed.left.id)))")

    say("\npy (a process) → left (in process) → py (a process), from a client on the socket:")
    let client = try await SceneConnection.connect(path: configuration.socketPath, client: "mixed-app", timeout: 10)
    let toPython = RelayRequest(to: .scene(Mixed.python.id), method: NotebookMethods.title.name)
    let back = RelayRequest(to: .scene(Mixed.left.id), method: NotebookMethods.relay.name, params: try JSONValue.encoded(toPython))
    say("answer: \(try await client.scenes.call(NotebookMethods.relay, back, on: .scene(Mixed.python.id)))")

    say("\ntyped calls, distributed actors (each one a scene.call by the function's name):")
    let inNotes = try NotebookActor.resolve(id: .scene(Mixed.typedInProcess.id), using: registry.actorSystem)
    let python = try $NotebookService.resolve(id: .scene(Mixed.python.id), using: client.actorSystem)
    say("py.save(draft: \"snake\", count: 3), from a client → \(try await python.save(draft: "snake", count: 3))")
    if hasSwiftScene {
        let swiftNotes = try NotebookActor.resolve(id: .scene(Mixed.typedProcess.id), using: registry.actorSystem)
        say("inotes.relay(to: <dnotes>, draft: \"ring\"): the program hands dnotes to inotes → \(try await inNotes.relay(to: swiftNotes, draft: "ring"))")
        say("dnotes.saved() → \(try await swiftNotes.saved())")
        say("dnotes.relay(toService: py, draft: \"hiss\"): a Swift process calls Python by the protocol → \(try await swiftNotes.relay(toService: .scene(Mixed.python.id), draft: "hiss"))")
    } else {
        say("inotes.title() → \(try await inNotes.title()) (swift-scene is not built beside this program: no Swift process this time)")
    }
    client.close()
} catch {
    say("failed: \(error)")
    failed = true
}
await coordinator.shutdown()
say("\nthe coordinator stopped its scene process and shut down")
leave(folder, failed: failed)
