// behavior-bench: what in-process scenes cost.
//
// 1. Typed calls: one in-process scene calling another through its context, with the
//    app's own Swift values as params and result (no JSON made), the whole process pinned
//    to one core. The references, measured in the same run: a plain call from one actor
//    to another (what any Swift program pays to cross actors), and two tasks handing a
//    call over and back through continuations (the least a call that a deadline can end
//    costs: its caller cannot run the callee's code in its own task).
// 2. Over the wire: a coordinator embedded in this process, with an in-process echo
//    scene, driven by the C load generator (a process of its own) on 1 and 16
//    connections: `scene.call` to the in-process scene against `ping` on the same
//    coordinator, in the same run.
//
// Run with `swift build -c release && .build/release/behavior-bench [--calls N]
// [--seconds S] [--rounds R]`. It prints its aims as `aim: text | measured | yes/no`
// lines, which Benchmarks/run.sh gathers into RESULTS.md.
import BenchSupport
import Distributed
import Foundation
import Glibc
import SceneCoordinator
import SceneCore
import SceneFlow
import Synchronization

let calls = Int(option("--calls", default: 1_000_000))
let seconds = option("--seconds", default: 2)
let rounds = max(1, Int(option("--rounds", default: 3)))

// MARK: Typed calls, one core

enum Screen: Hashable, Codable, Sendable { case home }

struct Order: Codable, Sendable { var item: Int }
struct Receipt: Codable, Sendable { var total: Int }
/// How many calls the shopper makes, to which till.
struct Run: Codable, Sendable {
    var count: Int
    var till: String
    var pair: (Int, InstanceID) { (count, InstanceID(till)!) }
}

/// Answers `price` with a receipt.
actor Till: SceneBehavior {
    typealias R = Screen
    var total = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        total &+= try call.params.decode(Order.self).item
        return ScenePayload(Receipt(total: total))
    }
}

/// Calls the till `count` times, when asked to `run`.
actor Shopper: SceneBehavior {
    typealias R = Screen
    let context: SceneContext<Screen>

    init(context: SceneContext<Screen>) { self.context = context }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        let (count, till) = try call.params.decode(Run.self).pair
        var last = 0
        for item in 0..<count {
            last = try await context.call(.instance(till), "price", with: Order(item: item), as: Receipt.self).total
        }
        return ScenePayload(last)
    }
}

/// The reference: one actor calling another, nothing else.
actor PlainTill {
    var total = 0
    func price(_ order: Order) -> Receipt {
        total &+= order.item
        return Receipt(total: total)
    }
}

actor PlainShopper {
    let till = PlainTill()
    func run(_ count: Int) async -> Int {
        var last = 0
        for item in 0..<count { last = await till.price(Order(item: item)).total }
        return last
    }
}

/// The same till and shopper as distributed scenes: the shopper resolves the till by its
/// instance and calls its `distributed func` (a running local scene: the actor itself).
distributed actor DistributedTill: DistributedScene {
    typealias R = Screen
    var total = 0

    init(context: SceneContext<Screen>) { actorSystem = context.actorSystem }

    distributed func price(order: Order) -> Receipt {
        total &+= order.item
        return Receipt(total: total)
    }
}

distributed actor DistributedShopper: DistributedScene {
    typealias R = Screen

    init(context: SceneContext<Screen>) { actorSystem = context.actorSystem }

    distributed func run(count: Int, till: InstanceID) async throws -> Int {
        let till = try DistributedTill.resolve(id: .instance(till), using: actorSystem)
        var last = 0
        for item in 0..<count { last = try await till.price(order: Order(item: item)).total }
        return last
    }
}

/// The reference for distributed calls: Swift's own `LocalTestingDistributedActorSystem`
/// doing the same call.
distributed actor LocalTill {
    typealias ActorSystem = LocalTestingDistributedActorSystem
    var total = 0

    distributed func price(order: Order) -> Receipt {
        total &+= order.item
        return Receipt(total: total)
    }
}

distributed actor LocalShopper {
    typealias ActorSystem = LocalTestingDistributedActorSystem
    let till: LocalTill

    init(till: LocalTill, actorSystem: LocalTestingDistributedActorSystem) {
        self.till = till
        self.actorSystem = actorSystem
    }

    distributed func run(count: Int) async throws -> Int {
        var last = 0
        for item in 0..<count { last = try await till.price(order: Order(item: item)).total }
        return last
    }
}

