import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// The dismissed instances ``reopen(_:)`` can bring back, oldest first (not those a
    /// reopen under way has taken).
    public var reopenable: [InstanceSnapshot<R>] { closed.filter { !taken.contains($0.id) } }

    /// A reopen's event announced that it took `entry`: it leaves the history for good.
    func reopenAnnounced(_ entry: InstanceID) {
        guard taken.remove(entry) != nil else { return }
        closed.removeAll { $0.id == entry }
    }

    /// Keeps a dismissed instance for `scene.reopen`, dropping the oldest past the limit.
    func remember(_ id: InstanceID, value: JSONValue?, flow: FlowSnapshot<R>) {
        guard reopenLimit > 0 else { return }
        closed.append(InstanceSnapshot(id: id, value: value, phase: .closed, flow: flow, pushedFrom: nil))
        if closed.count > reopenLimit { closed.removeFirst(closed.count - reopenLimit) }
    }

    /// Reopens the most recently dismissed instance of `scene` (of any scene when nil) with
    /// its value and its path, as a browser reopens a closed tab.
    ///
    /// - It opens by the scene's usual rules: a `single` scene that is open again, or a
    ///   value that is, is focused instead; an immersive space follows the immersive rules.
    ///   A new instance's `opened` event is ``RegistryEvent/reopened(_:entry:)``, showing the
    ///   path; an instance found open is named by ``RegistryEvent/refocused(_:entry:)``.
    /// - The entry leaves the history with the event that announces the reopen; until then
    ///   it is taken (not reopenable, still in the state); a refusal before it leaves the
    ///   entry where it was. (An instance that went after its announcement fails the reopen,
    ///   its entry gone.)
    /// - Throws: `nothing_to_reopen`; `unknown_scene`; what opening throws.
    @discardableResult
    public func reopen(_ scene: String? = nil) async throws(RegistryRejection) -> OpenOutcome<R> {
        try await finish(beginReopen(scene)).get()
    }

    /// ``reopen(_:)`` as far as it goes now.
    public func beginReopen(_ scene: String? = nil) -> RegistryStep<R, OpenOutcome<R>> {
        step("scene.reopen") { () throws(RegistryRejection) in
            if let scene, declarationsByID[scene] == nil { throw .unknownScene(scene) }
            guard let index = closed.lastIndex(where: { !taken.contains($0.id) && (scene == nil || $0.id.scene == scene) }) else {
                throw .nothingToReopen(scene: scene)
            }
            // Taken, not removed: it keeps its place (and counts in the limit, as the journal
            // counts it) until the event that announces the reopen, or the refusal.
            let entry = closed[index]
            taken.insert(entry.id)
            // The path was valid when it was closed; a route type's rules may have changed.
            let plan = try? FlowPlan(validating: entry.flow.path)
            let opening: RegistryStep<R, OpenOutcome<R>>
            do throws(RegistryRejection) {
                opening = try openStep(entry.id.scene, value: entry.value, plan: plan, reopening: entry.id)
            } catch {
                taken.remove(entry.id)
                throw error
            }
            return then(opening) { registry, result in
                // Refused before any event announced it: the entry is back where it was.
                registry.taken.remove(entry.id)
                return result
            }
        }
    }
}
