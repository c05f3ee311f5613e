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

/// The first cycle among scenes' `requires`, as the scene ids around it (the first again
/// at the end: `a → b → a`); nil when there is none.
public func requirementCycle(_ requires: [String: [String]]) -> [String]? {
    var state: [String: Bool] = [:]  // false: on the path; true: done
    var path: [String] = []
    func visit(_ scene: String) -> [String]? {
        if state[scene] == true { return nil }
        if state[scene] == false, let start = path.firstIndex(of: scene) { return Array(path[start...]) + [scene] }
        state[scene] = false
        path.append(scene)
        for next in requires[scene] ?? [] {
            if let cycle = visit(next) { return cycle }
        }
        path.removeLast()
        state[scene] = true
        return nil
    }
    for scene in requires.keys.sorted() {
        if let cycle = visit(scene) { return cycle }
    }
    return nil
}

/// The first scene that would need two immersive spaces (of `immersive`) open at once:
/// being one and requiring another, or requiring two, directly or through other scenes;
/// with the problem said. Nil when none does. Only one immersive space is open at a time,
/// so such a scene could never open.
public func immersiveConflict(_ requires: [String: [String]], immersive: Set<String>) -> (scene: String, problem: String)? {
    for scene in requires.keys.sorted() {
        var seen = Set<String>()
        var frontier = requires[scene] ?? []
        while let next = frontier.popLast() {
            guard next != scene, seen.insert(next).inserted else { continue }
            frontier += requires[next] ?? []
        }
        let spaces = seen.filter(immersive.contains).sorted()
        if immersive.contains(scene), let other = spaces.first {
            return (scene, "immersive space \"\(scene)\" requires immersive space \"\(other)\": only one is open at a time")
        }
        if spaces.count > 1 {
            return (scene, "scene \"\(scene)\" requires immersive spaces \"\(spaces[0])\" and \"\(spaces[1])\": only one is open at a time")
        }
    }
    return nil
}
