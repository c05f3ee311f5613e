public import Distributed
public import SceneFlow
public import SceneJSON

/// A scene's code as a Swift `distributed actor`: its `distributed func`s are the methods
/// other scenes, the embedding program and clients in other processes call, with the
/// compiler checking names, argument types and the result.
///
/// ```swift
/// distributed actor Notes: DistributedScene {
///     let context: SceneContext<JSONValue>
///     init(context: SceneContext<JSONValue>) {
///         self.context = context
///         actorSystem = context.actorSystem
///     }
///     distributed func save(draft: String, count: Int) -> Int { draft.count * count }
/// }
/// // Hosted as a scene's behaviour, in process or in a scene process:
/// Window("notes", behavior: Notes.behavior(Notes.init))
/// // Called from anywhere:
/// let notes = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
/// let total = try await notes.save(draft: "hello", count: 2)
/// ```
///
/// It is hosted as a ``SceneBehavior`` is (``behavior(_:)`` makes the factory), with the
/// same lifecycle and context: ``start()``, ``flowChanged(to:)``, ``phaseChanged(to:)``,
/// ``close(force:)`` and ``stop()`` have the meaning they have there, and each has a
/// default. A call reaches it by its wire name (``SceneActorSystem``); a call of a name it
/// does not declare is -32601.
public protocol DistributedScene: DistributedActor where ActorSystem == SceneActorSystem {
    /// What the instance's navigation steps show.
    associatedtype R: Route = JSONValue

    /// Starts the scene; the instance is `opening` until this returns.
    func start() async throws

    /// The instance's path changed.
    func flowChanged(to path: [RouteStep<R>]) async

    /// The instance's phase changed.
    func phaseChanged(to phase: ScenePhase) async

    /// Whether the instance may close; `force` says it closes whatever the answer.
    func close(force: Bool) async -> Bool

    /// The instance is gone.
    func stop() async
}

extension DistributedScene {
    /// Does nothing: the instance becomes `active` at once.
    public func start() async throws {}

    /// Ignores the change.
    public func flowChanged(to path: [RouteStep<R>]) async {}

    /// Ignores the change.
    public func phaseChanged(to phase: ScenePhase) async {}

    /// Accepts every close.
    public func close(force: Bool) async -> Bool { true }

    /// Does nothing.
    public func stop() async {}

    /// A factory that hosts this type as a scene's behaviour: `make` makes the actor of
    /// each instance, with its context, and the actor's id is that instance.
    ///
    /// Register it as any behaviour (a `Window`'s `behavior`, a registry's `behaviors`, a
    /// scene process's `SceneProcess.run`): where it runs is the scene's declaration's choice.
    public static func behavior(_ make: @escaping @Sendable (SceneContext<R>) -> Self) -> SceneBehaviorFactory<R> {
        { context in
            let scene = SceneActorSystem.$assigning.withValue(context.instance) { make(context) }
            return DistributedSceneHost(scene, system: context.actorSystem, instance: context.instance)
        }
    }
}

/// Hosts a ``DistributedScene`` as a ``SceneBehavior``: its lifecycle passed on, and each
/// call run as the distributed function the call names, on the actor itself.
actor DistributedSceneHost<Scene: DistributedScene>: SceneBehavior {
    typealias R = Scene.R

    let scene: Scene
    let system: SceneActorSystem
    let instance: InstanceID
    /// The functions the scene's type declares, by wire name, each with what runs it.
    let functions: [String: (entry: DistributedFunctions.Entry, target: DistributedTarget?)]

    /// The scene's own executor: the host hands it each call with no hop between them (and
    /// none at all for a scene that runs on ``SceneActorSystem/executor``).
    nonisolated var unownedExecutor: UnownedSerialExecutor { scene.unownedExecutor }

    init(_ scene: Scene, system: SceneActorSystem, instance: InstanceID) {
        self.scene = scene
        self.system = system
        self.instance = instance
        functions = DistributedFunctions.declared(by: Scene.self).mapValues { entry in
            (entry, entry.identifier.flatMap(DistributedTarget.named))
        }
    }

    func start() async throws {
        try await scene.whenLocal { try await $0.start() }
    }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let (entry, target) = functions[call.method] else { throw SceneError.methodNotFound(call.method) }
        guard let identifier = entry.identifier else {
            throw SceneError.methodNotFound("\(call.method): \(Scene.self) has more than one function of that name")
        }
        var decoder = try SceneInvocationDecoder(call.params, method: call.method, entry: entry, system: system)
        if let target {
            return try await target.execute(on: scene, decoder: &decoder)
        }
        let handler = SceneResultHandler()
        do {
            try await system.executeDistributedTarget(
                on: scene, target: RemoteCallTarget(identifier), invocationDecoder: &decoder, handler: handler)
        } catch {
            // What the arguments' decoding threw (-32602), or the runtime's refusal.
            throw SceneError(thrown: error)
        }
        return try handler.result.get()
    }

    func flowChanged(to path: [RouteStep<R>]) async {
        await scene.whenLocal { await $0.flowChanged(to: path) }
    }

    func phaseChanged(to phase: ScenePhase) async {
        await scene.whenLocal { await $0.phaseChanged(to: phase) }
    }

    func close(force: Bool) async -> Bool {
        await scene.whenLocal { await $0.close(force: force) } ?? true
    }

    func stop() async {
        system.retire(instance, scene)
        await scene.whenLocal { await $0.stop() }
    }
}
