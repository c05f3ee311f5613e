// A tour of SceneCore: loads the demo manifest, drives the registry through its rules, and
// prints the scene tree after each step.
import SceneCore
import SceneFlow

let registry = try SceneRegistry(manifest: .demo)

func step(_ title: String, _ action: () async throws -> any CustomStringConvertible) async {
    let result: String
    do {
        result = try await action().description
    } catch let reason as RegistryRejection {
        result = "rejected \(reason.code): \(reason)"
    } catch {
        result = "failed: \(error)"
    }
    print("== \(title)\n-> \(result)")
    print(await registry.state().tree.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
    print()
}

await step("open main") { try await registry.open("main").name }
await step("open viewer for doc 42") { try await "\(registry.open("viewer", value: "42").name)" }
await step("open viewer for doc 42 again: the per-value window comes to the front") {
    try await registry.open("viewer", value: "42").name
}
await step("open the full immersive theatre") { try await registry.open("theatre", value: "hamlet").name }
await step("open the portal while the theatre is open: one immersive space at a time") {
    try await registry.open("portal").name
}
await step("dismiss the immersive space (no id needed)") {
    try await "dismissed \(registry.dismissImmersive())"
}
await step("push notes in place of main, as pushWindow does") {
    try await "pushed \(registry.push("notes", from: InstanceID(scene: "main", number: 1)).id)"
}
await step("deep link demo://demo.example/viewer/7 opens a new viewer with its path") {
    switch await registry.openLink("demo://demo.example/viewer/7") {
    case .handled(let info, let opened): return "handled in \(info.id) (opened: \(opened))"
    case let other: return other.name
    }
}
await step("route {screen: settings} from main: its scope presents a sheet") {
    try await registry.route(["screen": "settings"], from: InstanceID(scene: "main", number: 1)).name
}
await step("route {screen: globe} from main: it bubbles up and the globe volume claims it") {
    let outcome = try await registry.route(["screen": "globe"], from: InstanceID(scene: "main", number: 1))
    return "\(outcome.name) in \(outcome.instance.id)"
}
await step("route {screen: admin} from main: its scope refuses") {
    try await registry.route(["screen": "admin"], from: InstanceID(scene: "main", number: 1)).name
}
await step("deep link to the theatre: it requires sign-in, so it waits") {
    await registry.openLink("demo://demo.example/theatre/hamlet").name
}
await step("sign in: the pending link replays and the theatre opens") {
    guard let replay = await registry.setAuthenticated(true) else { return "nothing replayed" }
    if case .handled(let info, _) = replay { return "replayed: handled in \(info.id)" }
    return "replayed: \(replay.name)"
}
