import SceneFlow
import SceneJSON

extension SceneRegistry {
    /// The dismissed instances ``reopen(_:)`` can bring back, oldest first (not those a
    /// reopen under way has taken).
    public var reopenable: [InstanceSnapshot<R>] { reopenList.reopenable }

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
    @_specialize(where R == JSONValue)
    package func beginReopen(_ scene: String? = nil) -> RegistryStep<R, OpenOutcome<R>> {
        step("scene.reopen") { () throws(RegistryRejection) in
            if let scene, declarationsByID[scene] == nil { throw .unknownScene(scene) }
            // Taken, not removed: it keeps its place (and counts in the limit, as the journal
            // counts it) until the event that announces the reopen, or the refusal.
            let entry = try reopenList.take(scene: scene).get()
            let plan = entry.savedPlan
            let opening: RegistryStep<R, OpenOutcome<R>>
            do throws(RegistryRejection) {
                opening = try openStep(entry.id.scene, value: entry.value, plan: plan, reopening: entry.id)
            } catch {
                reopenList.release(entry.id)
                throw error
            }
            return then(opening) { registry, result in
                // Refused before any event announced it: the entry is back where it was.
                registry.reopenList.release(entry.id)
                return result
            }
        }
    }
}
