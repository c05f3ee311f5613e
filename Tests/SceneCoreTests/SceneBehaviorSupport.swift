import SceneCore
import SceneFlow
import SceneSync
import Testing

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
    var context: SceneContext<Screen>?
    let refuseClose: Bool

    init(heard: Heard, refuseClose: Bool = false) {
        self.heard = heard
        self.refuseClose = refuseClose
    }

    func start(in context: SceneContext<Screen>) async throws {
        self.context = context
        heard.add("start \(context.instance)")
    }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        switch call.method {
        case "double":
            return ScenePayload(Counted(try call.params.decode(Counted.self).number * 2))
        case "forward":
            // Calls the scene named in the params, and answers what it answered.
            let target = try call.params.decode(String.self)
            return try await context!.call(.scene(target), "double", params: ScenePayload(Counted(21)))
        case "boom":
            struct Boom: Error, CustomStringConvertible { var description: String { "it broke" } }
            throw Boom()
        case "refuse":
            throw SceneError.domain(reason: "out_of_paper", message: "no paper left")
        case "hang":
            try await Task.sleep(for: .seconds(3600))
            return .empty
        case "end":
            context!.end(throwing: try call.params.decode(Bool.self) ? SceneError.sceneFailed("asked to fail") : nil)
            return .empty
        default:
            throw SceneError.methodNotFound(call.method)
        }
    }

    func receive(_ notification: SceneCall) async { heard.add("notify \(notification.method)") }
    func flowChanged(to path: [RouteStep<Screen>]) async { heard.add("flow \(path.map(\.description))") }
    func phaseChanged(to phase: ScenePhase) async { heard.add("phase \(phase.rawValue)") }

    func close(force: Bool) async -> Bool {
        heard.add("close force=\(force)")
        return force || !refuseClose
    }

    func stop() async { heard.add("stop") }
}

