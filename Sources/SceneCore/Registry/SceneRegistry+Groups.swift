/// What a supervision group did when one of its scenes restarted after an end.
public enum GroupRestart: Hashable, Sendable {
    /// The scene is in no group: it restarts alone.
    case alone
    /// Within the group's intensity: these instances restart with it (none under
    /// `one_for_one`), by what backs each.
    case restarting(group: String, with: [InstanceID])
    /// Past the group's intensity: every instance of its scenes was dismissed
    /// (`restart_intensity`), the one that ended too, after the instances of other scenes
    /// that require them (`requirement_dismissed`).
    case dismissed(group: String, [InstanceID])
}

extension SceneRegistry {
    /// The supervision group `scene` belongs to, if any.
    public nonisolated func group(of scene: String) -> SupervisionGroup? {
        declarationsByID[scene]?.group
    }

    /// Instance `id` restarts after an end its restart policy decided on (a restart asked
    /// for, with `scene.restart` or by a group, does not count): its group acts by its
    /// strategy, whatever backs each of its scenes — a process or an in-process behaviour.
    ///
    /// - Within the group's intensity (``SupervisionGroup/maxRestarts`` in
    ///   ``SupervisionGroup/withinSeconds``), the instances of the scenes the strategy names
    ///   restart with it, their paths kept (see ``SceneBacking/restart(_:)``).
    /// - Past it, every instance of the group's scenes is dismissed (`restart_intensity`),
    ///   `id` too, which then does not restart, with the instances of other scenes that
    ///   require theirs (`requirement_dismissed`), each before what it requires.
    ///
    /// The intensity counts on the registry's time source (see
    /// ``init(app:declarations:linkPolicy:linkLimits:immersive:behaviors:processes:closePolicy:timeouts:time:reopenLimit:executor:)``).
    @discardableResult
    public func groupRestart(after id: InstanceID) -> GroupRestart {
        switch supervision.restarted(id, now: clockSeconds, in: book) {
        case .alone:
            return .alone
        case .restart(let group, let others):
            for other in others {
                guard let backing = backing(of: other) else { continue }
                Task { _ = await backing.restart(other) }
            }
            return .restarting(group: group, with: others)
        case .dismiss(let group, let plan):
            return .dismissed(group: group, carryOut(plan))
        }
    }

    /// Now, in seconds on the registry's time source (the system's monotonic clock since
    /// the registry was made, when it has none).
    var clockSeconds: Double {
        time.map { Double($0.nanoseconds) / 1e9 } ?? (ContinuousClock.now - made) / .seconds(1)
    }
}
