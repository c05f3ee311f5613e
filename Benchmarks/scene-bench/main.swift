// scene-bench: what scene processes cost. Spawn-to-active latency of the Swift example
// scene, `scene.call` round trips through the coordinator to a scene process (1 and 16
// callers), and the coordinator's memory with 50 live scene processes.
//
// Run with `swift build -c release && swift run -c release scene-bench [--opens N]
// [--seconds S] [--rounds R]`: the scene processes are the release `swift-scene`
// executable next to this one.
import BenchSupport
import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import Synchronization

let here = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
let sceneExecutable = here.deletingLastPathComponent().appendingPathComponent("swift-scene").path
guard FileManager.default.isExecutableFile(atPath: sceneExecutable) else {
    FileHandle.standardError.write(Data("scene-bench: \(sceneExecutable) is missing; run `swift build -c release` first\n".utf8))
    exit(2)
}
let opens = Int(option("--opens", default: 100))
let duration = option("--seconds", default: 2)
let rounds = max(1, Int(option("--rounds", default: 3)))

/// The coordinator's resident memory, in KiB (`/proc/self/status`: the bench runs it).
func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("scene-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: folder) }
let manifest = try Manifest(json: [
    "app": "bench",
    "scenes": [["id": "scene", "kind": "window", "launch": ["command": [.string(sceneExecutable)]]]],
])
let configuration = CoordinatorConfiguration(socketPath: folder.appendingPathComponent("bench.sock").path)
let baseline = residentKiB()
let coordinator = try await Coordinator.start(manifest: manifest, configuration: configuration)
defer { coordinator.stop() }
let control = try await SceneConnection.connect(path: configuration.socketPath, client: "scene-bench", timeout: 30)
let clock = ContinuousClock()

print("scene-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; scene process: swift-scene (release)")

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
print("spawn to active (ms, \(opens) opens per round; min  median  max of \(rounds) rounds)")
print("  p50  " + spread(spawnRounds.map(\.p50), format: "%.2f"))
print("  p99  " + spread(spawnRounds.map(\.p99), format: "%.2f"))

// scene.call round trips: caller → coordinator → scene process → coordinator → caller.
let target = try await control.open("scene").instance.id
func calls(callers: Int) async throws -> (perSecond: Double, p50: Double, p99: Double) {
    let connections = try await withThrowingTaskGroup(of: SceneConnection.self) { group in
        for index in 0..<callers {
            group.addTask { try await SceneConnection.connect(path: configuration.socketPath, client: "caller-\(index)", timeout: 30) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
    defer { connections.forEach { $0.close() } }
    let deadline = clock.now + .milliseconds(Int(duration * 1000))
    let results = try await withThrowingTaskGroup(of: [Double].self) { group in
        for connection in connections {
            group.addTask {
                var latencies: [Double] = []
                while clock.now < deadline {
                    let start = clock.now
                    _ = try await connection.callScene(.instance(target), method: "echo", params: ["n": 1])
                    latencies.append(seconds(clock.now - start) * 1e6)
                }
                return latencies
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    return (Double(results.count) / duration, percentile(results, 0.5), percentile(results, 0.99))
}
for callers in [1, 16] {
    var measured: [(perSecond: Double, p50: Double, p99: Double)] = []
    for _ in 0..<rounds { measured.append(try await calls(callers: callers)) }
    print("scene.call with \(callers) caller\(callers == 1 ? "" : "s") (min  median  max of \(rounds) rounds of \(duration) s)")
    print("  calls/s   " + spread(measured.map(\.perSecond), format: "%.0f"))
    print("  p50 (µs)  " + spread(measured.map(\.p50), format: "%.0f"))
    print("  p99 (µs)  " + spread(measured.map(\.p99), format: "%.0f"))
}
_ = try await control.dismiss(instance: target, force: true)

// Memory: 50 live scene processes, each with a connection and a supervised slot.
let before = residentKiB()
for _ in 0..<50 { _ = try await control.open("scene") }
let after = residentKiB()
print("coordinator memory: \(baseline / 1024) MiB before start, \(before / 1024) MiB with the bench's connections, \(after / 1024) MiB with 50 live scene processes (+\(after - before) KiB, \((after - before) / 50) KiB each)")
_ = try await control.dismiss(scene: "scene", force: true)
