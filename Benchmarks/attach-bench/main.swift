// attach-bench: what attaching costs. Attach-to-active latency (a process that says hello
// with an attach token, to the answer that names its instance, active), and relayed
// `scene.call`s to a Swift scene process that reaches the coordinator through an OpenSSH
// `ssh -L` forward of its socket (a real sshd on 127.0.0.1) against one attached directly.
//
// Run with `swift build -c release && swift run -c release attach-bench [--attaches N]
// [--rounds R] [--seconds S]`. The coordinator is the release `scenectl serve` in its own
// process; the scene processes are the release `swift-scene`, attached with tokens; the
// callers are 16 SceneClient connections in this process. Installs openssh-server when
// sshd is missing.
import BenchSupport
import Foundation
import SceneClient
import SceneJSON
import SceneTesting

let sceneExecutable = ServedCoordinator.folder.appendingPathComponent("swift-scene").path
guard FileManager.default.isExecutableFile(atPath: sceneExecutable) else {
    FileHandle.standardError.write(Data("attach-bench: \(sceneExecutable) is missing; run `swift build -c release` first\n".utf8))
    exit(2)
}
let attaches = Int(option("--attaches", default: 200))
let rounds = max(1, Int(option("--rounds", default: 3)))
let duration = option("--seconds", default: 3)
let callers = 16

let manifest: JSONValue = [
    "app": "bench",
    "scenes": [
        ["id": "attached", "kind": "window", "attach": [:]],
        ["id": "near", "kind": "window", "instances": "single", "attach": [:]],
        ["id": "far", "kind": "window", "instances": "single", "attach": [:]],
    ],
]
let coordinator = try ServedCoordinator(name: "attach-bench", manifest: manifest.description)
defer { coordinator.stop() }
let socket = coordinator.socket
let folder = coordinator.temporary
let control = try await SceneConnection.connect(path: socket, client: "attach-bench", timeout: 30)
let clock = ContinuousClock()
print("attach-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; coordinator: scenectl serve; scene processes: swift-scene (release builds)")

// Attach to active: each attach opens an instance of `attached`, whose hello answer comes
// once it is active; the instance is then dismissed (its connection answers the close).
var attachRounds: [(p50: Double, p99: Double)] = []
for _ in 0..<rounds {
    var latencies: [Double] = []
    for _ in 0..<attaches {
        let token = try await control.issueToken(scene: "attached", uses: 1).token
        let start = clock.now
        let scene = try await SceneConnection.connect(path: socket, client: "attaching", role: .scene, token: token, timeout: 30) { _ in
            .success(["accepted": true])
        }
        latencies.append(seconds(clock.now - start) * 1e3)
        _ = try await control.dismiss(instance: scene.hello.instance?.id ?? "", force: true)
        scene.close()
    }
    attachRounds.append((percentile(latencies, 0.5), percentile(latencies, 0.99)))
}
print("attach to active (ms; \(attaches) attaches per round; min  median  max of \(rounds) rounds)")
print("  p50  " + spread(attachRounds.map(\.p50), format: "%.2f"))
print("  p99  " + spread(attachRounds.map(\.p99), format: "%.2f"))

// Calls relayed to a scene attached directly, and to one attached through an ssh -L forward.
let ssh = try await LoopbackSSH.start(in: folder.path)
defer { ssh.stop() }
let forwarded = folder.appendingPathComponent("forwarded.sock").path
let forward = try await ssh.forward(forwarded, to: socket)
defer { forward.close() }
var scenes: [Process] = []
defer {
    for scene in scenes where scene.isRunning {
        scene.terminate()
        scene.waitUntilExit()
    }
}
for (scene, path) in [("near", socket), ("far", forwarded)] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: sceneExecutable)
    process.environment = ProcessInfo.processInfo.environment.merging([
        "SCENE_SOCKET": path, "SCENE_TOKEN": try await control.issueToken(scene: scene, uses: 1).token,
    ]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    scenes.append(process)
}
for scene in ["near", "far"] {
    var active = false
    for _ in 0..<3000 where !active {
        active = (try? await control.status("\(scene)-1"))?.instance.phase == "active"
        if !active { try await Task.sleep(for: .milliseconds(10)) }
    }
    guard active else { fatalError("\(scene)-1 did not attach") }
}

/// `callers` connections calling `echo` of `instance` in closed loops for `duration`.
func calls(to instance: String) async throws -> (perSecond: Double, p50: Double) {
    var connections: [SceneConnection] = []
    for index in 0..<callers { connections.append(try await SceneConnection.connect(path: socket, client: "caller-\(index)", timeout: 30)) }
    defer { connections.forEach { $0.close() } }
    let deadline = clock.now + .milliseconds(Int(duration * 1000))
    let started = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for connection in connections {
            group.addTask {
                var latencies: [Double] = []
                while clock.now < deadline {
                    let start = clock.now
                    _ = try await connection.callScene(.instance(instance), method: "echo", params: ["n": 1])
                    latencies.append(seconds(clock.now - start) * 1e6)
                }
                return latencies
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    return (Double(latencies.count) / seconds(clock.now - started), percentile(latencies, 0.5))
}

var near: [(perSecond: Double, p50: Double)] = []
var far: [(perSecond: Double, p50: Double)] = []
for _ in 0..<rounds {
    near.append(try await calls(to: "near-1"))
    far.append(try await calls(to: "far-1"))
}
let nearMedian = median(near.map(\.perSecond)), farMedian = median(far.map(\.perSecond))
print("scene.call echo, \(callers) callers, \(Int(duration)) s per round (calls/s; min  median  max of \(rounds) rounds; p50 µs)")
print("  attached directly        " + spread(near.map(\.perSecond), format: "%.0f") + "   p50 " + String(format: "%.0f", median(near.map(\.p50))))
print("  attached through ssh -L  " + spread(far.map(\.perSecond), format: "%.0f") + "   p50 " + String(format: "%.0f", median(far.map(\.p50))))
print(String(format: "  ratio: %.2fx", farMedian / nearMedian))

print("")
func aim(_ text: String, _ measured: String, _ met: Bool) { print("aim: \(text) | \(measured) | \(met ? "yes" : "no")") }
let attachP50 = median(attachRounds.map(\.p50))
aim("attach to active p50 ≤ 10 ms", String(format: "%.2f ms (p99 %.2f ms)", attachP50, median(attachRounds.map(\.p99))), attachP50 <= 10)
aim("a relayed call to a scene attached through an ssh -L forward, against one attached directly (reported)",
    String(format: "%.2fx (%.0f vs %.0f calls/s)", farMedian / nearMedian, farMedian, nearMedian), true)
