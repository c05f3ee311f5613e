public import Distributed
import SceneFlow
import SceneJSON
import SceneSync

/// Swift's distributed actors over the scene protocol: a scene's code as a `distributed
/// actor`, and typed, compile-checked calls to it from anywhere — another scene's code, the
/// program that embeds the registry, a client in another process.
///
/// There is one per registry (``SceneRegistry/actorSystem``), and one per connection to a
/// coordinator (SceneClient's `SceneConnection.actorSystem`); a scene's code finds its own
/// in its context (``SceneContext/actorSystem``).
///
/// - An actor's id is a ``SceneTarget``: an instance, or a scene (resolved at each call to
///   the instance `scene.call` picks, opening an `activatable` scene that has none). A
///   distributed actor passed as an argument or returned travels as its id, and is
///   resolved on the other side.
/// - A call to a remote reference is a `scene.call` whose method is the function's name
///   with its labels (`save(draft:count:)`) and whose params are its arguments by name, so
///   every rule of `scene.call` applies (interfaces checked before the scene, activation,
///   `not_open`, `not_connected`, `call_timeout`), and a scene in another language answers
///   it as any call. In process the arguments and the answer stay Swift values.
/// - Resolving an instance whose scene runs as a ``DistributedScene`` in this process, and
///   declares no interface, answers the actor itself: calls to it are plain actor calls, as
///   Swift's own local distributed actors are (no timeout, and they reach it even after its
///   instance is dismissed). Any other id answers a remote reference.
/// - Errors: a `SceneError` the scene threw reaches the caller as it was thrown; any other
///   error it threw is `scene_failed`; the wire's own errors (`not_open`, `not_connected`,
///   `unknown_scene`, `call_timeout`, -32601, -32602) are `SceneError`s too.
public final class SceneActorSystem: DistributedActorSystem, Sendable {
    public typealias ActorID = SceneTarget
    public typealias InvocationEncoder = SceneInvocationEncoder
    public typealias InvocationDecoder = SceneInvocationDecoder
    public typealias ResultHandler = SceneResultHandler
    public typealias SerializationRequirement = Codable & Sendable

    /// A local actor, not kept alive by the system.
    private final class Local: Sendable {
        weak let actor: (any DistributedActor)?
        init(_ actor: any DistributedActor) { self.actor = actor }
    }

    private let transport: any SceneCallTransport
    private let locals = Locked<[InstanceID: Local]>([:])
    /// How long a typed call waits for its answer; nil (every system the package makes
    /// today): the registry's or the coordinator's call timeout.
    package let callTimeout: Duration?
    /// The executor of what this system calls through: the registry's (in a coordinator,
    /// its event loop), or the connection's loop. A scene whose `unownedExecutor` returns
    /// it runs beside what it talks to, and a call to it takes no thread switch:
    ///
    /// ```swift
    /// nonisolated var unownedExecutor: UnownedSerialExecutor { actorSystem.executor }
    /// ```
    public let executor: UnownedSerialExecutor

    /// The instance a scene's actor made now is (set while its factory runs).
    @TaskLocal static var assigning: InstanceID?

    package init(transport: some SceneCallTransport, executor: UnownedSerialExecutor, callTimeout: Duration? = nil) {
        self.transport = transport
        self.executor = executor
        self.callTimeout = callTimeout
    }

    // MARK: Identity

    /// The id of a scene's actor: the instance its factory is making it for.
    ///
    /// A `SceneActorSystem`'s actors are scenes: one made anywhere but in its scene's
    /// factory (``DistributedScene/behavior(_:)``) has no instance to be, and stops the
    /// program with a message saying so.
    public func assignID<Act>(_ actorType: Act.Type) -> SceneTarget where Act: DistributedActor, Act.ID == SceneTarget {
        guard let instance = Self.assigning else {
            preconditionFailure("\(Act.self): a SceneActorSystem's actors are scenes; make it in its scene's factory (DistributedScene.behavior)")
        }
        return .instance(instance)
    }

    public func actorReady<Act>(_ actor: Act) where Act: DistributedActor, Act.ID == SceneTarget {
        guard case .instance(let instance) = actor.id else { return }
        locals.withLock { $0[instance] = Local(actor) }
    }

