/// What requires what among an app's scenes (``SceneDeclaration/requires``): the rules
/// that keep a scene that requires others open only while they are.
///
/// - Checked once, from the declarations (``problems(_:)``): a scene may require only
///   other declared scenes, none of one instance per value, with no cycle, and never two
///   immersive spaces at once (one being enough when it is one itself).
/// - Built from valid declarations, it answers each scene's direct and transitive
///   requirements, who requires it, and how deep its requirements go; the bookkeeping
///   asks it which instances go with a removal, and in which order
///   (`RegistryBook.dependents(leaving:)`, `RegistryBook.inRemovalOrder(_:)`).
package struct RequirementGraph: Hashable, Sendable {
    /// A scene as the requirement rules see it.
    package struct Scene: Hashable, Sendable {
        package let id: String
        package let requires: [String]
        package let isImmersive: Bool
        package let isPerValue: Bool

        package init(id: String, requires: [String], isImmersive: Bool = false, isPerValue: Bool = false) {
            self.id = id
            self.requires = requires
            self.isImmersive = isImmersive
            self.isPerValue = isPerValue
        }
    }

    /// By scene, the scenes it requires directly, in declaration order.
    package let requires: [String: [String]]
    /// By scene, the scenes that require it directly, in declaration order.
    package let requiredBy: [String: [String]]
    /// By scene, every scene it requires, directly or through others.
    package let closure: [String: Set<String>]

    /// No scene requires another.
    package init() {
        requires = [:]
        requiredBy = [:]
        closure = [:]
    }

    /// The graph of `scenes`, which ``problems(_:)`` found nothing wrong with.
    package init(_ scenes: [Scene]) {
        var requires: [String: [String]] = [:]
        var requiredBy: [String: [String]] = [:]
        for scene in scenes where !scene.requires.isEmpty {
            requires[scene.id] = scene.requires
            for required in scene.requires { requiredBy[required, default: []].append(scene.id) }
        }
        var closure: [String: Set<String>] = [:]
        func all(_ scene: String) -> Set<String> {
            if let known = closure[scene] { return known }
            // Valid: every requirement is declared and there is no cycle, so this ends.
            let found = (requires[scene] ?? []).reduce(into: Set<String>()) { found, required in
                found.insert(required)
                found.formUnion(all(required))
            }
            closure[scene] = found
            return found
        }
        for scene in requires.keys { _ = all(scene) }
        self.requires = requires
        self.requiredBy = requiredBy
        self.closure = closure.filter { !$0.value.isEmpty }
    }

    /// No scene requires another: every removal goes alone, in id order.
    package var isEmpty: Bool { requires.isEmpty }

    /// How many scenes deep `scene`'s requirements go: 0 for none, 1 when those it requires
    /// require nothing, and so on. A session opens shallower scenes first.
    package func depth(of scene: String) -> Int {
        (requires[scene] ?? []).map { depth(of: $0) + 1 }.max() ?? 0
    }

    // MARK: Checking

    /// What is wrong with the requirements of `scenes`, in declaration order; empty when
    /// they can be built into a graph.
    package static func problems(_ scenes: [Scene]) -> [RequirementProblem] {
        let byID = Dictionary(scenes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [RequirementProblem] = []
        for scene in scenes {
            for (position, required) in scene.requires.enumerated() {
                if required == scene.id {
                    problems.append(.itself(scene: scene.id, position: position))
                } else if let target = byID[required] {
                    if target.isPerValue { problems.append(.perValue(scene: scene.id, position: position, required: required)) }
                } else {
                    problems.append(.undeclared(scene: scene.id, position: position, required: required))
                }
            }
        }
        // A scene requiring itself is said once, above, not again as a cycle.
        let requires = byID.mapValues { scene in scene.requires.filter { $0 != scene.id } }
        if let cycle = cycle(requires) { problems.append(.cycle(cycle)) }
        if let conflict = immersiveConflict(requires, immersive: Set(scenes.filter(\.isImmersive).map(\.id))) {
            problems.append(conflict)
        }
        return problems
    }

    /// The first cycle among `requires`, as the scene ids around it (the first again at the
    /// end: `a → b → a`); nil when there is none.
    static func cycle(_ requires: [String: [String]]) -> [String]? {
        var done: [String: Bool] = [:]  // false: on the path; true: finished
        var path: [String] = []
        func visit(_ scene: String) -> [String]? {
            if done[scene] == true { return nil }
            if done[scene] == false, let start = path.firstIndex(of: scene) { return Array(path[start...]) + [scene] }
            done[scene] = false
            path.append(scene)
            for next in requires[scene] ?? [] {
                if let cycle = visit(next) { return cycle }
            }
            path.removeLast()
            done[scene] = true
            return nil
        }
        for scene in requires.keys.sorted() {
            if let cycle = visit(scene) { return cycle }
        }
        return nil
    }

    /// The first scene that would need two immersive spaces open at once: being one and
    /// requiring another, or requiring two, directly or through others. Only one is open at
    /// a time, so such a scene could never open.
    static func immersiveConflict(_ requires: [String: [String]], immersive: Set<String>) -> RequirementProblem? {
        for scene in requires.keys.sorted() {
            var seen = Set<String>()
            var frontier = requires[scene] ?? []
            while let next = frontier.popLast() {
                guard next != scene, seen.insert(next).inserted else { continue }
                frontier += requires[next] ?? []
            }
            let spaces = seen.filter(immersive.contains).sorted()
            if immersive.contains(scene), let other = spaces.first {
                return .immersiveRequiresImmersive(scene: scene, other: other)
            }
            if spaces.count > 1 { return .twoImmersiveSpaces(scene: scene, first: spaces[0], second: spaces[1]) }
        }
        return nil
    }
}

/// Why requirements cannot be built into a ``RequirementGraph``; said the same way by a
/// manifest's reader (with the JSON path) and by a registry made from declarations.
package enum RequirementProblem: Hashable, Sendable, CustomStringConvertible {
    /// A scene requires itself.
    case itself(scene: String, position: Int)
    /// A scene requires one that is not declared.
    case undeclared(scene: String, position: Int, required: String)
    /// A scene requires one that opens one instance per value: nothing says which value.
    case perValue(scene: String, position: Int, required: String)
    /// The scenes require each other in a cycle (the first scene again at the end).
    case cycle([String])
    /// An immersive space requires another: only one is open at a time.
    case immersiveRequiresImmersive(scene: String, other: String)
    /// A scene requires two immersive spaces.
    case twoImmersiveSpaces(scene: String, first: String, second: String)

    /// The scene the problem is with.
    package var scene: String {
        switch self {
        case .itself(let scene, _), .undeclared(let scene, _, _), .perValue(let scene, _, _): scene
        case .cycle(let around): around.first ?? ""
        case .immersiveRequiresImmersive(let scene, _), .twoImmersiveSpaces(let scene, _, _): scene
        }
    }

    /// The position in the scene's `requires` of the requirement at fault; nil for a
    /// problem of the whole graph.
    package var position: Int? {
        switch self {
        case .itself(_, let position), .undeclared(_, let position, _), .perValue(_, let position, _): position
        case .cycle, .immersiveRequiresImmersive, .twoImmersiveSpaces: nil
        }
    }

    /// What is wrong, said on its own (a manifest's reader prefixes the path).
    package var detail: String {
        switch self {
        case .itself: "a scene cannot require itself"
        case .undeclared(_, _, let required): "no scene \"\(required)\" is declared"
        case .perValue(_, _, let required):
            "scene \"\(required)\" opens one instance per value: nothing says which value to open it with"
        case .cycle(let around): "the scenes require each other in a cycle: \(around.joined(separator: " → "))"
        case .immersiveRequiresImmersive(let scene, let other):
            "immersive space \"\(scene)\" requires immersive space \"\(other)\": only one is open at a time"
        case .twoImmersiveSpaces(let scene, let first, let second):
            "scene \"\(scene)\" requires immersive spaces \"\(first)\" and \"\(second)\": only one is open at a time"
        }
    }

    /// What is wrong, naming the scene (a registry's configuration error).
    package var description: String {
        switch self {
        case .itself(let scene, _): "scene \"\(scene)\" requires itself"
        case .undeclared(let scene, _, let required): "scene \"\(scene)\" requires \"\(required)\", which is not declared"
        case .perValue(let scene, _, let required):
            "scene \"\(scene)\" requires \"\(required)\", which opens one instance per value: nothing says which value to open it with"
        case .cycle, .immersiveRequiresImmersive, .twoImmersiveSpaces: detail
        }
    }
}
