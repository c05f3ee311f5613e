package import SceneFlow

/// What loading a saved session does, decided before anything changes: what closes, in
/// which order, and what opens, in which order.
///
/// - Everything open closes, each instance before every instance it requires (a window
///   pushed from one goes with it).
/// - The saved instances of scenes still declared open under new ids: windows before those
///   pushed from them (each is pushed from its parent's new instance); among the rest,
///   scenes others require before them, so that their saved paths are the ones kept
///   (opening a scene opens what it requires first); else in the saved order.
package struct SessionPlan<R: Route>: Sendable {
    /// The open instances, in the order to remove them.
    package let closing: [InstanceID]
    /// The saved instances to open, in order.
    package let opening: [InstanceSnapshot<R>]

    /// The plan of loading `session` over what `book` has open.
    package init(loading session: RegistrySnapshot<R>, over book: RegistryBook) {
        closing = book.inRemovalOrder(book.records.keys.sorted())
        let graph = book.requirements
        opening = session.instances.enumerated()
            .filter { book.scenes[$0.element.id.scene] != nil }
            .sorted { first, second in
                (first.element.pushedFrom == nil ? 0 : 1, graph.depth(of: first.element.id.scene), first.offset)
                    < (second.element.pushedFrom == nil ? 0 : 1, graph.depth(of: second.element.id.scene), second.offset)
            }
            .map(\.element)
    }
}
