// soak: a coordinator under mixed traffic and scene churn for a while, with its resident
// memory sampled over time. Fails (exit 1) when RSS after warm-up grows more than 5%.
//
//   soak --minutes M --scenectl PATH [--sample S]
//
// Run through Benchmarks/soak.sh MINUTES, which builds what it needs.
import BenchSupport
import Foundation
import SceneClient
import SceneFlow
import SceneJSON
import Synchronization

let minutes = option("--minutes", default: 1)
let sampleEvery = option("--sample", default: 5)
guard let index = CommandLine.arguments.firstIndex(of: "--scenectl"), index + 1 < CommandLine.arguments.count else {
    FileHandle.standardError.write(Data("usage: soak --minutes M --scenectl PATH [--sample S]\n".utf8))
    exit(2)
}
let scenectl = CommandLine.arguments[index + 1]

let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soak-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: folder) }
let manifestFile = folder.appendingPathComponent("soak.json").path
let manifest: JSONValue = [
    "app": "soak",
    "links": ["schemes": ["soak"], "hosts": ["soak.example"]],
    "scenes": [
        ["id": "main", "kind": "window", "instances": "single"],
        ["id": "doc", "kind": "window", "instances": "perValue",
         "links": [["pattern": "/doc/:id", "value": "${id}", "plan": [["type": "push", "route": ["doc": "${id}"]]]]]],
        ["id": "proc", "kind": "window", "launch": ["command": [.string(scenectl), "scene", "--quiet"]],
         "restart": ["policy": "permanent", "maxRestarts": 1000, "withinSeconds": 60]],
    ],
]
try manifest.description.write(toFile: manifestFile, atomically: true, encoding: .utf8)
let socket = folder.appendingPathComponent("soak.sock").path
let coordinator = Process()
coordinator.executableURL = URL(fileURLWithPath: scenectl)
coordinator.arguments = ["serve", "--manifest", manifestFile, "--socket", socket, "--state", folder.appendingPathComponent("state.json").path]
coordinator.standardOutput = FileHandle.nullDevice
coordinator.standardError = FileHandle.nullDevice
try coordinator.run()
defer {
    coordinator.terminate()
    coordinator.waitUntilExit()
}
func connect(_ name: String) async throws -> SceneConnection {
    for _ in 0..<1000 {
        if let connection = try? await SceneConnection.connect(path: socket, client: name, timeout: 30) { return connection }
        try await Task.sleep(for: .milliseconds(10))
    }
    fatalError("the coordinator did not start")
}

let duration = Duration.milliseconds(Int(minutes * 60_000))
let deadline = ContinuousClock.now + duration
let operations = Atomic<Int>(0)
let failures = Atomic<Int>(0)

/// Counts one request; a refusal is fine (the traffic is meant to hit every rule), a lost
/// connection is not.
@MainActor
func count(_ body: () async throws -> Void) async {
    do {
        try await body()
    } catch let error as ClientError {
        if case .remote = error {} else { failures.add(1, ordering: .relaxed) }
    } catch {
        failures.add(1, ordering: .relaxed)
    }
    operations.add(1, ordering: .relaxed)
}

let control = try await connect("soak-control")
_ = try await control.open("main")
print("soak: \(minutes) min against scenectl serve (pid \(coordinator.processIdentifier)); RSS every \(sampleEvery) s")

let workers = (0..<4).map { worker in
    Task {
        var step = 0
        // Connections come and go too.
        while ContinuousClock.now < deadline {
            guard let connection = try? await connect("soak-\(worker)") else { continue }
            for _ in 0..<200 where ContinuousClock.now < deadline {
                step += 1
                switch step % 8 {
                case 0: await count { _ = try await connection.send(.push(.integer(step)), to: "main-1") }
                case 1: await count { _ = try await connection.send(.pop, to: "main-1") }
                case 2: await count { _ = try await connection.open("doc", value: .string("d\(step % 50)")) }
                case 3: await count { _ = try await connection.dismiss(scene: "doc", value: .string("d\((step + 25) % 50)"), force: true) }
                case 4: await count { _ = try await connection.openLink("soak://soak.example/doc/\(step % 70)") }
                case 5: await count { _ = try await connection.state() }
                case 6: await count { _ = try await connection.callScene(.scene("proc"), method: "echo", params: ["n": .integer(step)]) }
                default:
                    await count {
                        let (_, events) = try await connection.subscribe(topics: [.scene])
                        _ = events
                        try await connection.unsubscribe()
                    }
                }
            }
            connection.close()
        }
    }
}
// Scene churn: open a process scene, call it, dismiss it; now and then kill one.
let churn = Task {
    var round = 0
    while ContinuousClock.now < deadline {
        round += 1
        await count {
            let opened = try await control.open("proc")
            _ = try await control.callScene(.instance(opened.instance.id), method: "title")
            if round % 3 == 0 {
                _ = try await control.dismiss(instance: opened.instance.id, force: true)
            }
        }
        if round % 5 == 0, let state = try? await control.state() {
            let open = state.instances.filter { $0.scene == "proc" }
            // Keep a handful alive; kill one process (the coordinator restarts it).
            for extra in open.dropFirst(6) { await count { _ = try await control.dismiss(instance: extra.id, force: true) } }
            if let victim = open.first {
                await count { _ = try await control.callScene(.instance(victim.id), method: "echo") }
            }
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
}

var samples: [(seconds: Double, kib: Int)] = []
let start = ContinuousClock.now
while ContinuousClock.now < deadline {
    try await Task.sleep(for: .milliseconds(Int(sampleEvery * 1000)))
    let kib = residentKiB(coordinator.processIdentifier)
    let elapsed = seconds(ContinuousClock.now - start)
    samples.append((elapsed, kib))
    print(String(format: "  %6.0f s  RSS %7d KiB  %9d requests", elapsed, kib, operations.load(ordering: .relaxed)))
}
for worker in workers { await worker.value }
await churn.value

// Warm-up: the first fifth of the run (caches, pools, the allocator's arenas).
let warm = samples.filter { $0.seconds >= seconds(duration) / 5 }
guard let baseline = warm.first?.kib, let peak = warm.map(\.kib).max() else {
    print("soak: too short to judge (no sample after warm-up)")
    exit(1)
}
let growth = Double(peak - baseline) / Double(baseline) * 100
let total = operations.load(ordering: .relaxed)
print(String(format: "soak: %d requests (%.0f/s), %d lost connections; RSS after warm-up %d KiB, peak %d KiB: %+.1f%%",
             total, Double(total) / seconds(duration), failures.load(ordering: .relaxed), baseline, peak, growth))
if failures.load(ordering: .relaxed) > 0 || growth > 5 {
    print("soak: FAILED (RSS may grow at most 5% after warm-up, and no connection may be lost)")
    exit(1)
}
print("soak: passed")
