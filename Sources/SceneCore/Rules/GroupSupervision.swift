/// What a supervision group does when one of its scenes restarts after an end: the
/// instances that restart with it, or, past the group's intensity, the removal of the
/// whole group.
package enum GroupDecision: Hashable, Sendable {
    /// The scene is in no group (or the instance is not open): it restarts alone.
    case alone
    /// Within the intensity: these instances restart with it, by what backs each.
    case restart(group: String, others: [InstanceID])
    /// Past the intensity: the removal plan of every instance of the group's scenes
    /// (`restart_intensity`), after the instances of other scenes that require theirs
    /// (`requirement_dismissed`, or `cancelled` while opening), each before what it requires.
    case dismiss(group: String, [Removal])
}

/// The supervision groups of an app and the restarts each has had lately: OTP's
/// supervisor strategies and restart intensity, as a value.
///
/// - A group's strategy names who restarts with a scene (``SupervisionGroup/restartsWith(_:)``).
/// - Its intensity counts every restart of any of its scenes in a sliding window
///   (``SupervisionGroup/maxRestarts`` in ``SupervisionGroup/withinSeconds``); one more
///   dismisses the group whole.
package struct GroupSupervision: Sendable {
    /// By scene, the group it belongs to.
    package let groups: [String: SupervisionGroup]
    /// By group id, its recent restarts.
    package private(set) var histories: [String: RestartHistory] = [:]

    /// A supervision of `groups`, by scene (each scene in one at most), with no restart yet.
    package init(groups: [String: SupervisionGroup]) {
        self.groups = groups
    }

    /// Instance `id` restarts after an end its own restart policy decided on, at `now`
    /// (seconds on the registry's clock): its group's answer, by the open instances of
    /// `book`. A restart of the group counts in its intensity whatever the answer.
    package mutating func restarted(_ id: InstanceID, now: Double, in book: RegistryBook) -> GroupDecision {
        guard book.records[id] != nil, let group = groups[id.scene] else { return .alone }
        var history = histories[group.id]
            ?? RestartHistory(policy: RestartPolicy(mode: .permanent, maxRestarts: group.maxRestarts, withinSeconds: group.withinSeconds))
        let decision = history.decide(clean: false, now: now)
        histories[group.id] = history
        guard case .dismiss = decision else {
            return .restart(group: group.id, others: group.restartsWith(id.scene).flatMap { book.instances(of: $0) })
        }
        let members = group.scenes.flatMap { book.instances(of: $0) }
        let isMember = Set(members)
        let plan = book.inRemovalOrder(book.dependents(leaving: members) + members).compactMap { gone -> Removal? in
            // A member goes for the intensity even while it opens; another, as a dependent.
            let reason = isMember.contains(gone) ? DismissReason.restartIntensity : book.dismissReason(gone, whenOpen: .requirementDismissed)
            return reason.map { Removal(gone, $0) }
        }
        return .dismiss(group: group.id, plan)
    }
}
