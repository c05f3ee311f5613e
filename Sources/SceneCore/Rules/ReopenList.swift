package import SceneFlow

/// The dismissed instances `scene.reopen` can bring back, as a browser keeps closed tabs:
/// the registry's and a journal replay's, by one set of rules.
///
/// - An instance is kept when it goes after it was shown (not while still opening, not
///   `cancelled`), with its value and path; the oldest go past the limit.
/// - A reopen takes the latest entry (of a scene, or of any): taken, it keeps its place and
///   counts in the limit, but cannot be taken again; it leaves with the event that
///   announces the reopen, and is back in play if the reopen is refused before that.
package struct ReopenList<R: Route>: Sendable {
    /// How many entries are kept at most (0: none).
    package let limit: Int
    /// Oldest first, taken ones included.
    package private(set) var entries: [InstanceSnapshot<R>]
    /// The entries a reopen under way has taken, by the dismissed instance's id.
    package private(set) var taken: Set<InstanceID> = []
    /// New instances being reopened, with the entry each took: their `opened` event names it.
    private var reopening: [InstanceID: InstanceID] = [:]

    /// A list of at most `limit` entries, holding the last of `entries` that fit.
    package init(limit: Int, entries: [InstanceSnapshot<R>] = []) {
        self.limit = max(0, limit)
        self.entries = Array(entries.suffix(self.limit))
    }

    /// Whether a dismissal keeps the instance: it was shown (past its opening), and the
    /// dismissal is not a cancellation.
    package static func keeps(phase: ScenePhase, reason: DismissReason) -> Bool {
        phase != .opening && reason != .cancelled
    }

    /// What can be reopened, oldest first: every entry but those taken.
    package var reopenable: [InstanceSnapshot<R>] { entries.filter { !taken.contains($0.id) } }

    /// Keeps a dismissed instance as its entry — closed, pushed from nothing, of no style
    /// (a reopen opens with the scene's declared one), with its value and path — dropping
    /// the oldest past the limit.
    package mutating func keep(_ gone: InstanceSnapshot<R>) {
        guard limit > 0 else { return }
        var kept = gone
        kept.phase = .closed
        kept.pushedFrom = nil
        kept.style = nil
        entries.append(kept)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }

    /// Takes the latest entry of `scene` (of any scene when nil) that is not taken, for a
    /// reopen; `nothing_to_reopen` when there is none.
    package mutating func take(scene: String?) -> Result<InstanceSnapshot<R>, RegistryRejection> {
        guard let index = entries.lastIndex(where: { !taken.contains($0.id) && (scene == nil || $0.id.scene == scene) }) else {
            return .failure(.nothingToReopen(scene: scene))
        }
        taken.insert(entries[index].id)
        return .success(entries[index])
    }

    /// The reopen that took `entry` opens the new instance `id`: its `opened` event will
    /// name the entry (``announceOpened(_:)``).
    package mutating func reopening(_ id: InstanceID, from entry: InstanceID) {
        reopening[id] = entry
    }

    /// Instance `id` is announced open: the entry its reopen took, if it was reopened (the
    /// entry leaves the list), else nil.
    package mutating func announceOpened(_ id: InstanceID) -> InstanceID? {
        guard let entry = reopening.removeValue(forKey: id) else { return nil }
        announced(entry)
        return entry
    }

    /// An event announced the reopen that took `entry`: it leaves the list for good.
    package mutating func announced(_ entry: InstanceID) {
        guard taken.remove(entry) != nil else { return }
        entries.removeAll { $0.id == entry }
    }

    /// The reopen that took `entry` ended without an event announcing it: the entry is in
    /// play again, where it was (nothing once it was announced).
    package mutating func release(_ entry: InstanceID) {
        taken.remove(entry)
    }

    /// Instance `id` went before its reopen was announced: its `opened` event never comes.
    package mutating func forget(_ id: InstanceID) {
        reopening[id] = nil
    }

    /// A replayed event says a reopen took `entry` (or, when an older event names none, the
    /// latest entry of `scene`): it leaves the list.
    package mutating func replayTaken(_ entry: InstanceID?, scene: String) {
        guard let index = entry.map({ entry in entries.firstIndex { $0.id == entry } }) ?? entries.lastIndex(where: { $0.id.scene == scene })
        else { return }
        taken.remove(entries[index].id)
        entries.remove(at: index)
    }
}
