import SceneCore
import SceneJSON
import SceneSocket
import SceneWire

/// A process that said `hello` with an attach token, waiting for the instance its attach
/// opens to be launched.
///
/// One attach of a scene opens at a time (the others wait their turn, in order): a launch
/// cannot tell which open it comes from, so with two in flight the first launch could take
/// the second's process, and the second's open would then find its process taken.
struct PendingAttach {
    let scene: String
    let value: JSONValue?
    let session: Session
    let completion: (Result<InstanceID, WireError>) -> Void
    /// Its open was asked of the registry (the one of its scene in flight).
    var opening = false
}

/// Attaching: a process the coordinator did not start says `hello` with an attach token
/// and becomes an instance's process — one that waits for a process (an attach-only
/// scene's, or one whose attached process dropped and may come back), or one its attach
/// opens by the scene's rules. From then on it is supervised as a spawned process is, but
/// nothing is ever started or signalled for it: its end is its connection's end (the rules
/// are ``ProcessSlot/attach(now:)`` and ``ProcessSlot/graceElapsed(generation:now:)``).
extension Supervisor {
    /// Attaches `session`'s process with `token`; `completion` hears the instance it now
    /// backs (its hello is then answered by ``attach(_:)``), or why not.
    func attach(_ session: Session, with token: AttachToken, completion: @escaping (Result<InstanceID, WireError>) -> Void) {
        guard !closing else {
            completion(.failure(.domain(reason: .shuttingDown, message: "the coordinator is shutting down")))
            return
        }
        if let instance = token.instance {
            // A re-attach token takes back its own instance, and nothing else.
            guard let id = InstanceID(instance), let entry = slots[id], entry.slot.attached, entry.slot.stage == .starting,
                entry.session == nil, registry.isOpen(id)
            else {
                completion(.failure(attachRefusal(instance, open: InstanceID(instance).map(registry.isOpen) ?? false)))
                return
            }
            bind(session, to: entry, completion: completion)
            return
        }
        if let entry = waiting(for: token.scene, value: token.value) {
            bind(session, to: entry, completion: completion)
            return
        }
        // Opened by the scene's rules; its launch takes this process (``launch(_:waiter:)``),
        // once the scene's attaches before it have opened.
        pendingAttaches.append(PendingAttach(scene: token.scene, value: token.value, session: session, completion: completion))
        openNextAttach(of: token.scene)
    }

    /// Asks the registry to open for the first waiting attach of `scene`, unless one of the
    /// scene's is opening.
    private func openNextAttach(of scene: String) {
        guard !pendingAttaches.contains(where: { $0.scene == scene && $0.opening }),
            let index = pendingAttaches.firstIndex(where: { $0.scene == scene })
        else { return }
        pendingAttaches[index].opening = true
        let pending = pendingAttaches[index]
        let attaching = LoopBound(pending.session, loop: loop)
        let supervisor = bound
        registry.open(scene, value: pending.value) { result in
            supervisor.value.opened(for: attaching.value, of: scene, result)
        }
    }

    /// The answer to an attach's open: when its launch did not take the process (the scene
    /// focused an instance that has one, or refused), the attach fails. The scene's next
    /// attach opens then.
    private func opened(for session: Session, of scene: String, _ result: Result<InstanceID, RegistryRejection>) {
        defer { openNextAttach(of: scene) }
        guard let index = pendingAttaches.firstIndex(where: { $0.session === session }) else { return }
        let pending = pendingAttaches.remove(at: index)
        switch result {
        case .success(let id):
            pending.completion(.failure(attachRefusal(id.description, open: true)))
        case .failure(let reason):
            pending.completion(.failure(.domain(reason)))
        }
    }

    /// Why a process cannot attach to `instance`.
    private func attachRefusal(_ instance: String, open: Bool) -> WireError {
        open
            ? .domain(
                reason: .alreadyAttached, message: "\(instance) has its process; an attach takes only an instance that waits for one",
                data: ["instance": .string(instance)])
            : .domain(reason: .notOpen, message: "\(instance) is not open", data: ["instance": .string(instance)])
    }

    /// The instance of `scene` (of `value`, for a per-value scene) that has waited longest
    /// for a process to attach, if any.
    ///
    /// Only an instance still open: the registry stops a dismissed instance's slot a turn
    /// after it answers the dismiss, and a process that leaves in between puts that slot
    /// back to waiting (measured: about one attach in a hundred, under load, took the
    /// instance just dismissed).
    private func waiting(for scene: String, value: JSONValue?) -> Supervised? {
        let candidates = slots.values.filter { entry in
            entry.id.scene == scene && entry.slot.attached && entry.slot.stage == .starting && entry.session == nil
                && registry.isOpen(entry.id) && (value == nil || (try? registry.info(entry.id).get().value) == value)
        }
        return candidates.min { $0.id.number < $1.id.number }
    }

    /// An attach's open launches instance `id`: the process waiting for it is its process.
    /// Answers false when no attach waits for `id`'s scene (the launch proceeds as usual).
    func launchAttached(_ id: InstanceID, waiter: CheckedContinuation<Result<Void, RegistryRejection>, Never>) -> Bool {
        let value = try? registry.info(id).get().value
        guard let index = pendingAttaches.firstIndex(where: { $0.opening && $0.scene == id.scene && ($0.value == nil || $0.value == value) }),
            let (spec, restart) = registry.launch(of: id.scene)
        else { return false }
        let pending = pendingAttaches.remove(at: index)
        let entry = Supervised(ProcessSlot(id: id, spec: spec, policy: restart, opened: true))
        entry.opener = waiter
        slots[id] = entry
        guard !pending.session.connection.isClosed else {
            // It went away before its instance was made: the open fails as a launch does.
            perform(entry.slot.stop(), on: entry)
            return true
        }
        bind(pending.session, to: entry, completion: pending.completion)
        return true
    }

    /// Makes `session`'s process the process of `entry`, then tells `completion`.
    private func bind(_ session: Session, to entry: Supervised, completion: (Result<InstanceID, WireError>) -> Void) {
        entry.session = session
        entry.startedAt = now
        entry.lastAnswer = now
        entry.spawns += 1
        entry.killCause = nil
        Log.info("\(entry.id): a process attached (\(session.name), pid \(session.connection.peerPID.map(String.init) ?? "?"))")
        // As for a spawned process's hello: the slot (and an opener) hears first, then the
        // session, which answers its hello once the registry has the instance active.
        perform(entry.slot.attach(now: now), on: entry)
        completion(.success(entry.id))
    }

    /// A re-attach token for `id`'s attached process (any older one is revoked): good
    /// for one hello, until the instance is gone.
    func reattachToken(for id: InstanceID) -> String? {
        guard let entry = slots[id], entry.slot.attached else { return nil }
        tokens.revokeReattach(of: id.description)
        let value = try? registry.info(id).get().value
        return tokens.issue(scene: id.scene, value: value, ttl: nil, uses: 1, instance: id.description).secret
    }
}
