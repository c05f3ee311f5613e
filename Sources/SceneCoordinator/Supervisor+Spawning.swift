import SceneCore
import SceneJSON
import SceneSocket

/// Opening: a slot per instance, a process per spawn, a single-use token per process, and
/// the hello that spends it.
extension Supervisor {
    /// Starts the process behind `id`; `waiter` hears once it said hello, or why not.
    func launch(_ id: InstanceID, waiter: CheckedContinuation<Result<Void, RegistryRejection>, Never>) {
        guard let (spec, restart) = registry.launch(of: id.scene) else {
            waiter.resume(returning: .success(()))
            return
        }
        guard !closing else {
            waiter.resume(returning: .failure(.launchFailed(id, detail: "the coordinator is shutting down")))
            return
        }
        // A process that attached with a token is this instance's, when its attach opened it.
        if launchAttached(id, waiter: waiter) { return }
        let entry = Supervised(ProcessSlot(id: id, spec: spec, policy: restart, opened: true))
        entry.opener = waiter
        slots[id] = entry
        perform(spec.isAttachOnly ? entry.slot.awaitAttach() : entry.slot.spawn(), on: entry)
    }

    /// Starts processes for restored instances, which come back `disconnected` until they
    /// say hello. Restarts after a coordinator restart are not counted against the policy.
    func adopt(_ ids: [InstanceID]) {
        guard !closing else { return }
        for id in ids {
            guard let (spec, restart) = registry.launch(of: id.scene), slots[id] == nil else { continue }
            let entry = Supervised(ProcessSlot(id: id, spec: spec, policy: restart, opened: false))
            slots[id] = entry
            perform(spec.isAttachOnly ? entry.slot.awaitAttach() : entry.slot.spawn(), on: entry)
        }
    }

    /// Spawns the process of spawn `generation` with a fresh token in its environment.
    func spawnProcess(_ entry: Supervised, generation: Int) {
        let spec = entry.slot.spec
        let id = entry.id
        if let why = noRoomForProcess() { return cannotStart(entry, why: why) }
        let token = SceneToken.make()
        var environment = configuration.processEnvironment
        environment.merge(spec.environment) { _, new in new }
        environment["SCENE_SOCKET"] = configuration.socketPath
        environment["SCENE_INSTANCE"] = id.description
        environment["SCENE_TOKEN"] = token.text
        let request = SpawnRequest(command: spec.command, environment: environment, workingDirectory: spec.workingDirectory)
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(request, loop: loop) { [unowned self] end in
                self.unreaped -= 1
                self.processEnded(entry, generation: generation, end: end)
            }
        } catch {
            return cannotStart(entry, why: error.message, detail: "\(spec.command.first ?? ""): \(error.message)")
        }
        unreaped += 1
        entry.process = process
        entry.token = token
        entry.spawns += 1
        entry.startedAt = now
        entry.lastAnswer = nil
        entry.killCause = nil
        pendingTokens.append((token, id))
        // The registry runs on this loop's thread too: what the supervisor tells it takes
        // effect at once, in the order it happened.
        registry.processSpawned(id, pid: process.pid)
        Log.info("\(id): started pid \(process.pid)")
        onChange?()
        perform(entry.slot.started(now: now), on: entry)
    }

    /// `entry`'s process could not be started, for `why`: logged, and the slot decides
    /// (an opener hears `launch_failed` with `detail`, `why` itself when not given).
    private func cannotStart(_ entry: Supervised, why: String, detail: String? = nil) {
        Log.warn("\(entry.id): cannot start \(entry.slot.spec.command.joined(separator: " ")): \(why)")
        perform(entry.slot.spawnFailed(detail: detail ?? why, now: now), on: entry)
    }

    /// Spawned processes that have not said hello yet: the server keeps a connection, and
    /// its descriptor, for each.
    var awaitingHello: Int { pendingTokens.count }

    /// Whether peer `pid` is a spawned process that has not said hello yet, or runs in the
    /// process group of one (each is spawned leading a group of its own, which the
    /// children of a launcher such as a shell join): the connection kept is its own.
    func isAwaitingHello(peer pid: Int32) -> Bool {
        let awaiting = pendingTokens.compactMap { slots[$0.id]?.process?.pid }
        if awaiting.contains(pid) { return true }
        guard let group = Processes.statFields(of: pid).flatMap({ Int32($0[2]) }) else { return false }
        return awaiting.contains(group)
    }

    /// The launch timeout of spawn `generation` of `id` elapsed.
    func launchTimedOut(_ id: InstanceID, generation: Int) {
        guard let entry = slots[id] else { return }
        let seconds = entry.slot.spec.timeout ?? Double(configuration.launchTimeout.components.seconds)
        perform(entry.slot.launchTimedOut(generation: generation, seconds: seconds, now: now), on: entry)
    }

    /// The instance whose outstanding token `candidate` is, once: the token is spent.
    func claim(token candidate: String, session: Session) -> InstanceID? {
        // Every outstanding token is compared, each in constant time.
        var found: Int?
        for (index, entry) in pendingTokens.enumerated() where entry.token.matches(candidate) { found = index }
        guard let index = found else { return nil }
        let (_, id) = pendingTokens.remove(at: index)
        guard let entry = slots[id], entry.process != nil else { return nil }
        entry.token = nil
        entry.session = session
        entry.lastAnswer = now
        perform(entry.slot.helloed(), on: entry)
        return id
    }

    /// Tells the registry that `id`'s process said hello; answers the instance, or why it
    /// is gone (its process is then stopped).
    func attach(_ id: InstanceID) -> Result<InstanceInfo<JSONValue>, RegistryRejection> {
        let attached = registry.processAttached(id)
        if case .failure = attached { stop(id) }
        return attached
    }
}
