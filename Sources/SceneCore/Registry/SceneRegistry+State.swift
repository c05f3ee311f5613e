import SceneFlow
import SceneJSON
import SceneSync

extension SceneRegistry {
    /// Everything the registry holds now.
    ///
    /// - Instances are in id order: by scene name, then by number.
    public func state() -> RegistryState<R> {
        captureState().state
    }

    /// The state as it is now, its instances made later (see ``RegistryStateCapture``).
    ///
    /// One pass over the instances, each read in place (its actor shares this executor),
    /// and their order by id on integer keys: the scene's rank among the scene names,
    /// then the number (at most 10^15 < 2^50).
    // Pre-specialized for the wire's routes: a coordinator reads the state of a registry
    // of JSON routes, and the generic version of this loop costs twice as much per
    // instance (measured with 100,000 instances).
    @_specialize(where R == JSONValue)
    public func captureState() -> RegistryStateCapture<R> {
        var unordered: [(id: InstanceID, path: [RouteStep<R>], queue: [RouteStep<R>])] = []
        unordered.reserveCapacity(instances.count)
        for (id, instance) in instances {
            let (path, queue) = entering(instance) { ($0.flow.path, $0.flow.queuedModals) }
            unordered.append((id, path, queue))
        }
        let declared = declaredState
        var keyed = unordered.indices.map { index in
            (key: (declared.ranks[unordered[index].id.scene] ?? 0) << 50 | UInt64(unordered[index].id.number), index: index)
        }
        keyed.sort { $0.key < $1.key }
        return RegistryStateCapture(
            app: app, scenes: declared.scenes, focused: inspect { $0.focused }, immersive: book.immersive,
            pendingLink: links.pending?.url, phase: inspect { $0.aggregatePhase }, seq: log.seq,
            entries: keyed.map { unordered[$0.index] }, records: book.records, geometries: declared.geometries,
            styles: styles, declared: declared)
    }
}
