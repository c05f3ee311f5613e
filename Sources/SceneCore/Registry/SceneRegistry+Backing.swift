import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// What backs `id`, by its scene's hosting; nil for a virtual instance.
    func backing(of id: InstanceID) -> (any SceneBacking)? {
        switch placements[id.scene] {
        case .inProcess: return host
        case .process: return processes
        case .virtual, nil: return nil
        }
    }

    /// Whether something backs `id` (it is started, asked to close, and stopped).
    func isLaunched(_ id: InstanceID) -> Bool { backing(of: id) != nil }

    /// Starts what backs the opening instance `id`. Answers `true` when there is nothing to
    /// start: the instance is active already. Otherwise its backing runs in a task of its
    /// own and reports back, and the caller waits (``afterOpening(_:_:)``) like any joined
    /// open, so a dismiss answers it at once (`cancelled`) whatever the launcher does; a
    /// launch that completes for an instance dismissed meanwhile is stopped.
    func startLaunch(_ id: InstanceID) -> Bool {
        guard let launcher = backing(of: id) else {
            activate(id)
            return true
        }
        Task {
            let result: Result<Void, RegistryRejection>
            do throws(RegistryRejection) {
                try await launcher.launch(id)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self.launchFinished(id, result)
        }
        return false
    }

    /// What the launcher said about `id`.
    func launchFinished(_ id: InstanceID, _ result: Result<Void, RegistryRejection>) {
        switch book.launchEnd(id, result) {
        case .stop: if let launcher = backing(of: id) { Task { await launcher.stop(id) } }
        case .nothing: break
        case .activate: activate(id)
        case .cancel(let reason): remove(id, reason: .cancelled, answering: reason)
        }
    }

    /// The declaration of `scene`, if there is one.
    public nonisolated func declaration(of scene: String) -> SceneDeclaration<R>? {
        declarationsByID[scene]
    }

    /// The most recently focused open instance of `scene`, or its newest.
    ///
    /// - Throws: `unknown_scene`, or `not_open` when none is open.
    public func mostRecentInstance(of scene: String) throws(RegistryRejection) -> InstanceID {
        guard declarationsByID[scene] != nil else { throw .unknownScene(scene) }
        guard let id = book.mostRecent(of: scene) else { throw .notOpen(scene) }
        return id
    }

    /// Records that a process was started for `id`: a `scene.spawned` event, while `id`
    /// is open.
    package func processSpawned(_ id: InstanceID, pid: Int32) {
        guard book.records[id] != nil else { return }
        log.emit(.spawned(id, pid: pid))
    }

    /// The process behind `id` is gone (`exit` nil: it was left from a previous run): the
    /// instance is `disconnected`, its path intact, until a new process says hello.
    package func processDisconnected(_ id: InstanceID, exit: ProcessExit?) {
        guard book.disconnects(id) else { return }
        log.emit(.disconnected(id, exit: exit))
        book.disconnect(id)
        flush()
    }

    /// The process behind `id` said hello: an instance still opening becomes active (its
    /// launch is complete), a disconnected one comes back (`scene.restarted`). Answers the
    /// instance as it is.
    ///
    /// - Throws: `not_open` when the instance is not open.
    package func processAttached(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        switch try book.attachment(id).get() {
        case .activate:
            activate(id)
        case .reconnect:
            log.emit(.restarted(id))
            book.reconnect(id)
            flush()
        case .nothing:
            break
        }
        return try info(id)
    }

    /// Dismisses `id` because of its process (`process_exited`, `restart_intensity`).
    package func dismissProcess(_ id: InstanceID, reason: DismissReason) {
        guard book.records[id] != nil else { return }
        remove(id, reason: reason)
    }

    /// The open instances whose declaration has a launch command, with their phases.
    package func processInstances() -> [(id: InstanceID, phase: ScenePhase)] {
        instances(hosted: { if case .process = $0 { return true } else { return false } })
    }

    /// The open instances whose scene's hosting `matches`, with their phases.
    func instances(hosted matches: (SceneHosting) -> Bool) -> [(id: InstanceID, phase: ScenePhase)] {
        book.records.values.filter { declarationsByID[$0.id.scene].map { matches($0.hosting) } ?? false }
            .sorted { $0.id < $1.id }.map { ($0.id, $0.phase) }
    }

    /// Restarts the behaviour of in-process instance `id` now, its path kept (see
    /// `scene.restart`): the instance is `disconnected` until the new behaviour has started.
    ///
    /// - Throws: `not_open`; `not_connected` when `id` is not in process or no behaviour
    ///   runs for it now.
    public func restartBehavior(_ id: InstanceID) async throws(SceneError) {
        guard book.records[id] != nil else { throw SceneError(RegistryRejection.instanceNotOpen(id)) }
        guard runsInProcess(id), let host, await host.restart(id) else {
            throw .notConnected(id)
        }
    }
}
