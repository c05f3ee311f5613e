import SceneCore
import SceneFlow
import SceneSocket
import SceneSync
import SceneTesting
import Testing

// What the in-process behaviour suites share: an app's own route type, behaviours that
// record, wait, fail or never stop, and a registry that hosts them.

/// An app's own routes: no JSON anywhere.
enum Screen: Hashable, Codable, Sendable {
    case list
    case detail(Int)
}

/// A payload that counts how often it is encoded: in process it must never be.
struct Counted: Codable, Sendable, Equatable {
    static let encodings = Locked(0)
    let number: Int

    init(_ number: Int) { self.number = number }

    func encode(to encoder: any Encoder) throws {
        Counted.encodings.withLock { $0 += 1 }
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    init(from decoder: any Decoder) throws {
        number = try decoder.singleValueContainer().decode(Int.self)
    }
}

/// What a behaviour heard, in order.
final class Heard: Sendable {
    let lines = Locked<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// A scene that records what it hears and answers a few methods.
actor Recorder: SceneBehavior {
    typealias R = Screen
    let heard: Heard
    let context: SceneContext<Screen>
    let refuseClose: Bool

    init(_ context: SceneContext<Screen>, heard: Heard, refuseClose: Bool = false) {
        self.context = context
        self.heard = heard
        self.refuseClose = refuseClose
    }

    func start() async throws {
        heard.add("start \(context.instance)")
    }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        switch call.method {
        case "double":
            return ScenePayload(Counted(try call.params.decode(Counted.self).number * 2))
        case "forward":
            // Calls the scene named in the params, and answers what it answered.
            let target = try call.params.decode(String.self)
            return try await context.call(.scene(target), "double", params: ScenePayload(Counted(21)))
        case "push":
            try await context.send(.push(.list))
            return .empty
        case "reconcile":
            let result = try await context.reconcile(observed: [.push(.detail(5))], policy: .adopt)
            return ScenePayload(json: .string(result.outcome.rawValue))
        case "boom":
            struct Boom: Error, CustomStringConvertible { var description: String { "it broke" } }
            throw Boom()
        case "refuse":
            throw SceneError.domain(reason: "out_of_paper", message: "no paper left")
        case "hang":
            try await Task.sleep(for: .seconds(3600))
            return .empty
        case "end":
            context.end(throwing: try call.params.decode(Bool.self) ? SceneError.sceneFailed("asked to fail") : nil)
            return .empty
        default:
            throw SceneError.methodNotFound(call.method)
        }
    }

    func receive(_ notification: SceneCall) async { heard.add("notify \(notification.method)") }
    func flowChanged(to path: [RouteStep<Screen>]) async { heard.add("flow \(path.map(\.description))") }
    func phaseChanged(to phase: ScenePhase) async { heard.add("phase \(phase.rawValue)") }
    func parentDismissed() async { heard.add("parent dismissed") }

    func close(force: Bool) async -> Bool {
        heard.add("close force=\(force)")
        return force || !refuseClose
    }

    func stop() async { heard.add("stop") }
}

/// A gate a test opens: what waits at it goes on.
final class Gate: Sendable {
    private struct State {
        var entered = false
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Tests waiting for something to reach the gate.
        var watchers: [Wake] = []
    }

    private let state = Locked(State())

    func pass() async {
        await withCheckedContinuation { continuation in
            let (through, watchers) = state.withLock { state -> (Bool, [Wake]) in
                state.entered = true
                if !state.open { state.waiters.append(continuation) }
                defer { state.watchers.removeAll() }
                return (state.open, state.watchers)
            }
            for watcher in watchers { watcher.resume() }
            if through { continuation.resume() }
        }
    }

    /// Returns once something has reached the gate, woken by it; a minute without records
    /// a thread dump and fails the test.
    func waitUntilEntered(sourceLocation: SourceLocation = #_sourceLocation) async {
        let entered = await waitForWake(within: .seconds(60)) { wake in
            let now = state.withLock { state -> Bool in
                if !state.entered { state.watchers.append(wake) }
                return state.entered
            }
            if now { wake.resume() }
        }
        if !entered {
            let dump = await ThreadDump.record(because: "a gate")
            Issue.record("nothing reached the gate within a minute; every thread's backtrace: \(dump)", sourceLocation: sourceLocation)
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A scene whose start waits at a gate.
actor Slow: SceneBehavior {
    typealias R = Screen
    let heard: Heard
    let gate: Gate
    init(heard: Heard, gate: Gate) {
        self.heard = heard
        self.gate = gate
    }
    func start() async throws {
        await gate.pass()
        heard.add("start")
    }
    func close(force: Bool) async -> Bool {
        heard.add("close force=\(force)")
        return true
    }
    func stop() async { heard.add("stop") }
}

/// A scene that sets up its path while it starts.
actor Presetting: SceneBehavior {
    typealias R = Screen
    let context: SceneContext<Screen>
    init(_ context: SceneContext<Screen>) { self.context = context }
    func start() async throws {
        try await context.send(.push(.list))
        try await context.send(.push(.detail(2)))
    }
}

/// A scene that ends during its own start.
actor EndsWhileStarting: SceneBehavior {
    typealias R = Screen
    let context: SceneContext<Screen>
    init(_ context: SceneContext<Screen>) { self.context = context }
    func start() async throws { context.end() }
}

/// A scene whose stop does not return while a test runs.
actor NeverStops: SceneBehavior {
    typealias R = Screen
    func stop() async {
        try? await Task.sleep(for: .seconds(3600))
    }
}

/// A scene whose start fails.
actor Broken: SceneBehavior {
    typealias R = Screen
    struct NoDisk: Error {}
    func start() async throws { throw NoDisk() }
}

/// Timeouts no test waits out by accident: a test of a timeout gives its own, on a manual
/// clock. (The standard 3 s to answer a close, on a machine busy with the whole suite
/// under a sanitizer, could count a late refusal as consent.)
let patient = SceneTimeouts(start: .seconds(300), call: .seconds(300), close: .seconds(300))

/// A registry of two in-process window scenes, `a` and `b`, and one virtual window, `plain`.
func typedRegistry(
    restart: RestartPolicy = .standard, timeouts: SceneTimeouts = patient, time: (any TimeSource)? = nil,
    behaviors: [String: SceneBehaviorFactory<Screen>]
) throws -> SceneRegistry<Screen> {
    try SceneRegistry<Screen>(
        app: "typed",
        declarations: [
            SceneDeclaration(id: "a", kind: .window, hosting: .inProcess, restart: restart),
            SceneDeclaration(id: "b", kind: .window, hosting: .inProcess, restart: restart),
            SceneDeclaration(id: "plain", kind: .window),
        ],
        behaviors: behaviors, timeouts: timeouts, time: time)
}

extension SceneRegistry {
    /// Whether `id` has a running behaviour that answers calls.
    func hostingRunning(_ id: InstanceID) async -> Bool {
        do {
            _ = try await call(SceneCall(method: "nope"), to: .instance(id))
        } catch {
            return error.reason != "not_connected"
        }
        return true
    }
}