    /// The actor of `id` is gone: a newer actor of the same instance (a restarted scene's)
    /// stays.
    public func resignID(_ id: SceneTarget) {
        guard case .instance(let instance) = id else { return }
        locals.withLock { locals in
            if locals[instance]?.actor == nil { locals[instance] = nil }
        }
    }

    /// The instance's actor no longer answers here (its scene stopped): it is resolved as
    /// a remote reference from now on, as any other instance is.
    func retire(_ instance: InstanceID, _ actor: any DistributedActor) {
        locals.withLock { locals in
            if locals[instance]?.actor === actor as AnyObject { locals[instance] = nil }
        }
    }

    /// The actor itself when `id` is a running scene of this process that nothing the
    /// registry checks could refuse a call to (see the type's notes); else nil, and the
    /// caller gets a remote reference.
    public func resolve<Act>(id: SceneTarget, as actorType: Act.Type) throws -> Act? where Act: DistributedActor, Act.ID == SceneTarget {
        guard case .instance(let instance) = id, let local = locals.withLock({ $0[instance]?.actor }) as? Act,
            transport.callsDirectly(instance)
        else { return nil }
        return local
    }

    // MARK: Calls

    public func makeInvocationEncoder() -> SceneInvocationEncoder {
        SceneInvocationEncoder()
    }

    /// Sends a typed call as `scene.call` and answers its result as a `Res`.
    public func remoteCall<Act, Err, Res>(
        on actor: Act, target: RemoteCallTarget, invocation: inout SceneInvocationEncoder, throwing: Err.Type, returning: Res.Type
    ) async throws -> Res where Act: DistributedActor, Act.ID == SceneTarget, Err: Error, Res: Codable & Sendable {
        let answer = try await send(invocation, to: actor.id, target: target)
        return try answer.decodeAnswer(Res.self, context: self)
    }

    /// Sends a typed call of a function that returns nothing.
    public func remoteCallVoid<Act, Err>(
        on actor: Act, target: RemoteCallTarget, invocation: inout SceneInvocationEncoder, throwing: Err.Type
    ) async throws where Act: DistributedActor, Act.ID == SceneTarget, Err: Error {
        _ = try await send(invocation, to: actor.id, target: target)
    }

    private func send(_ invocation: SceneInvocationEncoder, to id: SceneTarget, target: RemoteCallTarget) async throws(SceneError)
        -> ScenePayload
    {
        let method = try DistributedFunctions.method(of: target.identifier)
        return try await transport.call(SceneCall(method: method, params: ScenePayload(invocation.arguments)), to: id, timeout: callTimeout)
    }
}

/// A distributed actor among the values a typed call decodes (an argument, an answer) is
/// resolved through the system in its decoder's `userInfo`, which is made only for one.
extension SceneActorSystem: DecodingContext {
    package var decodingUserInfo: [CodingUserInfoKey: Any] { [.actorSystemKey: self] }
}

/// Where a ``SceneActorSystem`` sends the calls of its remote references: the registry in
/// process, a connection to a coordinator in another.
package protocol SceneCallTransport: Sendable {
    /// Calls `call.method` on `target`, as `scene.call` does.
    func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError) -> ScenePayload
    /// Whether a call to `instance`, whose actor runs in this process, may go to it
    /// directly: nothing on the way could refuse it.
    func callsDirectly(_ instance: InstanceID) -> Bool
}

/// A registry's typed calls: ``SceneRegistry/call(_:to:timeout:)``, which holds them to
/// every rule of `scene.call`. It does not keep the registry alive.
final class RegistryTransport<R: Route>: SceneCallTransport {
    private struct Held: Sendable {
        weak var registry: SceneRegistry<R>?
    }

    private let held = Locked(Held())

    func attach(_ registry: SceneRegistry<R>) {
        held.withLock { $0.registry = registry }
    }

    func call(_ call: SceneCall, to target: SceneTarget, timeout: Duration?) async throws(SceneError) -> ScenePayload {
        guard let registry = held.withLock({ $0.registry }) else {
            throw .sceneFailed("the registry is gone")
        }
        return try await registry.call(call, to: target, timeout: timeout)
    }

    /// A running in-process behaviour of a scene without an interface (one with an
    /// interface has its calls checked against it).
    func callsDirectly(_ instance: InstanceID) -> Bool {
        guard let registry = held.withLock({ $0.registry }) else { return false }
        return registry.interfaces[instance.scene] == nil && registry.host?.callees.workers(instance) != nil
    }
}