/// The least a call that a deadline can end must do: its caller waits in one task while
/// the callee answers in another, so each call is two suspensions on continuations and two
/// resumptions through the executor. Here one actor's task hands an order to another's
/// parked task and waits for the receipt, with nothing else: no payload, no deadline, no
/// lookup. What a typed call costs beyond this is the scene coordinator's own.
actor HandOffTill {
    var total = 0

    /// Answers what the mailbox hands over, for ever (the bench process exits).
    func serve(_ mailbox: HandOffMailbox) async {
        while true {
            let (order, reply) = await withUnsafeContinuation { mailbox.park($0) }
            total &+= order.item
            reply.resume(returning: Receipt(total: total))
        }
    }
}

/// Where the till's task waits for the next order, or the order waits for the till.
final class HandOffMailbox: Sendable {
    typealias Delivery = (Order, UnsafeContinuation<Receipt, Never>)
    private struct Slot {
        var parked: UnsafeContinuation<Delivery, Never>?
        var pending: Delivery?
    }
    private let slot = Mutex(Slot())

    func park(_ till: UnsafeContinuation<Delivery, Never>) {
        let pending = slot.withLock { slot -> Delivery? in
            guard let pending = slot.pending else {
                slot.parked = till
                return nil
            }
            slot.pending = nil
            return pending
        }
        if let pending { till.resume(returning: pending) }
    }

    func deliver(_ order: Order, reply: UnsafeContinuation<Receipt, Never>) {
        let till = slot.withLock { slot -> UnsafeContinuation<Delivery, Never>? in
            guard let till = slot.parked else {
                slot.pending = (order, reply)
                return nil
            }
            slot.parked = nil
            return till
        }
        till?.resume(returning: (order, reply))
    }
}

actor HandOffShopper {
    let mailbox = HandOffMailbox()

    init() { Task { [till = HandOffTill(), mailbox] in await till.serve(mailbox) } }

    func run(_ count: Int) async -> Int {
        var last = 0
        for item in 0..<count {
            last = await withUnsafeContinuation { mailbox.deliver(Order(item: item), reply: $0) }.total
        }
        return last
    }
}

func perSecond(_ count: Int, _ body: () async throws -> Void) async rethrows -> Double {
    let started = ContinuousClock.now
    try await body()
    return Double(count) / BenchSupport.seconds(ContinuousClock.now - started)
}

/// Measures typed calls and the references, `rounds` times each, in this process; prints
/// one line per round: typed/s, plain/s, distributed/s, LocalTesting/s, hand-off/s.
func measureTyped() async throws {
    let registry = try SceneRegistry<Screen>(
        app: "shop",
        declarations: [
            SceneDeclaration(id: "till", kind: .window, hosting: .inProcess),
            SceneDeclaration(id: "shopper", kind: .window, hosting: .inProcess),
            SceneDeclaration(id: "dtill", kind: .window, hosting: .inProcess),
            SceneDeclaration(id: "dshopper", kind: .window, hosting: .inProcess),
        ],
        behaviors: [
            "till": { _ in Till() }, "shopper": { Shopper(context: $0) },
            "dtill": DistributedTill.behavior(DistributedTill.init), "dshopper": DistributedShopper.behavior(DistributedShopper.init),
        ])
    let till = try await registry.open("till").instance.id.description
    let shopper = try await registry.open("shopper").instance.id
    let plain = PlainShopper()
    let handOff = HandOffShopper()
    let dtill = try await registry.open("dtill").instance.id
    let dshopper = try DistributedShopper.resolve(id: .instance(try await registry.open("dshopper").instance.id), using: registry.actorSystem)
    let testing = LocalTestingDistributedActorSystem()
    let localShopper = LocalShopper(till: LocalTill(actorSystem: testing), actorSystem: testing)
    _ = try await dshopper.run(count: 10_000, till: dtill)
    _ = try await localShopper.run(count: 10_000)
    // Warm up both.
    _ = try await registry.call(SceneCall(method: "run", params: ScenePayload(Run(count: 10_000, till: till))), to: .instance(shopper))
    _ = await plain.run(10_000)
    _ = await handOff.run(10_000)
    for _ in 1...rounds {
        let typed = try await perSecond(calls) {
            _ = try await registry.call(
                SceneCall(method: "run", params: ScenePayload(Run(count: calls, till: till))), to: .instance(shopper),
                timeout: .seconds(600))
        }
        let reference = await perSecond(calls) { _ = await plain.run(calls) }
        let distributed = try await perSecond(calls) { _ = try await dshopper.run(count: calls, till: dtill) }
        let localTesting = try await perSecond(calls) { _ = try await localShopper.run(count: calls) }
        let floor = await perSecond(calls) { _ = await handOff.run(calls) }
        print("\(typed) \(reference) \(distributed) \(localTesting) \(floor)")
    }
}

