import SceneFlow
import SceneJSON
import SceneSync

extension SceneRegistry {
    /// Dismisses `id` (and its pushed windows), closes their actors, answers anyone
    /// waiting for them to open, and stops what backs them.
    ///
    /// - Unless `withDependents` is false, the instances that go with it go first
    ///   (`RegistryBook.dependentRemovals(leaving:)`: reason `requirement_dismissed`, or
    ///   `cancelled` for one still opening), so a scene that requires others is open only
    ///   while they are.
    @discardableResult
    func remove(
        _ id: InstanceID, reason: DismissReason, answering failure: RegistryRejection? = nil, withDependents: Bool = true
    ) -> [InstanceID] {
        // (A manifest without requirements pays one emptiness check.)
        let earlier = withDependents && !book.requirements.isEmpty ? carryOut(book.dependentRemovals(leaving: [id])) : []
        // What closes, before the bookkeeping forgets it: the instance and the windows
        // pushed from it, with their values (an instance still opening never showed).
        var values: [InstanceID: JSONValue?] = [:]
        var next: InstanceID? = id
        while let current = next, let record = book.records[current] {
            if ReopenList<R>.keeps(phase: record.phase, reason: reason) { values[current] = record.value }
            next = record.pushedChild
        }
        let dismissed = book.dismiss(id, reason: reason)
        for gone in dismissed {
            styles[gone] = nil
            reopenList.forget(gone)
            if let instance = instances.removeValue(forKey: gone) {
                if let value = values[gone] {
                    reopenList.keep(InstanceSnapshot(
                        id: gone, value: value, phase: .closed, flow: entering(instance) { $0.flow.snapshot }, pushedFrom: nil))
                }
                entering(instance) { $0.close() }
            }
            for waiter in openingWaiters.removeValue(forKey: gone) ?? [] {
                waiter.resolve(.failure(failure ?? .cancelled(gone)))
            }
            if let launcher = backing(of: gone) { Task { await launcher.stop(gone) } }
        }
        flush()
        endPresentations(after: dismissed)
        return earlier.isEmpty ? dismissed : earlier + dismissed
    }

    /// Carries out a removal plan the rules made, in its order: each instance still open
    /// when its turn comes (a window pushed from one removed before has gone with it) is
    /// removed for its reason, without dependents of its own (the plan lists them).
    /// Answers every instance dismissed, pushed windows included.
    @discardableResult
    func carryOut(_ plan: [Removal]) -> [InstanceID] {
        var dismissed: [InstanceID] = []
        for removal in plan where book.records[removal.id] != nil {
            dismissed += remove(removal.id, reason: removal.reason, withDependents: false)
        }
        return dismissed
    }
}
