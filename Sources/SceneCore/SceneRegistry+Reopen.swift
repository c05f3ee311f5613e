import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// The dismissed instances ``reopen(_:)`` can bring back, oldest first.
    public var reopenable: [InstanceSnapshot<R>] { closed }

    /// Puts back an entry a refused reopen took, in dismissal order: before the first entry
    /// that followed it (`followers`, the entries after it when it was taken) or that was
    /// not kept then (dismissed since); within the limit.
    func putBack(_ entry: InstanceSnapshot<R>, followers: Set<InstanceID>, keptThen: Set<InstanceID>) {
        let index = closed.firstIndex { followers.contains($0.id) || !keptThen.contains($0.id) } ?? closed.count
        closed.insert(entry, at: index)
        if closed.count > reopenLimit { closed.removeFirst(closed.count - reopenLimit) }
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
    /// - The entry leaves the history; a refusal puts it back, in dismissal order, unless
    ///   one of those events announced the reopen already (the instance went before the
    ///   answer).
    /// - Throws: `nothing_to_reopen`; `unknown_scene`; what opening throws.
    @discardableResult
    public func reopen(_ scene: String? = nil) async throws(RegistryRejection) -> OpenOutcome<R> {
        try await finish(beginReopen(scene)).get()
    }

    /// ``reopen(_:)`` as far as it goes now.
    public func beginReopen(_ scene: String? = nil) -> RegistryStep<R, OpenOutcome<R>> {
        step("scene.reopen") { () throws(RegistryRejection) in
            if let scene, declarationsByID[scene] == nil { throw .unknownScene(scene) }
            guard let index = closed.lastIndex(where: { scene == nil || $0.id.scene == scene }) else {
                throw .nothingToReopen(scene: scene)
            }
            let keptThen = Set(closed.map(\.id))
            let followers = Set(closed[(index + 1)...].map(\.id))
            let entry = closed.remove(at: index)
            // The path was valid when it was closed; a route type's rules may have changed.
            let plan = try? FlowPlan(validating: entry.flow.path)
            let opening: RegistryStep<R, OpenOutcome<R>>
            do throws(RegistryRejection) {
                opening = try openStep(entry.id.scene, value: entry.value, plan: plan, reopening: entry.id)
            } catch {
                putBack(entry, followers: followers, keptThen: keptThen)
                throw error
            }
            return then(opening) { registry, result in
                // Announced, the entry is gone even if the instance went before the answer.
                let announced = registry.reopened.remove(entry.id) != nil
                if case .failure = result, !announced { registry.putBack(entry, followers: followers, keptThen: keptThen) }
                return result
            }
        }
    }
}