if CommandLine.arguments.contains("--typed-only") {
    try await measureTyped()
    exit(0)
}
let only = CommandLine.arguments.firstIndex(of: "--only").flatMap { CommandLine.arguments.indices.contains($0 + 1) ? CommandLine.arguments[$0 + 1] : nil }

print("behavior-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; \(rounds) rounds")
// The typed figures are what one core does: measured in a copy of this program pinned to
// core 0.
let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let pinned = only != nil ? "" : try runProgram("/usr/bin/taskset", ["-c", "0", me, "--typed-only", "--calls", "\(calls)", "--rounds", "\(rounds)"])
let pairs = pinned.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.filter { $0.count == 5 }
let typed = pairs.map { $0[0] }, reference = pairs.map { $0[1] }
let distributedCalls = pairs.map { $0[2] }, localTesting = pairs.map { $0[3] }, handOff = pairs.map { $0[4] }
let handOffMedian = handOff.isEmpty ? 0 : median(handOff)
let distributedMedian = distributedCalls.isEmpty ? 0 : median(distributedCalls)
let localTestingMedian = localTesting.isEmpty ? 0 : median(localTesting)
let typedMedian = typed.isEmpty ? 0 : median(typed), referenceMedian = reference.isEmpty ? 0 : median(reference)
if only == nil {
    print("typed calls between in-process scenes, one core: \(String(format: "%.0f", typedMedian))/s (\(spread(typed, format: "%.0f")))")
    print("plain actor-to-actor calls, one core (reference): \(String(format: "%.0f", referenceMedian))/s (\(spread(reference, format: "%.0f")))")
    print(String(format: "ratio: %.3fx the plain call; %.0f ns more per call", typedMedian / referenceMedian, (1 / typedMedian - 1 / referenceMedian) * 1e9))
    print("two tasks handing a call over and back through continuations, nothing else, one core (the floor of a call a deadline can end): \(String(format: "%.0f", handOffMedian))/s (\(spread(handOff, format: "%.0f")))")
    print(String(format: "ratio: %.3fx the hand-off; %.0f ns more per call", typedMedian / handOffMedian, (1 / typedMedian - 1 / handOffMedian) * 1e9))
    print("distributed calls between in-process scenes, one core: \(String(format: "%.0f", distributedMedian))/s (\(spread(distributedCalls, format: "%.0f")))")
    print("LocalTestingDistributedActorSystem, the same call, one core (reference): \(String(format: "%.0f", localTestingMedian))/s (\(spread(localTesting, format: "%.0f")))")
}

// MARK: Over the wire

let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("c")
let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("behavior-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: work) }
let loadgen = work.appendingPathComponent("loadgen").path
_ = try runProgram("/usr/bin/gcc", ["-O2", "-Wall", "-pthread", "-o", loadgen, sources.appendingPathComponent("loadgen.c").path])

/// Answers `echo` with its params, running beside the registry on the coordinator's loop.
actor Echo: SceneBehavior {
    nonisolated let executor: UnownedSerialExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor }

    init(_ context: SceneContext<Echo.R>) { executor = context.executor }

    func answer(_ call: SceneCall) async throws -> ScenePayload { call.params }
}

/// The same, on an executor of its own (an actor's default).
actor OwnEcho: SceneBehavior {
    func answer(_ call: SceneCall) async throws -> ScenePayload { call.params }
}

let socket = work.appendingPathComponent("bench.sock").path
let manifest = try Manifest(json: [
    "app": "bench",
    "scenes": [
        ["id": "echo", "kind": "window", "in_process": true],
        ["id": "own", "kind": "window", "in_process": true],
    ],
])
let coordinator = try await Coordinator.start(
    manifest: manifest, behaviors: ["echo": { Echo($0) }, "own": { _ in OwnEcho() }],
    configuration: CoordinatorConfiguration(socketPath: socket))
