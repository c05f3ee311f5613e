public import SceneFlow

// Turning what a registry of one route type reports into the same report with another
// route type: what a server of a registry of the app's own routes does to put them on the
// wire as JSON. Only paths carry routes; everything else is kept as it is.

extension InstanceInfo {
    /// The same instance, its path turned by `transform`.
    public func mappingPath<S: Route>(_ transform: ([RouteStep<R>]) throws -> [RouteStep<S>]) rethrows -> InstanceInfo<S> {
        InstanceInfo<S>(
            id: id, scene: scene, kind: kind, value: value, phase: phase, focused: focused, path: try transform(path),
            pushedFrom: pushedFrom, queue: try transform(queue), geometry: geometry, style: style)
    }
}

extension RegistryState {
    /// The same state, every instance's path turned by `transform`.
    public func mappingPaths<S: Route>(_ transform: ([RouteStep<R>]) throws -> [RouteStep<S>]) rethrows -> RegistryState<S> {
        RegistryState<S>(
            app: app,
            scenes: scenes.map { RegistryState<S>.Scene(id: $0.id, kind: $0.kind, instances: $0.instances, restore: $0.restore) },
            instances: try instances.map { try $0.mappingPath(transform) }, focused: focused, immersive: immersive,
            pendingLink: pendingLink, phase: phase, seq: seq)
    }
}

extension RegistryEvent {
    /// The same event, any path it carries turned by `transform`.
    public func mappingPaths<S: Route>(_ transform: ([RouteStep<R>]) throws -> [RouteStep<S>]) rethrows -> RegistryEvent<S> {
        switch self {
        case .opened(let info): return .opened(try info.mappingPath(transform))
        case .reopened(let info, let entry): return .reopened(try info.mappingPath(transform), entry: entry)
        case .changed(let info): return .changed(try info.mappingPath(transform))
        case .flowChanged(let id, let path, let queue, let cause):
            return .flowChanged(id, path: try transform(path), queue: try transform(queue), cause: cause)
        case .flowQueued(let id, let step, let queue):
            return .flowQueued(id, step: try transform([step])[0], queue: try transform(queue))
        case .focused(let id): return .focused(id)
        case .refocused(let id, let entry): return .refocused(id, entry: entry)
        case .dismissed(let id, let reason): return .dismissed(id, reason: reason)
        case .phaseChanged(let id, let phase): return .phaseChanged(id, phase: phase)
        case .pushed(let id, let from): return .pushed(id, from: from)
        case .finished(let id, let result): return .finished(id, result: result)
        case .linkHandled(let url, let instance, let opened): return .linkHandled(url: url, instance: instance, opened: opened)
        case .linkPending(let url): return .linkPending(url: url)
        case .linkSuperseded(let url): return .linkSuperseded(url: url)
        case .linkRejected(let url, let reason): return .linkRejected(url: url, reason: reason)
        case .requestRejected(let request, let reason): return .requestRejected(request: request, reason: reason)
        case .spawned(let id, let pid): return .spawned(id, pid: pid)
        case .disconnected(let id, let exit): return .disconnected(id, exit: exit)
        case .restarted(let id): return .restarted(id)
        case .authChanged(let authenticated): return .authChanged(authenticated: authenticated)
        case .signalEmitted(let id, let signal, let payload): return .signalEmitted(id, signal: signal, payload: payload)
        }
    }
}
