/// What the next round of close questions of one request does (``CloseRounds``).
package enum CloseRound: Hashable, Sendable {
    /// Ask these, all at once.
    case ask([InstanceID])
    /// Everyone who must be asked has been.
    case done
    /// Still new after ``CloseRounds/limit`` rounds (something keeps opening them while
    /// the others are asked): these count as refusing, so the wait ends.
    case giveUp([InstanceID])
}

/// The rounds of close questions one request asks: the instances it must ask, then, once
/// they have answered, those it must ask now that were not asked yet (an instance opened
/// meanwhile), and so on until a round asks nobody, or the limit.
package struct CloseRounds: Sendable {
    /// How many rounds one request asks at most.
    package static let limit = 16
    /// Everyone asked so far.
    package private(set) var asked: Set<InstanceID> = []
    /// The rounds asked so far.
    package private(set) var round = 0

    package init() {}

    /// The next round, of `askable` (who must be asked now, by ``RegistryBook/askable(_:)``).
    package mutating func next(_ askable: [InstanceID]) -> CloseRound {
        let new = askable.filter { !asked.contains($0) }
        guard !new.isEmpty else { return .done }
        guard round < Self.limit else { return .giveUp(new) }
        round += 1
        asked.formUnion(new)
        return .ask(new)
    }
}

/// One who answers a close question.
package enum CloseAsker: Hashable, Sendable {
    /// The program's ``ClosePolicy``.
    case closePolicy
    /// What backs the instance: its behaviour or its process.
    case backing
}

extension RegistryBook {
    // MARK: Who is asked before a close

    /// Of `ids`, those that are asked before they close interactively: open ones; an
    /// instance still opening is never asked (it is cancelled).
    package func askable(_ ids: [InstanceID]) -> [InstanceID] {
        ids.filter { records[$0].map { $0.phase != .opening } ?? false }
    }

    /// Of `targets`, those asked before they close: the askable ones (``askable(_:)``)
    /// something answers for — the program's close policy when there is one, else what
    /// backs the instance (`backed`). An instance nobody answers for is never asked, so it
    /// never counts in the rounds, nor as refusing when they give up.
    package func answerable(_ targets: [InstanceID], closePolicy: Bool, backed: (InstanceID) -> Bool) -> [InstanceID] {
        closePolicy ? askable(targets) : askable(targets).filter(backed)
    }

    /// Who answers whether an instance may close interactively, in the order they are
    /// asked: the program's close policy, then what backs the instance; the first refusal is
    /// the answer. Empty when neither is there: nobody is asked.
    package static func closeAskers(closePolicy: Bool, backed: Bool) -> [CloseAsker] {
        (closePolicy ? [.closePolicy] : []) + (backed ? [.backing] : [])
    }

    /// Who dismissing `id` interactively asks: the instance itself, unless it closes itself
    /// (it has decided), and every instance that goes with it (``dependents(leaving:)``);
    /// nobody once it is gone.
    package func askedToDismiss(_ id: InstanceID, closingItself: Bool) -> [InstanceID] {
        guard records[id] != nil else { return [] }
        return (closingItself ? [] : [id]) + dependents(leaving: [id])
    }

    /// Who dismissing `targets` (a scene's instances) interactively asks: those still open,
    /// and every instance that goes with them.
    package func askedToDismiss(scene targets: [InstanceID]) -> [InstanceID] {
        let open = targets.filter { records[$0] != nil }
        return open + dependents(leaving: open)
    }

    /// Who loading a session interactively asks: everything open.
    package var askedToLoadSession: [InstanceID] { records.keys.sorted() }

    // MARK: Whose refusal counts

    /// The refusal that fails a session load, of those `refused`: any, the first by id
    /// (everything open has to go).
    package func veto(loadingSession refused: [InstanceID]) -> InstanceID? {
        refused.min()
    }

    /// Of a scene's `targets`, those that refused and stay, in order (each a `close_vetoed`
    /// rejection event): a target that went meanwhile is not among them.
    package func vetoed(dismissingScene targets: [InstanceID], refused: Set<InstanceID>) -> [InstanceID] {
        targets.filter { refused.contains($0) && records[$0] != nil }
    }

    /// The refusal that keeps `id` from being dismissed, of those `refused`: its own, else the
    /// first (by id) of an instance that would still go with it. Nil when it goes.
    package func veto(dismissing id: InstanceID, refused: [InstanceID]) -> InstanceID? {
        if refused.contains(id) { return id }
        let needed = Set(dependents(leaving: [id]))
        return refused.sorted().first(where: needed.contains)
    }

    /// The refusal that fails dismissing a scene's `targets`, of those `refused`: the first
    /// (by id) of an instance that would go with the targets that go (those that refused,
    /// or went meanwhile, stay out). A target's own refusal only keeps that target: nil
    /// then, and the others go.
    package func veto(dismissingScene targets: [InstanceID], refused: [InstanceID]) -> InstanceID? {
        let refusing = Set(refused)
        let needed = dependents(leaving: targets.filter { !refusing.contains($0) && records[$0] != nil })
        return needed.sorted().first(where: refusing.contains)
    }
}