/// A gate a test opens: what waits at it goes on.
final class Gate: Sendable {
    private let state = Locked<(entered: Bool, open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, false, []))

    func pass() async {
        await withCheckedContinuation { continuation in
            let through = state.withLock { state -> Bool in
                state.entered = true
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if through { continuation.resume() }
        }
    }

    func waitUntilEntered() async {
        while !state.withLock({ $0.entered }) { try? await Task.sleep(for: .milliseconds(1)) }
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
    func start(in context: SceneContext<Screen>) async throws {
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
    func start(in context: SceneContext<Screen>) async throws {
        try await context.send(.push(.list))
        try await context.send(.push(.detail(2)))
    }
}

/// A scene that ends during its own start.
actor EndsWhileStarting: SceneBehavior {
    typealias R = Screen
    func start(in context: SceneContext<Screen>) async throws { context.end() }
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
    func start(in context: SceneContext<Screen>) async throws { throw NoDisk() }
}

private func typedRegistry(
    restart: RestartPolicy = .standard, timeouts: SceneTimeouts = .standard,
    behaviors: [String: SceneBehaviorFactory<Screen>]
) throws -> SceneRegistry<Screen> {
    try SceneRegistry<Screen>(
        app: "typed",
        declarations: [
            SceneDeclaration(id: "a", kind: .window, hosting: .inProcess, restart: restart),
            SceneDeclaration(id: "b", kind: .window, hosting: .inProcess, restart: restart),
            SceneDeclaration(id: "plain", kind: .window),
        ],
        behaviors: behaviors, timeouts: timeouts)
}

/// Polls `condition` until it holds or `seconds` pass.
private func eventually(_ seconds: Double = 10, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

private func callError(_ body: () async throws(SceneError) -> ScenePayload) async -> SceneError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

@Suite("In-process scene behaviours")
struct SceneBehaviorTests {
    @Test("a typed call between in-process scenes passes its Swift values through, never encoding them")
    func typedCallsMakeNoJSON() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: ["a": { _ in Recorder(heard: heard) }, "b": { _ in Recorder(heard: heard) }])
        let a = try await registry.open("a").instance.id
        _ = try await registry.open("b")
        let before = Counted.encodings.withLock { $0 }
        let answer = try await registry.call(SceneCall(method: "forward", params: ScenePayload("b")), to: .instance(a))
        #expect(try answer.decode(Counted.self) == Counted(42))
        #expect(Counted.encodings.withLock { $0 } == before)
    }

    @Test("a behaviour hears its own path and phase changes in order, each once, after its start")
    func changesInOrder() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: ["a": { _ in Recorder(heard: heard) }, "b": { _ in Recorder(heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let b = try await registry.open("b").instance.id
        let instance = try #require(await registry.instance(a))
        try await instance.send(.push(.list))
        try await instance.send(.push(.detail(7)))
        try await instance.send(.pop)
        try await registry.setPhase(a, .background)
        // Another instance's changes are not this one's.
        try await #require(await registry.instance(b)).send(.push(.list))
        let expected = [
            "start a-1", "phase active", "flow [\"push(list)\"]", "flow [\"push(list)\", \"push(detail(7))\"]",
            "flow [\"push(list)\"]", "phase background",
        ]
        #expect(await eventually { heard.all.count >= expected.count })
        // Anything more would have been delivered by the time the dismiss's stop is.
        try await registry.dismiss(a, force: true)
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all == expected + ["close force=true", "stop"])
    }

    @Test("an interactive close is the behaviour's to refuse; a forced close is only announced, then it stops")
    func vetoAndForce() async throws {
        let heard = Heard()
        let registry = try typedRegistry(behaviors: [
            "a": { _ in Recorder(heard: heard, refuseClose: true) }, "b": { _ in Recorder(heard: heard) },
        ])
        let a = try await registry.open("a").instance.id
        await #expect(throws: RegistryRejection.closeVetoed(a)) { try await registry.dismiss(a, force: false) }
        #expect(await registry.instance(a) != nil)
        let dismissed = try await registry.dismiss(a, force: true)
        #expect(dismissed == [a])
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all.suffix(3) == ["close force=false", "close force=true", "stop"])
    }

    @Test("a behaviour whose start throws fails the open launch_failed, and the instance goes")
    func startFailure() async throws {
        let registry = try typedRegistry(behaviors: ["a": { _ in Broken() }, "b": { _ in Broken() }])
        #expect(await rejection { try await registry.open("a") }?.code == "launch_failed")
        #expect(await registry.instance(InstanceID("a-1")!) == nil)
    }

    @Test("a handler's own call error is answered as it is; any other error is scene_failed with its description")
    func handlerErrors() async throws {
        let registry = try typedRegistry(behaviors: ["a": { _ in Recorder(heard: Heard()) }, "b": { _ in Recorder(heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let own = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "refuse"), to: .instance(a)) }
        #expect(own?.reason == "out_of_paper")
        let failed = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "boom"), to: .instance(a)) }
        #expect(failed?.code == -32000)
        #expect(failed?.reason == "scene_failed")
        #expect(failed?.data["detail"] == "it broke")
        let missing = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "nope"), to: .instance(a)) }
        #expect(missing?.code == -32601)
    }

    @Test("calls are refused not_open, not_connected, reserved_method or call_timeout as the case is")
    func callRefusals() async throws {
        let registry = try typedRegistry(behaviors: ["a": { _ in Recorder(heard: Heard()) }, "b": { _ in Recorder(heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        let plain = try await registry.open("plain").instance.id
        let gone = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "x"), to: .instance(InstanceID("b-9")!)) }
        #expect(gone?.reason == "not_open")
        let virtual = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "x"), to: .instance(plain)) }
        #expect(virtual?.reason == "not_connected")
        let reserved = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "scene.x"), to: .instance(a)) }
        #expect(reserved?.reason == "reserved_method")
        let unknown = await callError { () throws(SceneError) in try await registry.call(SceneCall(method: "x"), to: .scene("nowhere")) }
        #expect(unknown?.reason == "unknown_scene")
        let slow = await callError { () throws(SceneError) in
            try await registry.call(SceneCall(method: "hang"), to: .instance(a), timeout: .milliseconds(50))
        }
        #expect(slow?.reason == "call_timeout")
        #expect(slow?.data["method"] == "hang")
    }

    @Test("a behaviour that ends with an error is restarted by its policy, keeping its path; past the policy's limit it is dismissed")
    func restartPolicy() async throws {
        let heard = Heard()
        let starts = Locked(0)
        let registry = try typedRegistry(
            restart: RestartPolicy(mode: .transient, maxRestarts: 1, withinSeconds: 60),
            behaviors: [
                "a": { _ in
                    starts.withLock { $0 += 1 }
                    return Recorder(heard: heard)
                },
                "b": { _ in Recorder(heard: heard) },
            ])
        let a = try await registry.open("a").instance.id
        try await #require(await registry.instance(a)).send(.push(.list))
        let (_, events) = registry.subscribe()
        _ = try await registry.call(SceneCall(method: "end", params: ScenePayload(true)), to: .instance(a))
        var seen: [String] = []
        for await event in events {
            seen.append(event.event.type)
            if event.event.type == "scene.restarted" { break }
        }
        #expect(seen.first == "scene.disconnected")
        #expect(seen.last == "scene.restarted")
        #expect(starts.withLock { $0 } == 2)
        #expect(try await registry.info(a).path == [.push(.list)])
        // Its second abnormal end within the window is one more than the policy allows.
        #expect(await eventually { await registry.hostingRunning(a) })
        _ = try await registry.call(SceneCall(method: "end", params: ScenePayload(true)), to: .instance(a))
        #expect(await eventually { await registry.instance(a) == nil })
    }

    @Test("the program's close policy is asked before the behaviour, and for virtual instances too; a forced close asks neither")
    func closePolicy() async throws {
        let heard = Heard()
        let asked = Locked<[InstanceID]>([])
        let registry = try SceneRegistry<Screen>(
            app: "typed",
            declarations: [
                SceneDeclaration(id: "a", kind: .window, hosting: .inProcess),
                SceneDeclaration(id: "plain", kind: .window),
            ],
            behaviors: ["a": { _ in Recorder(heard: heard) }],
            closePolicy: { id in
                asked.withLock { $0.append(id) }
                return false
            })
        let a = try await registry.open("a").instance.id
        let plain = try await registry.open("plain").instance.id
        await #expect(throws: RegistryRejection.closeVetoed(a)) { try await registry.dismiss(a, force: false) }
        await #expect(throws: RegistryRejection.closeVetoed(plain)) { try await registry.dismiss(plain, force: false) }
        #expect(asked.withLock { $0 } == [a, plain])
        #expect(!heard.all.contains { $0.hasPrefix("close") })
        try await registry.dismiss(plain, force: true)
        #expect(asked.withLock { $0 } == [a, plain])
    }

    @Test("restored in-process instances come back disconnected, then active again with new behaviours and their paths")
    func restore() async throws {
        let starts = Locked(0)
        let behaviors: [String: SceneBehaviorFactory<Screen>] = [
            "a": { _ in
                starts.withLock { $0 += 1 }
                return Recorder(heard: Heard())
            },
            "b": { _ in Recorder(heard: Heard()) },
        ]
        let first = try typedRegistry(behaviors: behaviors)
        let a = try await first.open("a").instance.id
        try await #require(await first.instance(a)).send(.push(.detail(3)))
        let snapshot = await first.snapshot()
        let second = try typedRegistry(behaviors: behaviors)
        try await second.restore(snapshot)
        #expect(await eventually { (try? await second.info(a).phase) == .active })
        #expect(starts.withLock { $0 } == 2)
        #expect(try await second.info(a).path == [.push(.detail(3))])
        let answer = try await second.call(SceneCall(method: "double", params: ScenePayload(Counted(4))), to: .instance(a))
        #expect(try answer.decode(Counted.self) == Counted(8))
    }

    @Test("a behaviour dismissed while it starts hears its start, then one forced close and one stop")
    func dismissedWhileStarting() async throws {
        let heard = Heard()
        let gate = Gate()
        let registry = try typedRegistry(behaviors: ["a": { _ in Slow(heard: heard, gate: gate) }, "b": { _ in Recorder(heard: Heard()) }])
        let opening = Task { try await registry.open("a") }
        await gate.waitUntilEntered()
        try await registry.dismiss(InstanceID("a-1")!, force: true)
        gate.open()
        await #expect(throws: RegistryRejection.self) { try await opening.value }
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all == ["start", "close force=true", "stop"])
    }

    @Test("a behaviour that ends during its start fails the open launch_failed; one that does not start in time, launch_timeout")
    func startEndsOrTimesOut() async throws {
        let ending = try typedRegistry(behaviors: ["a": { _ in EndsWhileStarting() }, "b": { _ in Recorder(heard: Heard()) }])
        #expect(await rejection { try await ending.open("a") }?.code == "launch_failed")
        let slow = try typedRegistry(
            timeouts: SceneTimeouts(start: .milliseconds(50)),
            behaviors: ["a": { _ in Slow(heard: Heard(), gate: Gate()) }, "b": { _ in Recorder(heard: Heard()) }])
        #expect(await rejection { try await slow.open("a") }?.code == "launch_timeout")
        #expect(await slow.instance(InstanceID("a-1")!) == nil)
    }

    @Test("stopping every behaviour returns within the close grace even if one never stops, and none starts after it")
    func stopBehaviorsIsBounded() async throws {
        let registry = try typedRegistry(
            timeouts: SceneTimeouts(close: .milliseconds(100)),
            behaviors: ["a": { _ in NeverStops() }, "b": { _ in Recorder(heard: Heard()) }])
        _ = try await registry.open("a")
        await registry.stopBehaviors()
        #expect(await rejection { try await registry.open("b") }?.code == "launch_failed")
    }

    @Test("a call's timeout must be positive and at most an hour, in process as on the wire")
    func timeoutBounds() async throws {
        let registry = try typedRegistry(behaviors: ["a": { _ in Recorder(heard: Heard()) }, "b": { _ in Recorder(heard: Heard()) }])
        let a = try await registry.open("a").instance.id
        for timeout in [Duration.zero, .seconds(3601), .seconds(Int64.max)] {
            let refused = await callError { () throws(SceneError) in
                try await registry.call(SceneCall(method: "double", params: ScenePayload(Counted(1))), to: .instance(a), timeout: timeout)
            }
            #expect(refused?.code == -32602, "\(timeout)")
        }
    }

    @Test("what a behaviour sends its flow while it starts is the path its instance opens with, with no event before scene.opened")
    func pathSetWhileStarting() async throws {
        let registry = try typedRegistry(behaviors: ["a": { _ in Presetting() }, "b": { _ in Recorder(heard: Heard()) }])
        let (_, events) = registry.subscribe()
        let opened = try await registry.open("a").instance
        #expect(opened.path == [.push(.list), .push(.detail(2))])
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.event.type == "scene.opened")
        if case .opened(let info)? = first?.event { #expect(info.path == [.push(.list), .push(.detail(2))]) }
    }

    @Test("a behaviour registered for a scene that does not run in process, or a scene without one, is a configuration error")
    func configuration() throws {
        #expect(throws: RegistryConfigurationError.self) {
            try typedRegistry(behaviors: ["a": { _ in Recorder(heard: Heard()) }])
        }
        #expect(throws: RegistryConfigurationError.self) {
            try typedRegistry(behaviors: [
                "a": { _ in Recorder(heard: Heard()) }, "b": { _ in Recorder(heard: Heard()) },
                "plain": { _ in Recorder(heard: Heard()) },
            ])
        }
    }
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

/// The README's in-process scene, kept here so the documentation cannot drift.
actor Counter: SceneBehavior {
    var count = 0

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard call.method == "add" else { throw SceneError.methodNotFound(call.method) }
        count += try call.params.decode(Int.self)
        return ScenePayload(count)
    }

    func close(force: Bool) async -> Bool { force || count == 0 }
}

@Suite("README example: an in-process scene")
struct ReadmeBehaviorTests {
    @Test("the README's counter adds what it is called with and refuses an interactive close once it has counted")
    func counter() async throws {
        let manifest = try Manifest(json: ["app": "tally", "scenes": [["id": "counter", "kind": "window", "in_process": true]]])
        let registry = try SceneRegistry(manifest: manifest, behaviors: ["counter": { _ in Counter() }])
        let counter = try await registry.open("counter").instance.id
        let total = try await registry.call(SceneCall(method: "add", params: ScenePayload(5)), to: .instance(counter))
        #expect(try total.decode(Int.self) == 5)
        await #expect(throws: RegistryRejection.closeVetoed(counter)) { try await registry.dismiss(counter, force: false) }
    }
}
