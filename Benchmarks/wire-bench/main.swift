// wire-bench: `ping` and `flow.send` round trips through a coordinator with 1 and 64
// connections, against a C length-prefixed echo server (the physical limit of a Unix
// socket here), in interleaved rounds of the same run.
//
// Run with `swift run -c release wire-bench [--seconds S] [--rounds N]`. It needs gcc: the
// echo server and the load generator (both C, so that the same client drives both
// servers) are built from Benchmarks/wire-bench/c into a temporary folder.
import BenchSupport
import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow

let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("c")
let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wire-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: work) }

/// Runs a program to completion and returns its standard output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(domain: "wire-bench", code: Int(process.terminationStatus),
                      userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed"])
    }
    return String(decoding: data, as: UTF8.self)
}

let gcc = "/usr/bin/gcc"
try run(gcc, ["-O2", "-o", work.appendingPathComponent("echo").path, sources.appendingPathComponent("echo.c").path])
try run(gcc, ["-O2", "-pthread", "-o", work.appendingPathComponent("loadgen").path, sources.appendingPathComponent("loadgen.c").path])

let duration = Int(option("--seconds", default: 2))
let rounds = max(1, Int(option("--rounds", default: 3)))

// The C echo server, in its own process.
let echoPath = work.appendingPathComponent("echo.sock").path
let echo = Process()
echo.executableURL = work.appendingPathComponent("echo")
echo.arguments = [echoPath]
let echoOutput = Pipe()
echo.standardOutput = echoOutput
try echo.run()
defer {
    echo.terminate()
    echo.waitUntilExit()
}
_ = echoOutput.fileHandleForReading.availableData  // "ready"

// The coordinator, serving the demo app, with 64 viewers open for flow.send.
let coordinatorPath = work.appendingPathComponent("demo.sock").path
let coordinator = try Coordinator(
    registry: SceneRegistry(manifest: .demo), configuration: CoordinatorConfiguration(socketPath: coordinatorPath))
defer { coordinator.stop() }
let setup = try await SceneConnection.connect(path: coordinatorPath, client: "wire-bench")
for value in 1...64 { try await setup.open("viewer", value: .integer(value)) }
setup.close()

let hello = #"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"loadgen"}}"#
let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
let push = #"{"jsonrpc":"2.0","id":2,"method":"flow.send","params":{"instance":"viewer-%d","intent":{"type":"push","route":{"screen":"page"}}}}"#
let pop = #"{"jsonrpc":"2.0","id":3,"method":"flow.send","params":{"instance":"viewer-%d","intent":{"type":"pop"}}}"#

struct Case {
    let label: String
    let connections: Int
    let arguments: [String]
    var throughput: [Double] = []
    var p50: [Double] = []
    var p99: [Double] = []
}

var cases = [
    Case(label: "C echo", connections: 1, arguments: [echoPath, "1", "\(duration)", "-", ping]),
    Case(label: "coordinator ping", connections: 1, arguments: [coordinatorPath, "1", "\(duration)", hello, ping]),
    Case(label: "coordinator flow.send", connections: 1, arguments: [coordinatorPath, "1", "\(duration)", hello, push, pop]),
    Case(label: "C echo", connections: 64, arguments: [echoPath, "64", "\(duration)", "-", ping]),
    Case(label: "coordinator ping", connections: 64, arguments: [coordinatorPath, "64", "\(duration)", hello, ping]),
    Case(label: "coordinator flow.send", connections: 64, arguments: [coordinatorPath, "64", "\(duration)", hello, push, pop]),
]

print("wire-bench: \(rounds) interleaved rounds of \(duration) s per case; the same C client drives both servers")
for _ in 0..<rounds {
    for index in cases.indices {
        let fields = try run(work.appendingPathComponent("loadgen").path, cases[index].arguments)
            .split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        cases[index].throughput.append(fields[2])
        cases[index].p50.append(fields[3])
        cases[index].p99.append(fields[4])
    }
}

print("  case                            requests/s (min median max)        p50 µs   p99 µs   (medians)")
for entry in cases {
    print("  " + padded("\(entry.label), \(entry.connections) conn", 30) + spread(entry.throughput, format: "%9.0f")
        + "   " + String(format: "%7.1f  %7.1f", median(entry.p50), median(entry.p99)))
}
let measured = cases
func find(_ label: String, _ connections: Int) -> Case { measured.first { $0.label == label && $0.connections == connections }! }
let echo64 = find("C echo", 64), ping64 = find("coordinator ping", 64)
let echo1 = find("C echo", 1), ping1 = find("coordinator ping", 1)
print(String(format: "  ping throughput at 64 connections: %.2fx the C echo (aim: at least 0.5x)",
             median(ping64.throughput) / median(echo64.throughput)))
print(String(format: "  ping p50 with 1 connection: %.2fx the C echo's (aim: within 1.5x)", median(ping1.p50) / median(echo1.p50)))
