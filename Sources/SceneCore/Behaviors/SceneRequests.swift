public import SceneFlow
import SceneJSON

/// The requests that open, push, focus, dismiss, call and present scenes, with the same
/// names, argument types, answers and errors wherever they are made from: the embedding
/// program (``SceneRegistry/scenes``), a behaviour (``SceneContext/scenes``) or a client
/// over a socket (`SceneConnection.scenes`, in SceneClient). Code written against it moves
/// between the three unchanged:
///
/// ```swift
/// func tally(_ scenes: some SceneRequests, counter: InstanceID) async throws(SceneError) -> Int {
///     try await scenes.call(.add, 5, on: .instance(counter))
/// }
/// ```
///
/// Scenes are named by ``SceneID``s, methods by ``SceneMethod``s, values and results are
/// the app's own `Codable` types, and every refusal is a ``SceneError`` whose `reason` is
/// typed. A behaviour acts as its own instance, as a scene process does on the wire: it may
/// push, present, dismiss and finish only for itself, and may not focus (`forbidden`).
public protocol SceneRequests: Sendable {
    /// Opens `scene` with `value` (or focuses the instance its policy picks); answers that
    /// instance.
    @discardableResult
    func open<Value>(_ scene: SceneID<Value>, value: Value) async throws(SceneError) -> InstanceID

    /// Opens window `scene` with `value` in place of window `window`, as visionOS's
    /// `pushWindow` does; answers the pushed window.
    @discardableResult
    func push<Value>(_ scene: SceneID<Value>, value: Value, from window: InstanceID) async throws(SceneError) -> InstanceID

    /// Focuses window or volume `instance`.
    func focus(_ instance: InstanceID) async throws(SceneError)

    /// Dismisses `instance` and the windows pushed from it; unless `force`, whoever must
    /// agree is asked first, and a refusal is `close_vetoed`. Answers what went.
    @discardableResult
    func dismiss(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID]

    /// Calls `method` with `params` on `target`, wherever its code runs; answers its result.
    /// `timeout`: how long to wait for the answer (`call_timeout` after it); nil for the
    /// registry's own (``SceneTimeouts/call``).
    func call<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget, timeout: Duration?)
        async throws(SceneError) -> Answer

    /// Sends `target` a notification of `method` with `params`; answered once it is
    /// delivered (its answer, if any, is not awaited).
    func notify<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget)
        async throws(SceneError)

    /// Opens `scene` with `value` from `presenter` and waits until the instance finishes
    /// (``finish(_:with:)``); answers it and its result, read as a `Answer`.
    func present<Value, Answer: Decodable & Sendable>(
        _ scene: SceneID<Value>, value: Value, from presenter: InstanceID, answering: Answer.Type
    ) async throws(SceneError) -> Presented<Answer>

    /// Ends presented instance `instance` with `result`: whoever presented it gets it, and
    /// it is dismissed.
    func finish(_ instance: InstanceID, with result: some Encodable & Sendable) async throws(SceneError)
}

extension SceneRequests {
    /// Opens `scene`, which takes no value.
    @discardableResult
    public func open(_ scene: SceneID<NoValue>) async throws(SceneError) -> InstanceID {
        try await open(scene, value: NoValue())
    }

    /// Pushes `scene`, which takes no value, in place of `window`.
    @discardableResult
    public func push(_ scene: SceneID<NoValue>, from window: InstanceID) async throws(SceneError) -> InstanceID {
        try await push(scene, value: NoValue(), from: window)
    }

    /// Calls `method` with `params` on `target`, waiting the registry's own call timeout.
    public func call<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget)
        async throws(SceneError) -> Answer
    {
        try await call(method, params, on: target, timeout: nil)
    }

    /// Calls `method`, which takes no params, on `target`.
    public func call<Answer>(_ method: SceneMethod<NoValue, Answer>, on target: SceneTarget) async throws(SceneError) -> Answer {
        try await call(method, NoValue(), on: target, timeout: nil)
    }

    /// Dismisses `instance`, asking whoever must agree first.
    @discardableResult
    public func dismiss(_ instance: InstanceID) async throws(SceneError) -> [InstanceID] {
        try await dismiss(instance, force: false)
    }

    /// Presents `scene`, which takes no value, from `presenter`.
    public func present<Answer: Decodable & Sendable>(
        _ scene: SceneID<NoValue>, from presenter: InstanceID, answering: Answer.Type
    ) async throws(SceneError) -> Presented<Answer> {
        try await present(scene, value: NoValue(), from: presenter, answering: Answer.self)
    }
}

/// A registry's scenes, as the embedding program asks for them: ``SceneRegistry/scenes``.
public struct RegistryScenes<R: Route>: SceneRequests {
    let registry: SceneRegistry<R>

    /// Runs a registry request, its refusal as the wire's error.
    private func asking<T>(_ body: () async throws(RegistryRejection) -> T) async throws(SceneError) -> T {
        do {
            return try await body()
        } catch {
            throw SceneError(error)
        }
    }

