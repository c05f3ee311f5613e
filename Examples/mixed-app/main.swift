// mixed-app: a Swift program that embeds the coordinator, hosts two scenes in process and
// runs one as a process (the Python scene), and has them call each other in a ring.
//
//   swift run mixed-app [--python-scene PATH]
//
// `left` and `right` are the same `Notebook` behaviour swift-scene runs in a process of
// its own; here the manifest says `"in_process": true` and the program registers it. The
// Python scene cannot tell them from processes, nor they it: a call is a call.
import Foundation
import NotebookScene
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow

/// Writes a line at once, so that this program's lines and the Python scene's interleave
/// as they happen.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
let pythonScene = arguments.firstIndex(of: "--python-scene").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("python-scene/scene.py").path

let manifest = try Manifest(json: [
    "app": "mixed",
    "scenes": [
        ["id": "left", "kind": "window", "in_process": true],
        ["id": "right", "kind": "window", "in_process": true],
        ["id": "py", "kind": "window", "launch": ["command": ["python3", .string(pythonScene), "--title", "Python (a process)"]]],
    ],
])

// A socket of the program's own choosing, in a folder of its own.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-app-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(atPath: folder) }
let configuration = CoordinatorConfiguration(socketPath: "\(folder)/mixed.sock")

let coordinator = try await Coordinator.start(
    manifest: manifest,
    behaviors: [
        "left": { Notebook(title: "Left (in process)", context: $0) { say("   [left] \($0)") } },
        "right": { Notebook(title: "Right (in process)", context: $0) { say("   [right] \($0)") } },
    ],
    configuration: configuration)
say("coordinator serving \(configuration.socketPath)")

var failed = false
do {
    let registry = coordinator.registry
    for scene in ["left", "right", "py"] {
        let outcome = try await registry.open(scene)
        say("opened \(outcome.instance.id) (\(registry.hosting(of: outcome.instance.id)?.name ?? "?"))")
    }

    say("\nleft (in process) → py (a process) → right (in process), from the program itself:")
    let ring = RelayRequest(to: .scene("py"), method: "relay", params: ["to": ["scene": "right"], "method": "title"])
    let answer = try await registry.call(SceneCall(method: "relay", params: ScenePayload(ring)), to: .scene("left"))
    say("answer: \(try answer.json())")

    say("\npy (a process) → left (in process) → py (a process), from a client on the socket:")
    let client = try await SceneConnection.connect(path: configuration.socketPath, client: "mixed-app", timeout: 10)
    let back = try await client.callScene(
        .scene("py"), method: "relay",
        params: ["to": ["scene": "left"], "method": "relay", "params": ["to": ["scene": "py"], "method": "title"]])
    say("answer: \(back)")
    client.close()
} catch {
    say("failed: \(error)")
    failed = true
}
await coordinator.shutdown()
say("\nthe coordinator stopped its scene process and shut down")
exit(failed ? 1 : 0)
