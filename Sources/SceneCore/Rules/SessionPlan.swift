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
    /// The saved focus order, least recent first.
    package let focusOrder: [InstanceID]

    /// How a saved instance opens, once those before it in ``opening`` did.
    package enum Opening: Hashable, Sendable {
        /// By the usual rules, as an open of its scene and value.
        case open
        /// Pushed from `from`, the new instance of the window it was pushed from.
        case push(from: InstanceID)
        /// Not at all: the window it was pushed from did not open, so it has no place.
        case skip
    }

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
        focusOrder = session.focusOrder
    }

    /// How `item` opens, given the new ids of the saved instances opened so far (`renamed`).
    package func opening(_ item: InstanceSnapshot<R>, renamed: [InstanceID: InstanceID]) -> Opening {
        guard let parent = item.pushedFrom else { return .open }
        guard let from = renamed[parent] else { return .skip }
        return .push(from: from)
    }

    /// The new instances in the saved focus order, least recent first: each is focused in
    /// turn (a window covered by a pushed one gives focus to the window over it).
    package func focusOrder(renamed: [InstanceID: InstanceID]) -> [InstanceID] {
        focusOrder.compactMap { renamed[$0] }
    }
}

extension InstanceSnapshot {
    /// The path it opens with again (a session load, a reopen): its saved path when that is
    /// still valid; nil (the empty path) when the route type's rules changed since.
    package var savedPlan: FlowPlan<R>? {
        try? FlowPlan(validating: flow.path)
    }
}
