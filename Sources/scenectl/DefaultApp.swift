import Foundation
import SceneCore
import SceneFlow
import SceneJSON

/// The app `serve` runs without a manifest, and the demo: the demo manifest, with every
/// scene a process of this very executable (`scenectl scene`).
enum DefaultApp {
    /// This executable, as the kernel knows it.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `Manifest.demo` with a `launch` for each scene; `arguments` are added to each
    /// scene's command.
    static func manifest(arguments: [String] = []) -> Manifest {
        guard case .object(var root) = Manifest.demo.json, case .array(let scenes)? = root["scenes"] else {
            return Manifest.demo
        }
        root["scenes"] = .array(scenes.map { scene in
            guard case .object(var members) = scene, let id = members["id"]?.stringValue else { return scene }
            let command = [executable, "scene", "--title", title(of: id)] + arguments
            members["launch"] = .object(["command": .array(command.map(JSONValue.string))])
            return .object(members)
        })
        // Built from the tested demo manifest plus launch commands, so it always loads.
        return (try? Manifest(json: .object(root))) ?? Manifest.demo
    }

    /// The demo, declared in Swift: ``SceneSet/demo``'s scenes, each a process of this
    /// executable (`arguments` added to each command), and one scene that runs in process,
    /// in `scenectl` itself (``Assistant``). `main` and `notes` restart together (the
    /// demo's last step kills main's process), with a roomy intensity: on a loaded machine
    /// missed heartbeats restart processes too, and each restart of one restarts the other.
    static func demoScenes(arguments: [String] = []) -> SceneSet<JSONValue> {
        demoScenes { [executable, "scene", "--title", $0] + arguments }
    }

    /// The demo with each scene's process started by `command(title)`.
    static func demoScenes(command: (_ title: String) -> [String]) -> SceneSet<JSONValue> {
        let demo = SceneSet<JSONValue>.demo
        let desk = SupervisionGroup(
            id: "desk", strategy: .oneForAll, scenes: [DemoScenes.main.id, DemoScenes.notes.id], maxRestarts: 20, withinSeconds: 60)
        return SceneSet(app: demo.app, links: demo.linkPolicy, immersive: demo.immersive) {
            for entry in demo.entries {
                let id = entry.declaration.id
                let process = entry.process(LaunchSpec(command: command(title(of: id))))
                if desk.scenes.contains(id) { process.group(desk) } else { process }
            }
            Window(Assistant.scene, instances: .single) { Assistant(context: $0) }
                .activatable()
                .interface(Assistant.interface)
        }
    }

    private static func title(of scene: String) -> String {
        switch scene {
        case "main": return "Main window"
        case "viewer": return "Document viewer"
        case "notes": return "Notes"
        case "globe": return "Globe"
        case "theatre": return "Theatre"
        case "portal": return "Portal"
        default: return scene
        }
    }
}
