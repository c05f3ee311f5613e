/// Scenes whose processes are supervised together, as an OTP supervisor's children: when
/// one of them restarts after an end, the strategy decides which others restart with it,
/// and the group's own restart intensity, exceeded, dismisses the whole group.
public struct SupervisionGroup: Hashable, Sendable {
    /// Who restarts with a scene that restarts after an end.
    public enum Strategy: String, Hashable, Sendable, CaseIterable {
        /// Only itself (`one_for_one`).
        case oneForOne = "one_for_one"
        /// Every scene of the group (`one_for_all`).
        case oneForAll = "one_for_all"
        /// Itself and the scenes listed after it (`rest_for_one`).
        case restForOne = "rest_for_one"
    }

    /// The group's id.
    public let id: String
    /// Who restarts with a scene that restarts.
    public let strategy: Strategy
    /// Its scenes, in order (`rest_for_one` restarts those after the one that ended).
    public let scenes: [String]
    /// The most restarts of the group within ``withinSeconds``; one more dismisses it.
    public let maxRestarts: Int
    /// The sliding window, in seconds, that ``maxRestarts`` counts in.
    public let withinSeconds: Double

    /// A group from its members; the intensity defaults to 3 restarts in 30 seconds.
    public init(id: String, strategy: Strategy, scenes: [String], maxRestarts: Int = 3, withinSeconds: Double = 30) {
        self.id = id
        self.strategy = strategy
        self.scenes = scenes
        self.maxRestarts = maxRestarts
        self.withinSeconds = withinSeconds
    }

    /// The scenes that restart with `scene` (itself excluded), by the strategy.
    public func restartsWith(_ scene: String) -> [String] {
        switch strategy {
        case .oneForOne: return []
        case .oneForAll: return scenes.filter { $0 != scene }
        case .restForOne:
            guard let index = scenes.firstIndex(of: scene) else { return [] }
            return Array(scenes[(index + 1)...])
        }
    }
}
