// A tour of SceneCore: the demo's scenes, declared in Swift (SceneSet.demo, the demo
// manifest's twin), driven through the registry's rules; prints the scene tree after each
// step.
import SceneCore
import SceneFlow

let registry = try SceneRegistry(.demo)
let scenes = registry.scenes

func step(_ title: String, _ action: () async throws -> any CustomStringConvertible) async {
    let result: String
    do {
        result = try await action().description
    } catch let error as SceneError {
        result = "rejected \(error.reason ?? "?"): \(error.message)"
    } catch let reason as RegistryRejection {
        result = "rejected \(reason.reason): \(reason)"
    } catch {
        result = "failed: \(error)"
    }
    print("== \(title)\n-> \(result)")
    print(await registry.state().tree.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
    print()
}

var main = InstanceID(scene: DemoScenes.main.id, number: 1)
await step("open main") {
    main = try await scenes.open(DemoScenes.main)
    return main
}
await step("open viewer for doc 42") { try await scenes.open(DemoScenes.viewer, value: "42") }
await step("open viewer for doc 42 again: the per-value window comes to the front") {
    try await scenes.open(DemoScenes.viewer, value: "42")
}
await step("open the full immersive theatre") { try await scenes.open(DemoScenes.theatre, value: "hamlet") }
await step("open the portal while the theatre is open: one immersive space at a time") {
    try await scenes.open(DemoScenes.portal)
}
await step("dismiss the immersive space (no id needed)") {
    try await "dismissed \(registry.dismissImmersive())"
}
await step("push notes in place of main, as pushWindow does") {
    try await "pushed \(scenes.push(DemoScenes.notes, from: main))"
}
await step("deep link demo://demo.example/viewer/7 opens a new viewer with its path") {
    switch await registry.openLink("demo://demo.example/viewer/7") {
    case .handled(let info, let opened): return "handled in \(info.id) (opened: \(opened))"
    case let other: return other.name
    }
}
await step("route {screen: settings} from main: its scope presents a sheet") {
    try await registry.route(["screen": "settings"], from: main).name
}
await step("route {screen: globe} from main: it bubbles up and the globe volume claims it") {
    let outcome = try await registry.route(["screen": "globe"], from: main)
    return "\(outcome.name) in \(outcome.instance.id)"
}
await step("route {screen: admin} from main: its scope refuses") {
    try await registry.route(["screen": "admin"], from: main).name
}
await step("deep link to the theatre: it requires sign-in, so it waits") {
    await registry.openLink("demo://demo.example/theatre/hamlet").name
}
await step("sign in: the pending link replays and the theatre opens") {
    guard let replay = await registry.setAuthenticated(true) else { return "nothing replayed" }
    if case .handled(let info, _) = replay { return "replayed: handled in \(info.id)" }
    return "replayed: \(replay.name)"
}
