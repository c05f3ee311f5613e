// A scene process in Swift: the notebook behaviour, hosted in a process of its own.
//
// A coordinator starts it for a scene whose manifest entry has
//   "launch": {"command": ["swift-scene", "--title", "Notes"]}
// with SCENE_SOCKET, SCENE_INSTANCE and SCENE_TOKEN in its environment. The same
// `Notebook` type runs in process when a manifest says `"in_process": true` and the
// embedding program registers it (see mixed-app): where a scene's code runs is a manifest
// change, not a rewrite.
//
// It exits when its connection closes (0), or when its behaviour fails (1): the
// coordinator restarts it by its scene's policy, with its path.
import Foundation
import NotebookScene
import SceneClient
import SceneCore
import SceneJSON

func log(_ line: String) {
    let instance = ProcessInfo.processInfo.environment["SCENE_INSTANCE"] ?? "scene"
    FileHandle.standardError.write(Data("[\(instance)] \(line)\n".utf8))
}

let arguments = CommandLine.arguments
let title = arguments.firstIndex(of: "--title").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }

// `--distributed`: the notebook as a distributed actor (NotebookActor), called with typed
// calls by the name of each `distributed func`.
let behavior: SceneBehaviorFactory<JSONValue>
if arguments.contains("--distributed") {
    behavior = NotebookActor.behavior { context in NotebookActor(title: title ?? context.instance.description, context: context, log: log) }
} else {
    behavior = { context in Notebook(title: title ?? context.instance.description, context: context, log: log) }
}

do {
    let end = try await SceneProcess.run(client: "swift-scene", behavior)
    switch end {
    case .finished:
        log("the connection closed; exiting")
        exit(0)
    case .failed(let why):
        log("failed: \(why)")
        exit(1)
    }
} catch {
    log("cannot connect: \(error)")
    exit(3)
}
