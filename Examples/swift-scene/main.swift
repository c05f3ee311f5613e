// A scene process in Swift, built on SceneClient.
//
// A coordinator starts it for a scene whose manifest entry has
//   "launch": {"command": ["swift-scene", "--title", "Notes"]}
// with SCENE_SOCKET, SCENE_INSTANCE and SCENE_TOKEN in its environment. It logs its path
// changes, answers `title` and `echo` (what other scenes and clients reach with
// `scene.call`), keeps a draft that makes it refuse an interactive close until it is
// saved, and exits when its connection closes: the coordinator restarts it, with its path.
//
// Its answers need no waiting, so it answers on the client's loop thread as each request
// arrives (`answering:`): no task per request, no thread hand-off, the answer written in
// the turn that read the request. A scene that must await something passes an async
// `handler:` instead.
import Foundation
import SceneClient
import SceneFlow
import SceneWire
import SceneSync

/// What this scene keeps: its title and whether it has unsaved edits.
final class Notebook: Sendable {
    let title: String
    let unsaved = Locked(false)

    init(title: String) { self.title = title }

    /// Answers one request or notification from the coordinator.
    func answer(_ message: IncomingMessage) -> Result<JSONValue, WireError> {
        switch message.method {
        case SceneMethod.ping:
            return .success([:])
        case SceneMethod.close:
            // A forced close cannot be refused; an interactive one can, while edits are unsaved.
            let forced = message.params?["force"] == true
            let accepted = forced || !unsaved.withLock { $0 }
            log(accepted ? "closing" : "refusing to close: unsaved edits")
            return .success(["accepted": .bool(accepted)])
        case SceneMethod.flowChanged:
            log("path is now \(message.params?["path"]?.description ?? "[]")")
            return .success(.null)
        case "title":
            return .success(["title": .string(title)])
        case "echo":
            return .success(message.params ?? [:])
        case "edit":
            unsaved.withLock { $0 = true }
            return .success(["unsaved": true])
        case "save":
            unsaved.withLock { $0 = false }
            return .success(["unsaved": false])
        default:
            return .failure(.methodNotFound(message.method))
        }
    }
}

func log(_ line: String) {
    let instance = ProcessInfo.processInfo.environment["SCENE_INSTANCE"] ?? "scene"
    FileHandle.standardError.write(Data("[\(instance)] \(line)\n".utf8))
}

let arguments = CommandLine.arguments
let title = arguments.firstIndex(of: "--title").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let notebook = Notebook(title: title ?? ProcessInfo.processInfo.environment["SCENE_INSTANCE"] ?? "Notes")

do {
    let connection = try await SceneConnection.connectAsScene(client: "swift-scene", answering: notebook.answer)
    if let instance = connection.hello.instance {
        log("hello: \(instance.id) is \(instance.phase), path \(WireCodec.json(instance.path))")
    }
    await connection.waitUntilClosed()
    log("the connection closed; exiting")
} catch {
    log("cannot connect: \(error)")
    exit(3)
}
