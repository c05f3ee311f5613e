import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneWire

/// The registry a coordinator serves, as its server sees it: in the wire's JSON, whatever
/// the registry's route type. Everything but the `async` members is called on the loop
/// thread, which is the registry's executor.
protocol ServedRegistry: Sendable {
    var app: String { get }
    /// The number of the last event emitted.
    var sequence: UInt64 { get }
    /// Every event from now on, with its routes as JSON, as it is emitted.
    func observeEvents(_ body: @escaping @Sendable (SequencedEvent<JSONValue>) -> Void)
    /// Applies `call` as far as it goes now (``RegistryCall/begin(from:on:)``): its answer
    /// now, or nil when it waits, and then `waiter` gets the answer once its wait is over
    /// (on the loop, in a later turn: never before this returns). `scene`: the instance of
    /// the scene connection that asks, nil for a control one. `waiter` is made only for a
    /// call that waits, which few do.
    func begin<Call: RegistryCall>(_ call: Call, from scene: InstanceID?, answering waiter: @autoclosure () -> AnswerWaiter) -> WireAnswer?

    /// The instance a call to `scene` goes to, opened for it when the scene is
    /// activatable and none is: `body` hears it now, or once it is active (on the loop).
    func activate(_ scene: String, for request: String, _ body: @escaping @Sendable (Result<InstanceID, RegistryRejection>) -> Void)
    /// Opens `scene` (with `value`) by its rules, as `scene.open` does: `body` hears the
    /// instance once it is active (or the one focused instead), or why not.
    func open(_ scene: String, value: JSONValue?, _ body: @escaping @Sendable (Result<InstanceID, RegistryRejection>) -> Void)
    func interface(of scene: String) -> SceneInterface?
    /// See ``SceneRegistry/groupRestart(after:)``.
    func groupRestart(after id: InstanceID) -> GroupRestart
    func describe(_ scene: String) -> Result<SceneDescription, RegistryRejection>
    func isOpen(_ id: InstanceID) -> Bool
    /// The open instances of `scene`, by number.
    func instances(of scene: String) -> [InstanceID]
    /// Instance `id` as the wire describes it, or why not.
    func info(_ id: InstanceID) -> Result<InstanceInfo<JSONValue>, RegistryRejection>
    func hosting(of id: InstanceID) -> SceneHosting?
    func runsInProcess(_ id: InstanceID) -> Bool
    func callRunning(
        _ call: SceneCall, on id: InstanceID, timeout: Duration,
        completion: @escaping @Sendable (Result<ScenePayload, SceneError>) -> Void
    ) -> Bool
    func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError) -> ScenePayload
    func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError)
    func restartBehavior(_ id: InstanceID) async throws(SceneError)

    // Processes.
    func launch(of scene: String) -> (spec: LaunchSpec, restart: RestartPolicy)?
    func processSpawned(_ id: InstanceID, pid: Int32)
    func processDisconnected(_ id: InstanceID, exit: ProcessExit?)
    func processAttached(_ id: InstanceID) -> Result<InstanceInfo<JSONValue>, RegistryRejection>
    func dismissProcess(_ id: InstanceID, reason: DismissReason)

    // Off the loop.
    func snapshotWithSequence() async -> (snapshot: RegistrySnapshot<JSONValue>, seq: UInt64)
    /// What a saved session keeps: the snapshot now (on the loop).
    func sessionSnapshot() -> RegistrySnapshot<JSONValue>
    func processInstances() async -> [(id: InstanceID, phase: ScenePhase)]
    func stopBehaviors() async
}

/// Who waits for the answer of a registry call that waits: request `id` of a session.
struct AnswerWaiter: Sendable {
    let session: LoopBound<Session>
    let id: JSONValue
    /// Whether the session's later requests wait for this answer.
    let holding: Bool

    /// Hands the answer to the session (on the loop, where the registry runs).
    func answer(_ answer: WireAnswer) { session.value.answerWaited(id, answer, holding: holding) }
}

/// A registry of routes `R`, served.
struct Served<R: Route>: ServedRegistry {
    let registry: SceneRegistry<R>

    var app: String { registry.app }
    var sequence: UInt64 { registry.sequence }

    /// Runs `body` on the registry, which runs on the calling (loop) thread.
    private func on<T: Sendable>(_ body: (isolated SceneRegistry<R>) -> T) -> T {
        registry.assumingIsolation(established: registry.isOnExecutorThread, body)
    }

    func observeEvents(_ body: @escaping @Sendable (SequencedEvent<JSONValue>) -> Void) {
        // A registry of the wire's routes is observed directly: no conversion to call, and
        // no generic metadata to look up, for every event.
        if let registry = registry as? SceneRegistry<JSONValue> {
            registry.observeEvents(body)
        } else {
            registry.observeEvents { body(WireRoutes<R>.json($0)) }
        }
    }

