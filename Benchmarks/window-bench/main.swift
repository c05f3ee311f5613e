// window-bench: how long a scene's window takes to be seen. For each round, a `scene.open`
// of the GTK example scene (Examples/gtk-scene) under Xvfb, timed to its answer (the
// process said hello) and to the X server's MapNotify of the window titled by its instance
// (as the server reports it to a reader process); then the instance is dismissed and its
// window's unmap awaited. The reference, in the same run: `scene.open` of the headless
// Python example scene (Examples/python-scene), to its answer.
//
// Run with `swift build -c release && swift run -c release window-bench [--opens N]`. The
// coordinator is the release `scenectl serve` in its own process. Installs Xvfb, PyGObject
// and GTK 4 when missing.
import BenchSupport
import Foundation
import SceneClient
import SceneJSON
import SceneTesting

/// The checkout: the first folder up from this executable that holds Package.swift.
let root = sequence(first: ServedCoordinator.folder) { folder in
    folder.path == "/" ? nil : folder.deletingLastPathComponent()
}.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("Package.swift").path) } ?? ServedCoordinator.folder
let gtkScene = root.appendingPathComponent("Examples/gtk-scene/scene.py").path
let pythonScene = root.appendingPathComponent("Examples/python-scene/scene.py").path
for file in [gtkScene, pythonScene] where !FileManager.default.fileExists(atPath: file) {
    FileHandle.standardError.write(Data("window-bench: \(file) is missing; run `swift build -c release` in the checkout first\n".utf8))
    exit(2)
}
let opens = max(1, Int(option("--opens", default: 30)))

let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("window-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: folder) }
let display = try await VirtualDisplay.start(in: folder.path)
defer { display.stop() }
let windowEvents = try await display.events()
defer { windowEvents.stop() }

let environment = JSONValue.object(display.environment.mapValues(JSONValue.string))
let manifest: JSONValue = [
    "app": "bench",
    "scenes": [
        ["id": "gtk", "kind": "window", "launch": ["command": [.string(VirtualDisplay.python), .string(gtkScene), "--title", "Bench", "--quiet"], "env": environment, "timeout": 60]],
        ["id": "headless", "kind": "window", "launch": ["command": [.string(VirtualDisplay.python), .string(pythonScene), "--quiet"], "timeout": 60]],
    ],
]
let coordinator = try ServedCoordinator(name: "window-bench", manifest: manifest.description)
defer { coordinator.stop() }
let socket = coordinator.socket
let control = try await SceneConnection.connect(path: socket, client: "window-bench", timeout: 60)
print("window-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; coordinator: scenectl serve (release); scenes: Examples/gtk-scene under Xvfb, Examples/python-scene (\(VirtualDisplay.python))")

/// Waits for the next notification `kind` of the window titled `name`.
func waitFor(_ kind: String, of name: String, in notifications: inout AsyncStream<WindowEvents.Event>.Iterator) async throws {
    while let event = await notifications.next() {
        if event.event == kind && event.name == name { return }
    }
    throw BenchError("the window reader stopped")
}

/// Each round: the headless scene's open, then the GTK scene's open, to its answer and to
/// its window mapped (ms).
func measure(_ control: SceneConnection, events: WindowEvents) async throws -> (headless: [Double], answered: [Double], mapped: [Double]) {
    var notifications = events.notifications.makeAsyncIterator()
    var headless: [Double] = [], answered: [Double] = [], mapped: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<opens {
        // The reference first: a headless scene process of the same interpreter.
        var start = clock.now
        let plain = try await control.open("headless").instance.id
        headless.append(seconds(clock.now - start) * 1e3)
        _ = try await control.dismiss(instance: plain, force: true)

        start = clock.now
        let id = try await control.open("gtk").instance.id
        answered.append(seconds(clock.now - start) * 1e3)
        try await waitFor("map", of: "Bench — \(id)", in: &notifications)
        mapped.append(seconds(clock.now - start) * 1e3)
        _ = try await control.dismiss(instance: id, force: true)
        try await waitFor("unmap", of: "Bench — \(id)", in: &notifications)
    }
    return (headless, answered, mapped)
}

let (headless, answered, mapped) = try await measure(control, events: windowEvents)
func line(_ name: String, _ values: [Double]) -> String {
    "  \(padded(name, 44)) \(String(format: "%8.1f %8.1f %8.1f", percentile(values, 0.5), percentile(values, 0.9), values.max() ?? 0))"
}
print("scene.open to … (ms; \(opens) opens each, one at a time)        p50      p90      max")
print(line("headless Python scene: the open's answer", headless))
print(line("GTK scene: the open's answer (its hello)", answered))
print(line("GTK scene: its window mapped (X MapNotify)", mapped))
let figure = String(format: "%.1f ms (p90 %.1f ms), %.2fx the headless Python scene's open (%.1f ms)",
                    percentile(mapped, 0.5), percentile(mapped, 0.9), percentile(mapped, 0.5) / percentile(headless, 0.5), percentile(headless, 0.5))
print("aim: scene.open of the GTK scene to its window mapped under Xvfb, p50 (reported) | \(figure) | yes")
