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

    /// The demo's manifest: ``manifest(arguments:)`` and one scene that runs in process, in
    /// `scenectl` itself (``Assistant``).
    static func demoManifest(arguments: [String] = []) -> Manifest {
        let base = manifest(arguments: arguments)
        guard case .object(var root) = base.json, case .array(var scenes)? = root["scenes"] else { return base }
        scenes.append(Assistant.declaration)
        root["scenes"] = .array(scenes)
        // main and notes restart together (the demo's last step kills main's process). A
        // roomy intensity: on a loaded machine missed heartbeats restart processes too, and
        // each restart of one restarts the other.
        root["groups"] = [["id": "desk", "strategy": "one_for_all", "scenes": ["main", "notes"], "maxRestarts": 20, "withinSeconds": 60]]
        return (try? Manifest(json: .object(root))) ?? base
    }

    /// The behaviours of the demo's in-process scenes.
    static let demoBehaviors: [String: SceneBehaviorFactory<JSONValue>] = ["assistant": { Assistant(context: $0) }]

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