    @discardableResult
    public func open<Value>(_ scene: SceneID<Value>, value: Value) async throws(SceneError) -> InstanceID {
        let json = try SceneID.json(value)
        return try await asking { () throws(RegistryRejection) in try await registry.open(scene.id, value: json).instance.id }
    }

    @discardableResult
    public func push<Value>(_ scene: SceneID<Value>, value: Value, from window: InstanceID) async throws(SceneError) -> InstanceID {
        let json = try SceneID.json(value)
        return try await asking { () throws(RegistryRejection) in try await registry.push(scene.id, value: json, from: window).id }
    }

    public func focus(_ instance: InstanceID) async throws(SceneError) {
        _ = try await asking { () throws(RegistryRejection) in try await registry.focus(instance) }
    }

    @discardableResult
    public func dismiss(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID] {
        try await asking { () throws(RegistryRejection) in try await registry.dismiss(instance, force: force) }
    }

    public func call<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget, timeout: Duration?)
        async throws(SceneError) -> Answer
    {
        try await registry.call(method.call(params), to: target, timeout: timeout).decodeAnswer(Answer.self)
    }

    public func notify<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget)
        async throws(SceneError)
    {
        try await registry.notify(method.call(params), to: target)
    }

    public func present<Value, Answer: Decodable & Sendable>(
        _ scene: SceneID<Value>, value: Value, from presenter: InstanceID, answering: Answer.Type
    ) async throws(SceneError) -> Presented<Answer> {
        let json = try SceneID.json(value)
        let outcome = try await asking { () throws(RegistryRejection) in try await registry.present(scene.id, value: json, from: presenter) }
        return Presented(instance: outcome.instance.id, result: try ScenePayload(json: outcome.result).decodeAnswer(Answer.self))
    }

    public func finish(_ instance: InstanceID, with result: some Encodable & Sendable) async throws(SceneError) {
        let json = try ScenePayload(result).json()
        try await asking { () throws(RegistryRejection) in try await registry.finish(instance, result: json) }
    }
}

extension SceneRegistry {
    /// The scenes of this registry, asked for as a behaviour or a client asks for them
    /// (``SceneRequests``): typed scenes, methods, values and results, every refusal a
    /// ``SceneError``.
    public nonisolated var scenes: RegistryScenes<R> { RegistryScenes(registry: self) }
}

/// The scenes as a behaviour asks for them, as its own instance: ``SceneContext/scenes``.
public struct ContextScenes<R: Route>: SceneRequests {
    let context: SceneContext<R>

    /// Refuses `method` for an instance other than the context's own, as the wire refuses
    /// a scene connection.
    private func own(_ instance: InstanceID, _ method: String) throws(SceneError) {
        guard instance == context.instance else {
            throw .forbidden(method, "\(context.instance) may act only for itself, not for \(instance)")
        }
    }

    @discardableResult
    public func open<Value>(_ scene: SceneID<Value>, value: Value) async throws(SceneError) -> InstanceID {
        try await context.open(scene.id, value: try SceneID.json(value))
    }

    @discardableResult
    public func push<Value>(_ scene: SceneID<Value>, value: Value, from window: InstanceID) async throws(SceneError) -> InstanceID {
        try own(window, "scene.push")
        return try await context.push(scene.id, value: try SceneID.json(value))
    }

    public func focus(_ instance: InstanceID) async throws(SceneError) {
        throw .forbidden("scene.focus", "a scene may not focus; the app's user focuses")
    }

    @discardableResult
    public func dismiss(_ instance: InstanceID, force: Bool) async throws(SceneError) -> [InstanceID] {
        try own(instance, "scene.dismiss")
        return try await context.dismiss(force: force)
    }

    public func call<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget, timeout: Duration?)
        async throws(SceneError) -> Answer
    {
        try await context.call(target, method.name, params: ScenePayload(params), timeout: timeout).decodeAnswer(Answer.self)
    }

    public func notify<Params, Answer>(_ method: SceneMethod<Params, Answer>, _ params: Params, on target: SceneTarget)
        async throws(SceneError)
    {
        try await context.notify(target, method.name, params: ScenePayload(params))
    }

    public func present<Value, Answer: Decodable & Sendable>(
        _ scene: SceneID<Value>, value: Value, from presenter: InstanceID, answering: Answer.Type
    ) async throws(SceneError) -> Presented<Answer> {
        try own(presenter, "scene.present")
        let (instance, result) = try await context.present(scene.id, value: try SceneID.json(value))
        return Presented(instance: instance, result: try ScenePayload(json: result).decodeAnswer(Answer.self))
    }

    public func finish(_ instance: InstanceID, with result: some Encodable & Sendable) async throws(SceneError) {
        try own(instance, "scene.finish")
        try await context.finish(with: try ScenePayload(result).json())
    }
}

extension SceneContext {
    /// The scenes, asked for as this behaviour's own instance (``SceneRequests``).
    public var scenes: ContextScenes<R> { ContextScenes(context: self) }
}
