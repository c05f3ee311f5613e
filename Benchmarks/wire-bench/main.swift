// wire-bench: the coordinator against its anchors, side by side in one run.
//
// - The relay: a `scene.call` from a client through the coordinator to a scene process and
//   back, against a D-Bus method call from a client through a private `dbus-daemon` to a
//   service and back. C endpoints on both sides (Benchmarks/c: loadgen + scene, and
//   dbus-loadgen + dbus-service), so that what differs is the bus; the coordinator is also
//   measured with the Swift example scene and SceneClient callers.
// - The limit: `ping`, `flow.send` (each caller on its own instance; all of them on one
//   instance, paths up to as deep as there are callers; with a state file, as a user runs
//   `serve`), `scene.open` (a focus), `state` and durable `flow.send` against the
//   coordinator's own `ping` and a C length-prefixed echo server.
// - Fairness: a `ping` on one connection while another asks for the `state` of 100,000
//   instances, and while 50 scene processes are spawned at once.
// - Scale: 1,000 control connections making 100 requests each, and 100 connected C scene
//   processes receiving flow events (fan-out latency); the coordinator's RSS at each step.
//
// 1, 16 and 64 callers; every case once per round, in an order shuffled anew each round,
// several rounds: min, median and max are reported.
// CPU time per call is read from /proc/<pid>/stat of the coordinator and of dbus-daemon.
//
// Run it through Benchmarks/run.sh, which builds what it needs. By hand, after
// `swift build -c release`: `.build/release/wire-bench [--seconds S] [--rounds N]
// [--dbus] [--out FOLDER] [--appendix FOLDER]`. `--dbus` needs dbus-daemon and libdbus's
// headers; `--out` writes FOLDER/RESULTS.md and FOLDER/results.svg, and `--appendix` adds
// the output of the other benchmarks (FOLDER/*.txt) to RESULTS.md.
import BenchSupport
import Foundation
import Glibc
import NotebookScene
import SceneClient
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket

// MARK: Set-up


func argument(after name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let duration = option("--seconds", default: 2)
let rounds = max(1, Int(option("--rounds", default: 3)))
let withDBus = CommandLine.arguments.contains("--dbus")
/// `--only KEY,KEY…`: only these cases (keys as in the figures' table: echo, ping, flow,
/// flowstate, flowshared, open, state, durable, swiftping, looping, call, swiftscene, dbus,
/// swift, typed), whose figures are printed, and nothing else is run: for a profiler, or two
/// cases compared in one run. With it, `--callers N` runs them at N callers only.
let only = textOption("--only").map { Set($0.split(separator: ",").map(String.init)) }
let concurrency = only != nil ? textOption("--callers").flatMap(Int.init).map { [max(1, $0)] } ?? [1, 16, 64] : [1, 16, 64]

let here = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    .deletingLastPathComponent()
let scenectl = here.appendingPathComponent("scenectl").path
let swiftScene = here.appendingPathComponent("swift-scene").path
for executable in [scenectl, swiftScene] where !FileManager.default.isExecutableFile(atPath: executable) {
    FileHandle.standardError.write(Data("wire-bench: \(executable) is missing; run `swift build -c release` first\n".utf8))
    exit(2)
}
let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("c")
let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wire-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: work) }
func path(_ name: String) -> String { work.appendingPathComponent(name).path }

/// Compiles Benchmarks/c/NAME.c into the work folder.
func compile(_ name: String, flags: [String] = []) throws -> String {
    try runProgram("/usr/bin/gcc", ["-O2", "-Wall", "-pthread", "-o", path(name), sources.appendingPathComponent("\(name).c").path] + flags)
    return path(name)
}
let loadgen = try compile("loadgen")
let echoServer = try compile("echo")
let cRelay = try compile("relay")
let cScene = try compile("scene")
var dbusFlags: [String] = []
if withDBus {
    dbusFlags = try runProgram("/usr/bin/pkg-config", ["--cflags", "--libs", "dbus-1"])
        .split(whereSeparator: \.isWhitespace).map(String.init)
}

/// Processes this run started; ended when it ends.
final class Servers {
    var processes: [Process] = []
    func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        return process
    }
    /// SIGTERM, then SIGKILL for what is still running after 2 s (dbus-daemon without a
    /// session to end ignores SIGTERM).
    func stopAll() {
        for process in processes where process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(2)
        while processes.contains(where: \.isRunning), Date() < deadline { usleep(10_000) }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in processes { process.waitUntilExit() }
    }
}
let servers = Servers()
defer { servers.stopAll() }

/// The first line a process writes.
func firstLine(of pipe: Pipe) -> String {
    var data = Data()
    while !data.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        data.append(chunk)
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
}

// The C echo server: the limit.
let echoSocket = path("echo.sock")
let echoReady = Pipe()
_ = try servers.start(echoServer, [echoSocket], output: echoReady)
_ = firstLine(of: echoReady)

// The C relay with the C scene behind it: the relay's limit, a relay doing nothing but
// passing frames on (Benchmarks/c/relay.c).
let relaySocket = path("relay.sock")
let relayReady = Pipe()
let relayServer = try servers.start(cRelay, [relaySocket], output: relayReady)
_ = firstLine(of: relayReady)
let relayedScene = try servers.start(cScene, [], environment: ["SCENE_SOCKET": relaySocket, "SCENE_TOKEN": "relay", "SCENE_INSTANCE": "c-echo-1"])

// The coordinator, in a process of its own (its CPU time and memory are read from /proc).
let manifest: JSONValue = [
    "app": "wire-bench",
    "scenes": [
        ["id": "board", "kind": "window"],
        ["id": "main", "kind": "window", "instances": "single"],
        ["id": "burst", "kind": "window", "launch": ["command": [.string(cScene)]]],
        ["id": "c-echo", "kind": "window", "launch": ["command": [.string(cScene)]]],
        ["id": "swift-echo", "kind": "window", "launch": ["command": [.string(swiftScene)]]],
        ["id": "swift-typed", "kind": "window", "launch": ["command": [.string(swiftScene), "--distributed"]]],
        ["id": "listener", "kind": "window", "launch": ["command": [.string(cScene)], "env": ["BENCH_SUBSCRIBE": "1"]]],
        ["id": "deaf", "kind": "window", "launch": ["command": [.string(cScene)], "env": ["BENCH_SUBSCRIBE": "deaf"]]],
    ],
]
try manifest.description.write(toFile: path("bench.json"), atomically: true, encoding: .utf8)
let coordinatorSocket = path("coordinator.sock")
let coordinator = try servers.start(
    scenectl, ["serve", "--manifest", path("bench.json"), "--socket", coordinatorSocket],
    environment: ["SCENE_EXIT_WITH_PARENT": "1"])
var connected: SceneConnection?
for _ in 0..<1000 where connected == nil {
    connected = try? await SceneConnection.connect(path: coordinatorSocket, client: "wire-bench", timeout: 30)
    if connected == nil { try await Task.sleep(for: .milliseconds(10)) }
}
guard let control = connected else { throw BenchError("the coordinator did not start") }
let rssAtStart = residentKiB(coordinator.processIdentifier)
for _ in 1...64 { _ = try await control.open("board") }
// One more board, which every caller of the shared case pushes on and pops.
let sharedBoard = try await control.open("board").instance.id
_ = try await control.open("main")
let cEcho = try await control.open("c-echo").instance.id
let swiftEcho = try await control.open("swift-echo").instance.id
let swiftTyped = try await control.open("swift-typed").instance.id