    // Pre-specialized for the wire's routes, so that the registry is entered (``on(_:)``)
    // with nothing allocated: a coordinator's registry is most often one of JSON routes.
    @_specialize(kind: partial, where R == JSONValue)
    func begin<Call: RegistryCall>(_ call: Call, from scene: InstanceID?, answering waiter: @autoclosure () -> AnswerWaiter) -> WireAnswer? {
        switch on({ registry in call.begin(from: scene, on: registry) }) {
        case .done(let result):
            return Self.answer(result)
        case .waiting(let wait):
            // Still in this turn on the loop's thread: nothing ran on the registry since the
            // step, so its wait is watched from where the step left it.
            let waiter = waiter()
            on { registry in registry.whenFinished(wait) { _, result in waiter.answer(Self.answer(result)) } }
            return nil
        }
    }

    /// A step's answer: a registry rejection becomes the wire's error here, and only here.
    private static func answer(_ result: Result<WireAnswer, RegistryRejection>) -> WireAnswer {
        switch result {
        case .success(let answer): return answer
        case .failure(let reason): return .failure(.domain(reason))
        }
    }

    func activate(_ scene: String, for request: String, _ body: @escaping @Sendable (Result<InstanceID, RegistryRejection>) -> Void) {
        on { registry in
            switch registry.beginActivation(of: scene, for: request) {
            case .done(let result): body(result)
            case .waiting(let wait): registry.whenFinished(wait) { _, result in body(result) }
            }
        }
    }

    func open(_ scene: String, value: JSONValue?, _ body: @escaping @Sendable (Result<InstanceID, RegistryRejection>) -> Void) {
        on { registry in
            switch registry.beginOpen(scene, value: value) {
            case .done(let result): body(result.map(\.instance.id))
            case .waiting(let wait): registry.whenFinished(wait) { _, result in body(result.map(\.instance.id)) }
            }
        }
    }

    func interface(of scene: String) -> SceneInterface? { registry.interface(of: scene) }

    func groupRestart(after id: InstanceID) -> GroupRestart { on { $0.groupRestart(after: id) } }

    func describe(_ scene: String) -> Result<SceneDescription, RegistryRejection> {
        Result { () throws(RegistryRejection) in try registry.describe(scene) }
    }

    func isOpen(_ id: InstanceID) -> Bool { on { $0.instance(id) != nil } }

    func instances(of scene: String) -> [InstanceID] { on { $0.instances(of: scene) } }

    func info(_ id: InstanceID) -> Result<InstanceInfo<JSONValue>, RegistryRejection> {
        on { registry in Result { () throws(RegistryRejection) in WireRoutes<R>.json(try registry.info(id)) } }
    }

    func hosting(of id: InstanceID) -> SceneHosting? { registry.hosting(of: id) }
    func runsInProcess(_ id: InstanceID) -> Bool { registry.runsInProcess(id) }

    func callRunning(
        _ call: SceneCall, on id: InstanceID, timeout: Duration,
        completion: @escaping @Sendable (Result<ScenePayload, SceneError>) -> Void
    ) -> Bool {
        registry.callRunning(call, on: id, timeout: timeout, completion: completion)
    }

    func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError) -> ScenePayload {
        try await registry.call(call, to: target, timeout: timeout)
    }

    func notify(_ call: SceneCall, to target: SceneTarget) async throws(SceneError) {
        try await registry.notify(call, to: target)
    }

    func restartBehavior(_ id: InstanceID) async throws(SceneError) {
        try await registry.restartBehavior(id)
    }

    func launch(of scene: String) -> (spec: LaunchSpec, restart: RestartPolicy)? {
        guard let declaration = registry.declaration(of: scene), let spec = declaration.launch else { return nil }
        return (spec, declaration.restart)
    }

    func processSpawned(_ id: InstanceID, pid: Int32) { on { $0.processSpawned(id, pid: pid) } }

    func processDisconnected(_ id: InstanceID, exit: ProcessExit?) { on { $0.processDisconnected(id, exit: exit) } }

    func processAttached(_ id: InstanceID) -> Result<InstanceInfo<JSONValue>, RegistryRejection> {
        on { registry in Result { () throws(RegistryRejection) in WireRoutes<R>.json(try registry.processAttached(id)) } }
    }

    func dismissProcess(_ id: InstanceID, reason: DismissReason) { on { $0.dismissProcess(id, reason: reason) } }

    func snapshotWithSequence() async -> (snapshot: RegistrySnapshot<JSONValue>, seq: UInt64) {
        let (snapshot, seq) = await registry.snapshotWithSequence()
        return (WireRoutes<R>.json(snapshot), seq)
    }

    func processInstances() async -> [(id: InstanceID, phase: ScenePhase)] { await registry.processInstances() }

    func sessionSnapshot() -> RegistrySnapshot<JSONValue> { on { WireRoutes<R>.json($0.sessionSnapshot()) } }

    func stopBehaviors() async { await registry.stopBehaviors() }
}
