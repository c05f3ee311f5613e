// scene-bench: what scene processes cost. Spawn-to-active latency of the Swift example
// scene, and the coordinator's memory with 50 live scene processes. (`scene.call` round
// trips are measured by wire-bench, side by side with D-Bus.)
//
// Run with `swift build -c release && swift run -c release scene-bench [--opens N]
// [--rounds R]`. The coordinator is the release `scenectl serve`, in a
// process of its own (its memory is read from /proc), and the scene processes are the
// release `swift-scene`, both next to this executable.
import BenchSupport
import Foundation
import SceneClient
import SceneFlow
import SceneJSON

let here = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
let sceneExecutable = here.deletingLastPathComponent().appendingPathComponent("swift-scene").path
let scenectl = here.deletingLastPathComponent().appendingPathComponent("scenectl").path
for executable in [sceneExecutable, scenectl] where !FileManager.default.isExecutableFile(atPath: executable) {
    FileHandle.standardError.write(Data("scene-bench: \(executable) is missing; run `swift build -c release` first\n".utf8))
    exit(2)
}
let opens = Int(option("--opens", default: 100))
let rounds = max(1, Int(option("--rounds", default: 3)))

let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("scene-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: folder) }
let manifestFile = folder.appendingPathComponent("bench.json").path
let manifest: JSONValue = ["app": "bench", "scenes": [["id": "scene", "kind": "window", "launch": ["command": [.string(sceneExecutable)]]]]]
try manifest.description.write(toFile: manifestFile, atomically: true, encoding: .utf8)
let socket = folder.appendingPathComponent("bench.sock").path
let coordinator = Process()
coordinator.executableURL = URL(fileURLWithPath: scenectl)
coordinator.arguments = ["serve", "--manifest", manifestFile, "--socket", socket]
coordinator.standardOutput = FileHandle.nullDevice
coordinator.standardError = FileHandle.nullDevice
try coordinator.run()
defer {
    coordinator.terminate()
    coordinator.waitUntilExit()
}
var connected: SceneConnection?
for _ in 0..<500 where connected == nil {
    connected = try? await SceneConnection.connect(path: socket, client: "scene-bench", timeout: 30)
    if connected == nil { try await Task.sleep(for: .milliseconds(10)) }
}
guard let control = connected else { fatalError("the coordinator did not start") }
let coordinatorPID = coordinator.processIdentifier
let atStart = residentKiB(coordinatorPID)
let clock = ContinuousClock()

print("scene-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; coordinator: scenectl serve; scene process: swift-scene (release builds)")

// Spawn to active: an open answers once the new process has said hello.
var spawnRounds: [(p50: Double, p99: Double)] = []
for _ in 0..<rounds {
    var latencies: [Double] = []
    for _ in 0..<opens {
        let start = clock.now
        let opened = try await control.open("scene")
        latencies.append(seconds(clock.now - start) * 1e3)
        _ = try await control.dismiss(instance: opened.instance.id, force: true)
    }
    spawnRounds.append((percentile(latencies, 0.5), percentile(latencies, 0.99)))
}
print("spawn to active (ms; \(opens) opens per round; min  median  max of \(rounds) rounds)")
print("  p50  " + spread(spawnRounds.map(\.p50), format: "%.2f"))
print("  p99  " + spread(spawnRounds.map(\.p99), format: "%.2f"))

// Memory: 50 live scene processes, each with a connection and a supervised slot.
let before = residentKiB(coordinatorPID)
for _ in 0..<50 { _ = try await control.open("scene") }
let after = residentKiB(coordinatorPID)
let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(coordinatorPID)/task")) ?? []
let children = tasks.flatMap { task in
    ((try? String(contentsOfFile: "/proc/\(coordinatorPID)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
}
let scenesKiB = children.map(residentKiB).reduce(0, +)
print("coordinator RSS: \(atStart) KiB at start, \(before) KiB before the 50 scenes, \(after) KiB with \(children.count) live scene processes (+\(after - before) KiB); the scene processes themselves: \(scenesKiB / 1024) MiB in all")
_ = try await control.dismiss(scene: "scene", force: true)