/// The scene process the coordinator started for `instance`: its child whose environment
/// names that instance (its CPU time is read as the coordinator's is).
func sceneProcess(_ instance: String) -> Int32? {
    let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
        Processes.statFields(of: pid).map { $0.count > 1 && Int32($0[1]) == coordinator.processIdentifier } ?? false
    }
    return children.first { pid in
        guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return environment.split(separator: 0).contains { Array($0) == Array("SCENE_INSTANCE=\(instance)".utf8) }
    }
}
let cEchoProcess = sceneProcess(cEcho), swiftEchoProcess = sceneProcess(swiftEcho), swiftTypedProcess = sceneProcess(swiftTyped)

/// Starts another `scenectl serve` on `socket` with `arguments`, and connects to it.
@MainActor func startCoordinator(socket: String, _ arguments: [String]) async throws -> (Process, SceneConnection) {
    let process = try servers.start(scenectl, ["serve", "--socket", socket] + arguments, environment: ["SCENE_EXIT_WITH_PARENT": "1"])
    for _ in 0..<1000 {
        if let connection = try? await SceneConnection.connect(path: socket, client: "wire-bench", timeout: 30) { return (process, connection) }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw BenchError("the coordinator on \(socket) did not start")
}

// The demo app, for `state`: its six scenes, five of them open.
try Manifest.demo.json.description.write(toFile: path("demo.json"), atomically: true, encoding: .utf8)
let demoSocket = path("demo.sock")
let (demoCoordinator, demoControl) = try await startCoordinator(socket: demoSocket, ["--manifest", path("demo.json")])
for (scene, value) in [("main", nil), ("viewer", "42" as JSONValue?), ("notes", nil), ("globe", nil), ("theatre", nil)] {
    _ = try await demoControl.open(scene, value: value)
}
demoControl.close()

// The same app as the main coordinator's, with a state file as a user runs `serve`:
// written within a second of a change, off the request's path.
let stateSocket = path("state.sock")
let (stateCoordinator, stateControl) = try await startCoordinator(
    socket: stateSocket, ["--manifest", path("bench.json"), "--state", path("bench-state.json")])
for _ in 1...64 { _ = try await stateControl.open("board") }
stateControl.close()

// The same app as the main coordinator's, durable: every change journaled and fsynced
// before its answer.
let durableSocket = path("durable.sock")
let (durableCoordinator, durableControl) = try await startCoordinator(
    socket: durableSocket, ["--manifest", path("bench.json"), "--state", path("durable-state.json"), "--durable"])
for _ in 1...64 { _ = try await durableControl.open("board") }
durableControl.close()

// The private bus: its own config, on a socket in the work folder.
var dbusDaemon: Process?
var busAddress = ""
if withDBus {
    let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(path("bus.sock"))</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    try config.write(toFile: path("bus.conf"), atomically: true, encoding: .utf8)
    let addressPipe = Pipe()
    dbusDaemon = try servers.start("/usr/bin/dbus-daemon", ["--config-file=\(path("bus.conf"))", "--nofork", "--print-address=1"], output: addressPipe)
    busAddress = firstLine(of: addressPipe)
    guard busAddress.hasPrefix("unix:") else { throw BenchError("dbus-daemon did not start") }
    let service = try compile("dbus-service", flags: dbusFlags)
    _ = try compile("dbus-loadgen", flags: dbusFlags)
    let serviceReady = Pipe()
    _ = try servers.start(service, [busAddress], output: serviceReady)
    guard firstLine(of: serviceReady) == "ready" else { throw BenchError("the D-Bus service did not start") }
}

// MARK: Cases

let hello = #"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"loadgen"}}"#
let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
let push = #"{"jsonrpc":"2.0","id":2,"method":"flow.send","params":{"instance":"board-%d","intent":{"type":"push","route":{"screen":"page"}}}}"#
let pop = #"{"jsonrpc":"2.0","id":3,"method":"flow.send","params":{"instance":"board-%d","intent":{"type":"pop"}}}"#
let sceneCall = #"{"jsonrpc":"2.0","id":4,"method":"scene.call","params":{"to":"\#(cEcho)","method":"echo","params":{"n":1}}}"#
let swiftSceneCall = #"{"jsonrpc":"2.0","id":9,"method":"scene.call","params":{"to":"\#(swiftEcho)","method":"echo","params":{"n":1}}}"#
let relayedCall = #"{"jsonrpc":"2.0","id":4,"method":"scene.call","params":{"to":"c-echo-1","method":"echo","params":{"n":1}}}"#
// The C scene says its hello to the C relay on its own time: the relay answers calls once it has.
for attempt in 0... {
    if (try? runProgram(loadgen, [relaySocket, "1", "x1", hello, relayedCall])) != nil { break }
    guard attempt < 500 else { throw BenchError("the C scene did not connect to the C relay") }
    usleep(20_000)
}
let openMain = #"{"jsonrpc":"2.0","id":5,"method":"scene.open","params":{"scene":"main"}}"#
let pushShared = #"{"jsonrpc":"2.0","id":2,"method":"flow.send","params":{"instance":"\#(sharedBoard)","intent":{"type":"push","route":{"screen":"page"}}}}"#
let popShared = #"{"jsonrpc":"2.0","id":3,"method":"flow.send","params":{"instance":"\#(sharedBoard)","intent":{"type":"pop"}}}"#
let state = #"{"jsonrpc":"2.0","id":6,"method":"state"}"#

enum Driver {
    /// The C load generator against a length-prefixed JSON socket.
    case frames(socket: String, hello: String, requests: [String])
    /// The libdbus load generator against the private bus.
    case dbus
    /// SceneClient connections in this process, calling the Swift scene.
    case sceneClient
    /// SceneClient connections in this process, each calling `ping` from a task; with
    /// `onLoop`, a task that prefers its connection's executor.
    case sceneClientPing(onLoop: Bool)
    /// SceneClient connections in this process, each making typed calls to the Swift
    /// scene that runs as a distributed actor.
    case sceneClientTyped
}

struct Measurement {
    var perSecond: Double
    var p50: Double
    var p99: Double
    /// The longest round trip, in microseconds, when the load generator reports it.
    var longest: Double?
    /// Microseconds of the server's CPU per call (coordinator or dbus-daemon).
    var cpu: Double?
    /// Microseconds of the answering scene process's CPU per call, for a relayed call.
    var sceneCPU: Double?
}

struct Case {
    let key: String
    let label: String
    let callers: Int
    let driver: Driver
    let server: Int32?
    /// The scene process that answers the calls, for a relayed call.
    var scene: Int32? = nil
    var runs: [Measurement] = []

    func median(_ field: (Measurement) -> Double) -> Double { BenchSupport.median(runs.map(field)) }
}

var cases: [Case] = []
for callers in concurrency {
    cases.append(Case(key: "echo", label: "C echo (the limit)", callers: callers,
                      driver: .frames(socket: echoSocket, hello: "-", requests: [ping]), server: nil))
    cases.append(Case(key: "ping", label: "coordinator ping", callers: callers,
                      driver: .frames(socket: coordinatorSocket, hello: hello, requests: [ping]), server: coordinator.processIdentifier))
    cases.append(Case(key: "flow", label: "coordinator flow.send", callers: callers,
                      driver: .frames(socket: coordinatorSocket, hello: hello, requests: [push, pop]), server: coordinator.processIdentifier))
    cases.append(Case(key: "flowstate", label: "coordinator flow.send, --state", callers: callers,
                      driver: .frames(socket: stateSocket, hello: hello, requests: [push, pop]), server: stateCoordinator.processIdentifier))
    cases.append(Case(key: "flowshared", label: "coordinator flow.send, every caller on one instance", callers: callers,
                      driver: .frames(socket: coordinatorSocket, hello: hello, requests: [pushShared, popShared]), server: coordinator.processIdentifier))
    cases.append(Case(key: "open", label: "coordinator scene.open (a focus)", callers: callers,
                      driver: .frames(socket: coordinatorSocket, hello: hello, requests: [openMain]), server: coordinator.processIdentifier))
    cases.append(Case(key: "state", label: "coordinator state (demo app)", callers: callers,
                      driver: .frames(socket: demoSocket, hello: hello, requests: [state]), server: demoCoordinator.processIdentifier))
    cases.append(Case(key: "durable", label: "coordinator flow.send, --durable", callers: callers,
                      driver: .frames(socket: durableSocket, hello: hello, requests: [push, pop]), server: durableCoordinator.processIdentifier))
    cases.append(Case(key: "swiftping", label: "coordinator ping, SceneClient", callers: callers,
                      driver: .sceneClientPing(onLoop: false), server: coordinator.processIdentifier))
    cases.append(Case(key: "looping", label: "coordinator ping, SceneClient tasks on their connection's executor", callers: callers,
                      driver: .sceneClientPing(onLoop: true), server: coordinator.processIdentifier))
    cases.append(Case(key: "call", label: "scene.call, C scene", callers: callers,
                      driver: .frames(socket: coordinatorSocket, hello: hello, requests: [sceneCall]), server: coordinator.processIdentifier, scene: cEchoProcess))
    cases.append(Case(key: "relay", label: "scene.call through the C relay (the relay's limit), C scene", callers: callers,
                      driver: .frames(socket: relaySocket, hello: hello, requests: [relayedCall]), server: relayServer.processIdentifier, scene: relayedScene.processIdentifier))
    cases.append(Case(key: "swiftscene", label: "scene.call, Swift scene (C callers)", callers: callers,
                      driver: .frames(socket: coordinatorSocket, hello: hello, requests: [swiftSceneCall]), server: coordinator.processIdentifier, scene: swiftEchoProcess))
    if withDBus {
        cases.append(Case(key: "dbus", label: "D-Bus call, C service", callers: callers, driver: .dbus, server: dbusDaemon!.processIdentifier))
    }
    cases.append(Case(key: "swift", label: "scene.call, Swift scene + SceneClient", callers: callers,
                      driver: .sceneClient, server: coordinator.processIdentifier, scene: swiftEchoProcess))
    cases.append(Case(key: "typed", label: "typed call, Swift distributed scene + SceneClient", callers: callers,
                      driver: .sceneClientTyped, server: coordinator.processIdentifier, scene: swiftTypedProcess))
}

/// Parses the load generators' line: calls, seconds, calls/s, p50, p99, failed, longest.
func parse(_ line: String) throws -> (calls: Double, measurement: Measurement) {
    let fields = line.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard fields.count >= 6, fields[5] == 0 else { throw BenchError("a load generator failed: \(line)") }
    return (fields[0], Measurement(perSecond: fields[2], p50: fields[3], p99: fields[4], longest: fields.count > 6 ? fields[6] : nil))
}

/// SceneClient callers, each on its own connection, calling the Swift scene (or `ping`)
/// in a loop; with `onLoop`, each from a task that prefers its connection's executor.
func sceneClientCalls(callers: Int, ping: Bool = false, typed: Bool = false, onLoop: Bool = false) async throws
    -> (calls: Double, measurement: Measurement)
{
    let connections = try await withThrowingTaskGroup(of: SceneConnection.self) { group in
        for index in 0..<callers {
            group.addTask { try await SceneConnection.connect(path: coordinatorSocket, client: "caller-\(index)", timeout: 30) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
    defer { connections.forEach { $0.close() } }
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(duration * 1000))
    let started = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for connection in connections {
            group.addTask(executorPreference: onLoop ? connection.executor : nil) {
                var latencies: [Double] = []
                let notebook = typed ? try NotebookActor.resolve(id: .instance(InstanceID(swiftTyped)!), using: connection.actorSystem) : nil
                while clock.now < deadline {
                    let start = clock.now
                    if ping {
                        try await connection.ping()
                    } else if let notebook {
                        _ = try await notebook.echo(n: 1)
                    } else {
                        _ = try await connection.callScene(.instance(swiftEcho), method: "echo", params: ["n": 1])
                    }
                    latencies.append(seconds(clock.now - start) * 1e6)
                }
                return latencies
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    let elapsed = seconds(clock.now - started)
    return (Double(latencies.count),
            Measurement(perSecond: Double(latencies.count) / elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99)))
}

@MainActor func measure(_ entry: Case) async throws -> Measurement {
    // A caller stopped by the clock between its push and its pop leaves the page: the
    // shared board starts each run at its root, so that its paths stay as deep as there
    // are callers.
    if entry.key == "flowshared" {
        let reset = try await SceneConnection.connect(path: coordinatorSocket, client: "wire-bench/reset", timeout: 30)
        _ = try await reset.send(.reset([]), to: sharedBoard.description)
        reset.close()
    }
    let before = entry.server.flatMap(cpuSeconds), sceneBefore = entry.scene.flatMap(cpuSeconds)
    let result: (calls: Double, measurement: Measurement)
    let length = String(format: "%.0f", duration)
    switch entry.driver {
    case .frames(let socket, let hello, let requests):
        result = try parse(runProgram(loadgen, [socket, "\(entry.callers)", length, hello] + requests))
    case .dbus:
        result = try parse(runProgram(path("dbus-loadgen"), [busAddress, "\(entry.callers)", length]))
    case .sceneClient:
        result = try await sceneClientCalls(callers: entry.callers)
    case .sceneClientPing(let onLoop):
        result = try await sceneClientCalls(callers: entry.callers, ping: true, onLoop: onLoop)
    case .sceneClientTyped:
        result = try await sceneClientCalls(callers: entry.callers, typed: true)
    }
    var measurement = result.measurement
    if let before, let after = entry.server.flatMap(cpuSeconds), result.calls > 0 {
        measurement.cpu = (after - before) / result.calls * 1e6
    }
    if let sceneBefore, let after = entry.scene.flatMap(cpuSeconds), result.calls > 0 {
        measurement.sceneCPU = (after - sceneBefore) / result.calls * 1e6
    }
    return measurement
}

/// Stops the servers, removes the work folder and exits with `status`: what the top
/// level's `defer`s do at its end, which `exit` skips.
@MainActor func leave(_ status: Int32) -> Never {
    servers.stopAll()
    try? FileManager.default.removeItem(at: work)
    exit(status)
}

if let only {
    let unknown = only.subtracting(cases.map(\.key))
    cases.removeAll { !only.contains($0.key) }
    guard unknown.isEmpty, !cases.isEmpty else {
        FileHandle.standardError.write(Data("wire-bench: no case \(unknown.sorted().joined(separator: ", ")) at \(concurrency) callers (--dbus for dbus)\n".utf8))
        leave(2)
    }
}
let cores = ProcessInfo.processInfo.activeProcessorCount
print("wire-bench: \(cores) cores; \(rounds) rounds of \(Int(duration)) s per case; D-Bus: \(withDBus ? "measured" : "skipped (run with --dbus)")")
// Each round runs the cases in an order of its own, shuffled with a fixed seed (the same
// orders every run). In one fixed order a case always follows the same one, and what that
// one leaves behind weighs on it in every round: measured, a SceneClient case right after
// a case driven by the C load generator read up to 20% more calls/s than right after
// another SceneClient case, which made the typed call (always after the untyped one) look
// slower than it is.
var order = SplitMix(seed: 0x5CE4E)
for round in 1...rounds {
    for index in Array(cases.indices).shuffled(using: &order) {
        cases[index].runs.append(try await measure(cases[index]))
    }
    print("  round \(round) of \(rounds) done")
}
if only != nil {
    // The chosen cases' medians, and each against the first: then stop.
    let first = cases[0]
    for entry in cases {
        let cpu = entry.runs.compactMap(\.cpu), sceneCPU = entry.runs.compactMap(\.sceneCPU)
        let figures = String(format: "%.0f/s (p50 %.1f µs, p99 %.1f µs", entry.median(\.perSecond), entry.median(\.p50), entry.median(\.p99))
            + (cpu.isEmpty ? "" : String(format: ", server CPU %.1f µs", BenchSupport.median(cpu)))
            + (sceneCPU.isEmpty ? "" : String(format: ", scene CPU %.1f µs", BenchSupport.median(sceneCPU)))
            + String(format: "), %.3fx ", entry.median(\.perSecond) / first.median(\.perSecond))
        print("\(entry.label), \(entry.callers) callers: \(figures)\(first.key)")
    }
    leave(0)
}

// MARK: Scale

/// Runs the load generator while sampling the coordinator's RSS; returns its result and
/// the largest RSS seen.
func scaleRun(callers: Int, requests: Int, templates: [String]) throws -> (line: String, peakKiB: Int) {
    let output = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: loadgen)
    process.arguments = [coordinatorSocket, "\(callers)", "x\(requests)", hello] + templates
    process.standardOutput = output
    try process.run()
    var peak = residentKiB(coordinator.processIdentifier)
    while process.isRunning {
        peak = max(peak, residentKiB(coordinator.processIdentifier))
        usleep(20_000)  // sampling, not waiting for anything
    }
    process.waitUntilExit()
    let line = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0 else { throw BenchError("the 1,000-connection run failed: \(line)") }
    return (line.trimmingCharacters(in: .whitespacesAndNewlines), peak)
}

let rssBeforeScale = residentKiB(coordinator.processIdentifier)
let thousand = try scaleRun(callers: 1000, requests: 100, templates: [ping, sceneCall])
let thousandResult = try parse(thousand.line)
let rssAfterThousand = residentKiB(coordinator.processIdentifier)

// 100 C scene processes, each subscribed to flow events.
let listeners = 100
for _ in 0..<listeners { _ = try await control.open("listener") }
let rssWithListeners = residentKiB(coordinator.processIdentifier)
let listenerIDs = (1...listeners).map { "listener-\($0)" }
// A scene answers in order and subscribes before it reads anything else, so an answer
// from each means every subscription is in place; it also clears their samples.
for id in listenerIDs { _ = try await control.callScene(.instance(id), method: "report") }
let fanoutBoard = try await control.open("board").instance.id
let events = 200

/// Sends `events` events stamped with the time they are sent, paced 5 ms apart, each
/// by `send`; answers every arrival latency the listeners took.
func fanOut(_ send: (_ sent: Int) async throws -> Void) async throws -> [Double] {
    for _ in 0..<events {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        try await send(Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec))
        try await Task.sleep(for: .milliseconds(5))  // pacing: one event at a time, not a queue
    }
    var latencies: [Double] = []
    let clock = ContinuousClock()
    let collectDeadline = clock.now + .seconds(30)
    for id in listenerIDs {
        // The last events may still be on their way to a scene: ask until it has them all.
        var received: [Double] = []
        while received.count < events, clock.now < collectDeadline {
            let report = try await control.callScene(.instance(id), method: "report")
            received += report["latencies"]?.arrayValue?.compactMap(\.doubleValue) ?? []
            if received.count < events { try await Task.sleep(for: .milliseconds(10)) }
        }
        latencies += received
    }
    return latencies
}

// flow.changed: two flow changes per event (a push with the time, a pop).
func changeTick(_ sent: Int) async throws {
    _ = try await control.call("flow.send", params: ["instance": .string(fanoutBoard), "intent": ["type": "push", "route": ["screen": "tick", "t": .integer(sent)]]])
    _ = try await control.call("flow.send", params: ["instance": .string(fanoutBoard), "intent": ["type": "pop"]])
}
// signal.emitted: one signal per event, from the same instance.
func emitTick(_ sent: Int) async throws {
    try await control.emit("tick", payload: ["t": .integer(sent)], instance: fanoutBoard)
}
// Rounds of each, alternated, so that a slow moment of the machine falls on both.
let fanoutRounds = 3
var fanout: [Double] = []
var signalFanout: [Double] = []
for _ in 0..<fanoutRounds {
    fanout += try await fanOut(changeTick)
    signalFanout += try await fanOut(emitTick)
}
let rssAfterFanout = residentKiB(coordinator.processIdentifier)
// The same, with 100 more subscribers whose filter takes none of it.
for _ in 0..<listeners { _ = try await control.open("deaf") }
for number in 1...listeners { _ = try await control.callScene(.instance("deaf-\(number)"), method: "report") }
var fanoutBesideDeaf: [Double] = []
var signalFanoutBesideDeaf: [Double] = []
for _ in 0..<fanoutRounds {
    fanoutBesideDeaf += try await fanOut(changeTick)
    signalFanoutBesideDeaf += try await fanOut(emitTick)
}
var deafReceived = 0
for number in 1...listeners {
    deafReceived += try await control.callScene(.instance("deaf-\(number)"), method: "report")["count"]?.intValue ?? 0
}
_ = try await control.dismiss(scene: "deaf", force: true)
_ = try await control.dismiss(scene: "listener", force: true)
control.close()

// MARK: Fairness

/// Starts the load generator with `arguments` in the background.
func startLoad(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
    let output = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: loadgen)
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
    return (process, output)
}

/// The line a background load generator printed, once it has ended.
func finish(_ load: (process: Process, output: Pipe)) throws -> (calls: Double, measurement: Measurement) {
    let text = String(decoding: load.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    load.process.waitUntilExit()
    return try parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The size of one `state` answer from the coordinator at `socketPath`, read raw.
func stateAnswerBytes(socketPath: String) throws -> Int {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        let bytes = Array(socketPath.utf8)
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { throw BenchError("cannot connect to \(socketPath)") }
    func exchange(_ text: String) throws -> Int {
        let payload = Array(text.utf8)
        let frame = FrameDecoder.frame(payload)
        guard send(fd, frame, frame.count, 0) == frame.count else { throw BenchError("send failed") }
        func read(_ count: Int) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
                guard n > 0 else { throw BenchError("the connection closed") }
                got += n
            }
            return bytes
        }
        let header = try read(FrameHeader.size)
        let size = Int(header.withUnsafeBytes { FrameHeader.read($0, at: 0) })
        _ = try read(size)
        return size
    }
    _ = try exchange(hello)
    return try exchange(state)
}

let fairSeconds = String(format: "%.0f", max(3, duration * 2))

// A `state` of 100,000 instances, asked for again and again on one connection, while
// another connection pings.
let bigSocket = path("big.sock")
let bigManifest: JSONValue = ["app": "big", "scenes": [["id": "board", "kind": "window"]]]
try bigManifest.description.write(toFile: path("big.json"), atomically: true, encoding: .utf8)
let (bigCoordinator, bigControl) = try await startCoordinator(socket: bigSocket, ["--manifest", path("big.json")])
bigControl.close()
let openBoard = #"{"jsonrpc":"2.0","id":7,"method":"scene.open","params":{"scene":"board"}}"#
_ = try parse(runProgram(loadgen, [bigSocket, "16", "x6250", hello, openBoard]))
let bigStateBytes = try stateAnswerBytes(socketPath: bigSocket)
let quietPing = try parse(runProgram(loadgen, [bigSocket, "1", fairSeconds, hello, ping])).measurement
let stateLoad = try startLoad([bigSocket, "1", fairSeconds, hello, state])
let pingDuringState = try parse(runProgram(loadgen, [bigSocket, "1", fairSeconds, hello, ping])).measurement
let bigStates = try finish(stateLoad)
let bigRSS = residentKiB(bigCoordinator.processIdentifier)
bigCoordinator.terminate()

// 50 scene processes spawned at once (50 opens, each its own connection) while another
// connection pings.
let openBurst = #"{"jsonrpc":"2.0","id":8,"method":"scene.open","params":{"scene":"burst"}}"#
let pingLoad = try startLoad([coordinatorSocket, "1", fairSeconds, hello, ping])
try await Task.sleep(for: .milliseconds(500))  // the pings are under way before the burst
let burst = try parse(runProgram(loadgen, [coordinatorSocket, "50", "x1", hello, openBurst]))
let pingDuringSpawns = try finish(pingLoad).measurement
let reopened = try await SceneConnection.connect(path: coordinatorSocket, client: "wire-bench", timeout: 30)
_ = try await reopened.dismiss(scene: "burst", force: true)
reopened.close()

// MARK: Profile

/// One line of a perf report: a share of the samples, the binary, the symbol.
struct ProfileRow {
    var share: Double
    var binary: String
    var symbol: String
}

/// Where the coordinator's CPU goes while it answers `requests` for 16 callers:
/// `perf record` with the software clock on its process, when perf is installed and
/// allowed. Returns the shares by binary and the top symbols, or nil.
func profile(_ requests: [String]) -> (byBinary: [ProfileRow], bySymbol: [ProfileRow])? {
    let perf = "/usr/bin/perf"
    guard FileManager.default.isExecutableFile(atPath: perf) else { return nil }
    let load = Process()
    load.executableURL = URL(fileURLWithPath: loadgen)
    load.arguments = [coordinatorSocket, "16", "4", hello] + requests
    load.standardOutput = FileHandle.nullDevice
    do {
        try load.run()
    } catch {
        return nil
    }
    usleep(500_000)  // the callers connect and settle
    let data = path("perf.data")
    let recorded = (try? runProgram(perf, ["record", "-q", "-e", "cpu-clock", "-F", "2000", "-g", "-p", "\(coordinator.processIdentifier)", "-o", data, "--", "sleep", "2"])) != nil
    load.waitUntilExit()
    guard recorded else { return nil }
    let byBinary = perfRows(data, sort: "dso").map { fields in ProfileRow(share: fields.share, binary: fields.rest.first ?? "", symbol: "") }
    var bySymbol = perfRows(data, sort: "dso,symbol").prefix(14).map { fields in
        // "12.3%  binary  [k] symbol  -  -": the symbol is what follows the [k] or [.] mark.
        let symbol = fields.rest.dropFirst(2).filter { $0 != "-" }.joined(separator: " ")
        return ProfileRow(share: fields.share, binary: fields.rest.first ?? "", symbol: symbol)
    }
    // Swift symbols, demangled when the toolchain's demangler is at hand.
    let candidates = ["/opt/swift/usr/bin/swift-demangle", "/usr/bin/swift-demangle"]
    let mangled = bySymbol.indices.filter { bySymbol[$0].symbol.hasPrefix("$s") }
    if !mangled.isEmpty, let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
        let text = try? runProgram(tool, ["--simplified", "--compact"] + mangled.map { bySymbol[$0].symbol })
    {
        let lines = text.split(separator: "\n").map(String.init)
        if lines.count == mangled.count {
            for (index, line) in zip(mangled, lines) { bySymbol[index].symbol = line }
        }
    }
    return (byBinary, Array(bySymbol))
}

/// The rows of `perf report --sort SORT`: each line's share and its other fields.
func perfRows(_ data: String, sort: String) -> [(share: Double, rest: [String])] {
    let text = (try? runProgram("/usr/bin/perf", ["report", "-i", data, "--stdio", "--no-children", "--sort", sort, "-g", "none"])) ?? ""
    var rows: [(share: Double, rest: [String])] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("%") {
        let fields = line.split(separator: " ").map(String.init)
        guard let first = fields.first, let share = Double(first.dropLast()) else { continue }
        rows.append((share, Array(fields.dropFirst())))
    }
    return rows
}
print("  profiling the coordinator")
let relayProfile = profile([sceneCall])
let flowProfile = profile([push, pop])

// MARK: Report

@MainActor func find(_ key: String, _ callers: Int) -> Case? { cases.first { $0.key == key && $0.callers == callers } }
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2fx", a / b) }
func f0(_ value: Double) -> String { String(format: "%.0f", value) }
func f1(_ value: Double) -> String { String(format: "%.1f", value) }
func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
func spreadText(_ values: [Double], _ format: (Double) -> String) -> String {
    let sorted = values.sorted()
    return "\(format(sorted.first!)) / \(format(BenchSupport.median(sorted))) / \(format(sorted.last!))"
}

var lines: [String] = []
lines.append("## Every case (min / median / max of \(rounds) rounds of \(Int(duration)) s)")
lines.append("")
lines.append("| case | callers | calls/s | p50 µs | p99 µs | server CPU µs/call | scene CPU µs/call |")
lines.append("|---|---:|---:|---:|---:|---:|---:|")
for entry in cases {
    let cpu = entry.runs.compactMap(\.cpu), sceneCPU = entry.runs.compactMap(\.sceneCPU)
    lines.append("| \(entry.label) | \(entry.callers) | \(spreadText(entry.runs.map(\.perSecond), f0)) | \(spreadText(entry.runs.map(\.p50), f1)) | \(spreadText(entry.runs.map(\.p99), f1)) | \(cpu.isEmpty ? "—" : spreadText(cpu, f1)) | \(sceneCPU.isEmpty ? "—" : spreadText(sceneCPU, f1)) |")
}
lines.append("")

// The aims, as ratios of medians from this run.
struct Aim {
    let text: String
    let measured: String
    let met: Bool?
}
var aims: [Aim] = []
if withDBus {
    // At 16 callers the aim was raised from 2x, once 2x was met, to 3x.
    for (callers, aim) in [(16, 3.0), (64, 2.0)] {
        let call = find("call", callers)!, dbus = find("dbus", callers)!
        let times = call.median(\.perSecond) / dbus.median(\.perSecond)
        aims.append(Aim(text: "scene.call throughput at \(callers) callers ≥ \(Int(aim))x D-Bus's",
                        measured: "\(f0(call.median(\.perSecond))) vs \(f0(dbus.median(\.perSecond))) calls/s: \(ratio(call.median(\.perSecond), dbus.median(\.perSecond)))",
                        met: times >= aim))
    }
    let call1 = find("call", 1)!, dbus1 = find("dbus", 1)!
    aims.append(Aim(text: "scene.call p50 with 1 caller ≤ D-Bus's",
                    measured: "\(f1(call1.median(\.p50))) vs \(f1(dbus1.median(\.p50))) µs: \(ratio(call1.median(\.p50), dbus1.median(\.p50)))",
                    met: call1.median(\.p50) <= dbus1.median(\.p50)))
    for callers in [16, 64] {
        let call = find("call", callers)!, dbus = find("dbus", callers)!
        let coordinatorCPU = BenchSupport.median(call.runs.compactMap(\.cpu)), daemonCPU = BenchSupport.median(dbus.runs.compactMap(\.cpu))
        aims.append(Aim(text: "coordinator CPU per relayed call at \(callers) callers < 10 µs",
                        measured: "\(f1(coordinatorCPU)) µs (dbus-daemon: \(f1(daemonCPU)) µs)", met: coordinatorCPU < 10))
    }
    // What the 3x aim asks of any relay on this machine: a C relay that does nothing but
    // pass frames on, against D-Bus, and the coordinator's relay against it.
    let relay16 = find("relay", 16)!, call16 = find("call", 16)!, dbus16 = find("dbus", 16)!
    aims.append(Aim(text: "scene.call through the C relay (the relay's limit) at 16 callers against D-Bus's (reported)",
                    measured: "\(f0(relay16.median(\.perSecond))) vs \(f0(dbus16.median(\.perSecond))) calls/s: \(ratio(relay16.median(\.perSecond), dbus16.median(\.perSecond))); the coordinator's relay \(ratio(call16.median(\.perSecond), relay16.median(\.perSecond))) the C relay's (CPU per call \(f1(BenchSupport.median(call16.runs.compactMap(\.cpu)))) vs \(f1(BenchSupport.median(relay16.runs.compactMap(\.cpu)))) µs)",
                    met: nil))
} else {
    aims.append(Aim(text: "scene.call against D-Bus", measured: "skipped: D-Bus was not measured (run with --with-dbus)", met: nil))
}
/// An aim that a ratio of two cases' medians reaches `bound` (at least, or at most).
func ratioAim(_ text: String, _ a: Case, _ b: Case, _ field: KeyPath<Measurement, Double>, atLeast bound: Double? = nil,
              atMost ceiling: Double? = nil, unit: String) -> Aim {
    let x = a.median { $0[keyPath: field] }, y = b.median { $0[keyPath: field] }
    let met = bound.map { x / y >= $0 } ?? ceiling.map { x / y <= $0 } ?? true
    return Aim(text: text, measured: "\(unit == "µs" ? f1(x) : f0(x)) vs \(unit == "µs" ? f1(y) : f0(y)) \(unit): \(ratio(x, y))", met: met)
}
let ping16 = find("ping", 16)!, ping1 = find("ping", 1)!
aims.append(ratioAim("scene.open focusing an open scene at 16 connections ≥ 0.8x ping", find("open", 16)!, ping16, \.perSecond, atLeast: 0.8, unit: "requests/s"))
aims.append(ratioAim("flow.send push/pop at 16 connections ≥ 0.7x ping", find("flow", 16)!, ping16, \.perSecond, atLeast: 0.7, unit: "requests/s"))
aims.append(ratioAim("flow.send push/pop, 16 connections on one instance (paths up to 16 deep), ≥ 0.7x ping", find("flowshared", 16)!, ping16, \.perSecond, atLeast: 0.7, unit: "requests/s"))
aims.append(ratioAim("flow.send with a state file (--state) at 16 connections ≥ 0.9x without it", find("flowstate", 16)!, find("flow", 16)!, \.perSecond, atLeast: 0.9, unit: "requests/s"))
aims.append(ratioAim("state of the demo app at 16 connections ≥ 0.5x ping", find("state", 16)!, ping16, \.perSecond, atLeast: 0.5, unit: "requests/s"))
let flowCPU = BenchSupport.median(find("flow", 16)!.runs.compactMap(\.cpu))
aims.append(Aim(text: "coordinator CPU per flow.send at 16 connections ≤ 8 µs", measured: "\(f1(flowCPU)) µs (ping: \(f1(BenchSupport.median(ping16.runs.compactMap(\.cpu)))) µs)", met: flowCPU <= 8))
aims.append(ratioAim("flow.send p50 with 1 connection ≤ 1.3x ping's", find("flow", 1)!, ping1, \.p50, atMost: 1.3, unit: "µs"))
aims.append(ratioAim("--durable flow.send at 16 connections ≥ 0.5x the same without it", find("durable", 16)!, find("flow", 16)!, \.perSecond, atLeast: 0.5, unit: "requests/s"))
/// `aim` with the scene processes' CPU per call of its two cases beside it.
func withSceneCPU(_ aim: Aim, _ a: Case, _ b: Case) -> Aim {
    let x = a.runs.compactMap(\.sceneCPU), y = b.runs.compactMap(\.sceneCPU)
    guard !x.isEmpty, !y.isEmpty else { return aim }
    return Aim(text: aim.text, measured: "\(aim.measured) (the scene process's CPU per call: \(f1(BenchSupport.median(x))) vs \(f1(BenchSupport.median(y))) µs)", met: aim.met)
}
aims.append(withSceneCPU(ratioAim("scene.call to the Swift example scene at 16 callers ≥ 0.85x the C scene (C callers both)", find("swiftscene", 16)!, find("call", 16)!, \.perSecond, atLeast: 0.85, unit: "calls/s"), find("swiftscene", 16)!, find("call", 16)!))
aims.append(ratioAim("scene.call to the Swift example scene p50 with 1 caller ≤ 1.2x the C scene's", find("swiftscene", 1)!, find("call", 1)!, \.p50, atMost: 1.2, unit: "µs"))
aims.append(withSceneCPU(ratioAim("typed call to a Swift scene process (a distributed actor) at 16 callers ≥ 0.9x an untyped scene.call of the same payload (SceneClient callers both)", find("typed", 16)!, find("swift", 16)!, \.perSecond, atLeast: 0.9, unit: "calls/s"), find("typed", 16)!, find("swift", 16)!))
aims.append(ratioAim("ping from SceneClient, 16 tasks ≥ 0.7x the C load generator's", find("swiftping", 16)!, ping16, \.perSecond, atLeast: 0.7, unit: "requests/s"))
aims.append(ratioAim("ping from SceneClient, 16 tasks that prefer their connection's executor (as a scene process's behaviours do) ≥ 0.7x the C load generator's", find("looping", 16)!, ping16, \.perSecond, atLeast: 0.7, unit: "requests/s"))
aims.append(Aim(text: "ping p99 on another connection while a state of 100,000 instances is answered ≤ 100 ms",
                measured: "\(f1(pingDuringState.p99 / 1000)) ms (p50 \(f1(pingDuringState.p50)) µs, longest \(f1((pingDuringState.longest ?? 0) / 1000)) ms; without the states: p99 \(f1(quietPing.p99 / 1000)) ms); \(f0(bigStates.calls)) states of \(f1(Double(bigStateBytes) / 1_048_576)) MiB answered, p50 \(f1(bigStates.measurement.p50 / 1000)) ms each",
                met: pingDuringState.p99 <= 100_000))
aims.append(Aim(text: "ping p99 on another connection while 50 scene processes are spawned at once ≤ 100 ms",
                measured: "\(f1(pingDuringSpawns.p99 / 1000)) ms (p50 \(f1(pingDuringSpawns.p50)) µs, longest \(f1((pingDuringSpawns.longest ?? 0) / 1000)) ms); the slowest of the 50 opens took \(f0(burst.measurement.p99 / 1000)) ms",
                met: pingDuringSpawns.p99 <= 100_000))
// The in-process benchmarks print their own aims ("aim: text | measured | yes/no").
if let appendix = argument(after: "--appendix"),
    let files = try? FileManager.default.contentsOfDirectory(atPath: appendix).filter({ $0.hasSuffix(".txt") }).sorted()
{
    for file in files {
        let text = (try? String(contentsOfFile: appendix + "/" + file, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("aim: ") {
            let fields = line.dropFirst(5).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 3 else { continue }
            aims.append(Aim(text: "\(file.dropLast(4)): \(fields[0])", measured: fields[1], met: fields[2] == "yes"))
        }
    }
}
let ping64 = find("ping", 64)!, echo64 = find("echo", 64)!
// Raised from 0.5x, once that was met, to 0.9x.
aims.append(Aim(text: "ping throughput at 64 connections ≥ 0.9x the C echo's",
                measured: "\(f0(ping64.median(\.perSecond))) vs \(f0(echo64.median(\.perSecond))) requests/s: \(ratio(ping64.median(\.perSecond), echo64.median(\.perSecond)))",
                met: ping64.median(\.perSecond) >= 0.9 * echo64.median(\.perSecond)))

/// A profile's part of RESULTS.md.
func profileReport(_ profile: (byBinary: [ProfileRow], bySymbol: [ProfileRow])?, of what: String, syscalls: String) -> [String] {
    guard let profile else {
        return ["## Where the coordinator's CPU goes (\(what))", "", "Not profiled in this run: `perf` is not installed or not allowed here.", ""]
    }
    let kernel = profile.byBinary.filter { $0.binary.hasPrefix("[kernel") }.map(\.share).reduce(0, +)
    let binaries = profile.byBinary.prefix(5).map { String(format: "%.1f%% ", $0.share) + $0.binary }.joined(separator: ", ")
    var lines = [
        "## Where the coordinator's CPU goes (\(what))",
        "",
        "`perf record -e cpu-clock -g` on the coordinator for 2 s of the same load, this run. By binary: \(binaries). "
            + String(format: "The kernel's share is %.0f%%: ", kernel) + syscalls,
        "",
        "| share | binary | symbol |",
        "|---:|---|---|",
    ]
    for row in profile.bySymbol {
        let symbol = String(row.symbol.replacingOccurrences(of: "|", with: "\\|").prefix(110))
        lines.append(String(format: "| %.1f%% ", row.share) + "| \(row.binary) | `\(symbol)` |")
    }
    lines.append("")
    return lines
}
let profileLines = profileReport(
    relayProfile, of: "scene.call, C scene, 16 callers",
    syscalls: "the system calls themselves (one read and one write per call on the caller's connection; the scene's side is batched) and, in them, waking the process that was waiting.")
    + profileReport(
        flowProfile, of: "flow.send, 16 connections",
        syscalls: "one read and one write per request, and in the write, waking the caller that waits for its answer; the rest is the request's own work (parsing, the flow store, the event, the answer).")

/// A line naming the aims not met, if any.
func missedAims(_ aims: [Aim]) -> [String] {
    let missed = aims.filter { $0.met == false }
    guard !missed.isEmpty else { return [] }
    return ["", "Not met in this run: " + missed.map { "\($0.text) (\($0.measured))" }.joined(separator: "; ")
        + ". What is in the way is in the profiles at the end."]
}

var summary: [String] = []
summary.append("## Aims (ratios of medians, this run)")
summary.append("")
summary.append("| aim | measured | met |")
summary.append("|---|---|---|")
for aim in aims {
    summary.append("| \(aim.text) | \(aim.measured) | \(aim.met.map { $0 ? "yes" : "**no**" } ?? "—") |")
}
summary += missedAims(aims)
summary.append("")

var scale: [String] = []
scale.append("## Scale")
scale.append("")
scale.append("| step | result | coordinator RSS |")
scale.append("|---|---|---|")
scale.append("| at start (64 virtual boards and 2 scene processes open after it) | | \(mib(rssAtStart)) |")
scale.append("| after the comparison runs | | \(mib(rssBeforeScale)) |")
scale.append("| 1,000 control connections × 100 requests (ping and scene.call, alternating) | \(f0(thousandResult.calls)) of 100000 answered, \(f0(thousandResult.measurement.perSecond)) requests/s, p50 \(f1(thousandResult.measurement.p50)) µs, p99 \(f1(thousandResult.measurement.p99)) µs | peak \(mib(thousand.peakKiB)), after \(mib(rssAfterThousand)) |")
scale.append("| 100 C scene processes connected, each subscribed to flow events | | \(mib(rssWithListeners)) |")
scale.append("| 100,000 instances open (one scene), `state` asked again and again on one connection: \(f1(Double(bigStateBytes) / 1_048_576)) MiB each | \(f0(bigStates.calls)) answered in \(fairSeconds) s, p50 \(f1(bigStates.measurement.p50 / 1000)) ms; a ping on another connection meanwhile: p50 \(f1(pingDuringState.p50)) µs, p99 \(f1(pingDuringState.p99 / 1000)) ms, longest \(f1((pingDuringState.longest ?? 0) / 1000)) ms (without the states: p99 \(f1(quietPing.p99 / 1000)) ms) | \(mib(bigRSS)) |")
scale.append("| 50 scene processes (the C scene) opened at once, each by its own connection | all 50 active in \(f0(burst.measurement.p99 / 1000)) ms (the slowest open); a ping on another connection meanwhile: p50 \(f1(pingDuringSpawns.p50)) µs, p99 \(f1(pingDuringSpawns.p99 / 1000)) ms, longest \(f1((pingDuringSpawns.longest ?? 0) / 1000)) ms | |")
let sentPerKind = fanoutRounds * events * listeners
scale.append("| fan-out: \(events) flow changes, each an event to 100 scenes (paced 5 ms apart; \(fanoutRounds) rounds, alternated with the signals') | \(fanout.count) of \(sentPerKind) events received; latency p50 \(f1(percentile(fanout, 0.5))) µs, p99 \(f1(percentile(fanout, 0.99))) µs, max \(f1(fanout.max() ?? 0)) µs | \(mib(rssAfterFanout)) |")
scale.append("| fan-out: \(events) signals (`scene.emit`), each a `signal.emitted` to the same 100 scenes (paced 5 ms apart; \(fanoutRounds) rounds) | \(signalFanout.count) of \(sentPerKind) events received; latency p50 \(f1(percentile(signalFanout, 0.5))) µs (\(ratio(percentile(signalFanout, 0.5), percentile(fanout, 0.5))) the flow fan-out's), p99 \(f1(percentile(signalFanout, 0.99))) µs, max \(f1(signalFanout.max() ?? 0)) µs | |")
scale.append("| both again, beside 100 more scenes subscribed to signals with a filter none matches (`signals: [\"none\"]`) | the 100 that match: flow p50 \(f1(percentile(fanoutBesideDeaf, 0.5))) µs (\(ratio(percentile(fanoutBesideDeaf, 0.5), percentile(fanout, 0.5))) without them), signals p50 \(f1(percentile(signalFanoutBesideDeaf, 0.5))) µs (\(ratio(percentile(signalFanoutBesideDeaf, 0.5), percentile(signalFanout, 0.5))) without them), p99 \(f1(percentile(signalFanoutBesideDeaf, 0.99))) µs, \(signalFanoutBesideDeaf.count) of \(sentPerKind) received; the 100 that do not match received \(deafReceived) events | |")
scale.append("")

print("")
for line in summary + scale + lines + profileLines { print(line) }

// MARK: Files

/// A chart of throughput and p50 latency against callers, one line per server.
func chart(_ cases: [Case]) -> String {
    func find(_ key: String, _ callers: Int) -> Case? { cases.first { $0.key == key && $0.callers == callers } }
    let series: [(key: String, name: String, color: String)] = [
        ("echo", "C echo (the limit)", "#888888"),
        ("ping", "coordinator ping", "#2b8cbe"),
        ("flow", "coordinator flow.send", "#7bccc4"),
        ("call", "coordinator scene.call (C scene)", "#d7301f"),
        ("relay", "C relay scene.call (the relay's limit)", "#bdbdbd"),
        ("dbus", "D-Bus method call (C service)", "#6a51a3"),
        ("swiftscene", "coordinator scene.call (Swift scene, C callers)", "#fdbb84"),
        ("swift", "coordinator scene.call (Swift scene, SceneClient)", "#fc8d59"),
        ("typed", "typed call (Swift distributed scene, SceneClient)", "#91bfdb"),
    ].filter { key, _, _ in cases.contains { $0.key == key } }
    let width = 980.0, height = 470.0, panelWidth = 400.0, panelHeight = 300.0, top = 60.0
    var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" font-family="sans-serif" font-size="12">"##
    svg += ##"<rect width="100%" height="100%" fill="white"/>"##
    svg += ##"<text x="20" y="28" font-size="16" font-weight="bold">SceneCoordinator against D-Bus and the C echo limit (medians of \##(rounds) rounds, \##(cores) cores)</text>"##
    func panel(x left: Double, title: String, value: (Case) -> Double, log: Bool, unit: String) {
        let values = series.flatMap { entry in concurrency.compactMap { find(entry.key, $0).map(value) } }.filter { $0 > 0 }
        var low = values.min() ?? 1, high = values.max() ?? 1
        if log {
            low = pow(10, floor(log10(low)))
            high = pow(10, ceil(log10(high)))
        } else {
            low = 0
            let step = pow(10, floor(log10(high)))
            high = ceil(high / step) * step
        }
        func y(_ v: Double) -> Double {
            let fraction = log ? (log10(v) - log10(low)) / (log10(high) - log10(low)) : (v - low) / (high - low)
            return top + panelHeight - fraction * panelHeight
        }
        func x(_ index: Int) -> Double { left + 40 + Double(index) * (panelWidth - 80) / Double(concurrency.count - 1) }
        svg += ##"<text x="\##(left)" y="\##(top - 10)" font-weight="bold">\##(title)</text>"##
        svg += ##"<rect x="\##(left)" y="\##(top)" width="\##(panelWidth)" height="\##(panelHeight)" fill="none" stroke="#444"/>"##
        var ticks: [Double] = []
        if log {
            var tick = low
            while tick <= high * 1.001 { ticks.append(tick); tick *= 10 }
        } else {
            ticks = (0...5).map { low + (high - low) * Double($0) / 5 }
        }
        for tick in ticks {
            svg += ##"<line x1="\##(left)" x2="\##(left + panelWidth)" y1="\##(y(tick))" y2="\##(y(tick))" stroke="#ddd"/>"##
            let label = tick >= 1000 ? "\(Int(tick / 1000))k" : (tick >= 1 ? "\(Int(tick))" : String(format: "%.1f", tick))
            svg += ##"<text x="\##(left - 6)" y="\##(y(tick) + 4)" text-anchor="end">\##(label)</text>"##
        }
        for (index, callers) in concurrency.enumerated() {
            svg += ##"<text x="\##(x(index))" y="\##(top + panelHeight + 18)" text-anchor="middle">\##(callers)</text>"##
        }
        svg += ##"<text x="\##(left + panelWidth / 2)" y="\##(top + panelHeight + 36)" text-anchor="middle">callers (connections)</text>"##
        svg += ##"<text x="\##(left + 6)" y="\##(top + 16)" fill="#444">\##(unit)</text>"##
        for entry in series {
            let points = concurrency.enumerated().compactMap { index, callers in find(entry.key, callers).map { (x(index), y(value($0))) } }
            svg += ##"<polyline fill="none" stroke="\##(entry.color)" stroke-width="2" points="\##(points.map { "\($0.0),\($0.1)" }.joined(separator: " "))"/>"##
            for point in points { svg += ##"<circle cx="\##(point.0)" cy="\##(point.1)" r="3.5" fill="\##(entry.color)"/>"## }
        }
    }
    panel(x: 70, title: "Throughput", value: { $0.median(\.perSecond) }, log: false, unit: "calls per second")
    panel(x: 560, title: "Latency, p50 (log scale)", value: { $0.median(\.p50) }, log: true, unit: "microseconds")
    for (index, entry) in series.enumerated() {
        let column = Double(index % 3), row = Double(index / 3)
        let lx = 70 + column * 310, ly = top + panelHeight + 62 + row * 20
        svg += ##"<rect x="\##(lx)" y="\##(ly - 9)" width="14" height="10" fill="\##(entry.color)"/>"##
        svg += ##"<text x="\##(lx + 20)" y="\##(ly)">\##(entry.name)</text>"##
    }
    return svg + "</svg>\n"
}

if let out = argument(after: "--out") {
    let cpuModel = ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
        .split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    var system = utsname()
    uname(&system)
    let kernel = withUnsafeBytes(of: system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
    let date = ISO8601DateFormatter().string(from: Date())
    var document: [String] = [
        "# Benchmark results",
        "",
        "Written by `Benchmarks/run.sh` on \(date). Machine: \(cpuModel), \(cores) cores, \(String(format: "%.0f", memory)) GiB, Linux \(kernel). Release builds.",
        "",
        "How: every case runs once per round, in an order shuffled anew each round (with a fixed seed, so that no case always follows the same one), the cases being (C echo, coordinator ping, flow.send, scene.open, state, durable flow.send, SceneClient ping from tasks on the pool, then from tasks on their connection's executor, scene.call to the C scene, the same through a C relay that does nothing else (`Benchmarks/c/relay.c`, the relay's limit), scene.call to the Swift scene, D-Bus, Swift callers to the Swift scene, Swift callers' typed calls to the Swift scene as a distributed actor) at 1, 16 and 64 callers; \(rounds) rounds of \(Int(duration)) s each; each figure is min / median / max over the rounds, and the ratios compare medians. Callers are closed loops: one request, wait for its answer, the next. The coordinator is the release `scenectl serve` in its own process (`state` is asked of a second one serving the demo app, five of its instances open; durable `flow.send` of a third, with `--state` and `--durable`); D-Bus is a private `dbus-daemon` (\(withDBus ? "measured" : "**not measured in this run: run with `--with-dbus`**")) on a socket of its own with its own config. Both relays have C endpoints: `Benchmarks/c/loadgen.c` and `scene.c` for the coordinator, `dbus-loadgen.c` and `dbus-service.c` (libdbus) for D-Bus. Server CPU per call is the change of utime + stime in `/proc/<pid>/stat` over a run, divided by its calls; scene CPU per call, for a relayed call, is the same of the scene process that answers it.",
        "",
        "![throughput and latency against callers](results.svg)",
        "",
    ]
    document += summary + scale + lines + profileLines
    if let appendix = argument(after: "--appendix"),
        let files = try? FileManager.default.contentsOfDirectory(atPath: appendix).filter({ $0.hasSuffix(".txt") }).sorted()
    {
        document.append("## The package's other benchmarks, same run")
        document.append("")
        for file in files {
            let text = (try? String(contentsOfFile: appendix + "/" + file, encoding: .utf8)) ?? ""
            document.append("### \(file.dropLast(4))")
            document.append("")
            document.append("```")
            document.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
            document.append("```")
            document.append("")
        }
    }
    try document.joined(separator: "\n").write(toFile: out + "/RESULTS.md", atomically: true, encoding: .utf8)
    try chart(cases).write(toFile: out + "/results.svg", atomically: true, encoding: .utf8)
    print("wrote \(out)/RESULTS.md and \(out)/results.svg")
}