try await coordinator.registry.open("echo")
try await coordinator.registry.open("own")

let hello = #"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"loadgen"}}"#
let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
let callEcho = #"{"jsonrpc":"2.0","id":2,"method":"scene.call","params":{"to":"echo-1","method":"echo","params":{"n":1}}}"#
let callOwn = #"{"jsonrpc":"2.0","id":3,"method":"scene.call","params":{"to":"own-1","method":"echo","params":{"n":1}}}"#

/// calls/s, p50 (µs) and this process's CPU per call (µs: the coordinator's) of one
/// loadgen run.
func load(_ callers: Int, _ request: String) throws -> (perSecond: Double, p50: Double, cpu: Double) {
    let before = cpuSeconds(getpid()) ?? 0
    let line = try runProgram(loadgen, [socket, "\(callers)", String(format: "%.0f", seconds), hello, request])
    let after = cpuSeconds(getpid()) ?? 0
    let fields = line.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard fields.count >= 6, fields[5] == 0, fields[0] > 0 else { throw BenchError("loadgen: \(line)") }
    return (fields[2], fields[3], (after - before) / fields[0] * 1e6)
}

// `--only KEY` (ping, loop or own) runs that case at 16 connections, for a profiler.
if let only {
    print(try load(16, ["ping": ping, "loop": callEcho, "own": callOwn][only] ?? ping))
    await coordinator.shutdown()
    exit(0)
}

var runs: [String: [(perSecond: Double, p50: Double, cpu: Double)]] = [:]
for _ in 1...rounds {
    for callers in [1, 16] {
        for (key, request) in [("ping", ping), ("loop", callEcho), ("own", callOwn)] {
            runs["\(key)/\(callers)", default: []].append(try load(callers, request))
        }
    }
}
let wire = runs
await coordinator.shutdown()

func wireMedian(_ key: String) -> (perSecond: Double, p50: Double, cpu: Double) {
    let runs = wire[key] ?? []
    return (median(runs.map(\.perSecond)), median(runs.map(\.p50)), median(runs.map(\.cpu)))
}
print("\nover the wire (C load generator; coordinator in this process)")
print("| case | 1 connection: calls/s | p50 µs | 16 connections: calls/s | ratio to ping | coordinator CPU per call, µs |")
print("|---|---|---|---|---|---|")
let ping16 = wireMedian("ping/16").perSecond
for (key, label) in [("ping", "ping"), ("loop", "scene.call, in-process scene on the loop"), ("own", "scene.call, in-process scene on its own executor")] {
    let one = wireMedian("\(key)/1"), sixteen = wireMedian("\(key)/16")
    print(String(format: "| %@ | %.0f | %.1f | %.0f | %.2fx | %.1f |", label, one.perSecond, one.p50, sixteen.perSecond,
                 sixteen.perSecond / ping16, sixteen.cpu))
}

func aim(_ text: String, _ measured: String, _ met: Bool) { print("aim: \(text) | \(measured) | \(met ? "yes" : "no")") }
let loopRatio = wireMedian("loop/16").perSecond / ping16
let ownRatio = wireMedian("own/16").perSecond / ping16
print("")
aim("scene.call to an in-process scene at 16 connections ≥ 0.8x ping",
    String(format: "%.2fx on the loop, %.2fx on its own executor (%.0f calls/s; ping %.0f)", loopRatio, ownRatio,
           wireMedian("loop/16").perSecond, ping16), loopRatio >= 0.8)
aim("distributed typed calls from one in-process scene to another ≥ 1M/s on one core",
    String(format: "%.2fM/s", distributedMedian / 1e6), distributedMedian >= 1e6)
aim("distributed typed calls between in-process scenes ≥ 0.5x LocalTestingDistributedActorSystem's",
    String(format: "%.2fx (%.2fM/s vs %.2fM/s)", distributedMedian / localTestingMedian, distributedMedian / 1e6, localTestingMedian / 1e6),
    distributedMedian >= 0.5 * localTestingMedian)
aim("typed calls from one in-process scene to another ≥ 1M/s on one core",
    String(format: "%.2fM/s (the hand-off between two tasks alone: %.2fM/s; a plain actor call: %.1fM/s)", typedMedian / 1e6,
           handOffMedian / 1e6, referenceMedian / 1e6), typedMedian >= 1e6)
