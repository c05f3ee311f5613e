import SceneJSON

extension ManifestReader {
    /// `requires`: declared scenes, not the scene itself nor one of one instance per value,
    /// no cycle (named), never two immersive spaces at once (``RequirementGraph``).
    mutating func readRequirements(_ scenes: [SceneDeclaration<JSONValue>]) {
        for problem in RequirementGraph.problems(scenes.map(\.requirementFacts)) {
            guard let index = scenes.firstIndex(where: { $0.id == problem.scene }) else { continue }
            report("scenes[\(index)].requires" + (problem.position.map { "[\($0)]" } ?? ""), problem.detail)
        }
    }

    /// `groups`: each `{id, strategy, scenes, maxRestarts?, withinSeconds?}` of declared
    /// scenes that launch processes or run in process, each scene in one group at most.
    /// Answers `scenes` with their groups set.
    mutating func readGroups(
        _ value: JSONValue, scenes: [SceneDeclaration<JSONValue>], declared: Set<String>
    ) -> [SceneDeclaration<JSONValue>] {
        guard case .array(let items) = value else {
            report("groups", "must be an array of groups")
            return scenes
        }
        var byScene: [String: SupervisionGroup] = [:]
        var ids = Set<String>()
        for (index, item) in items.enumerated() {
            let path = "groups[\(index)]"
            guard case .object(let members) = item else {
                report(path, "a group must be an object")
                continue
            }
            checkKeys(members, at: path, allowed: ["id", "strategy", "scenes", "maxRestarts", "withinSeconds"])
            let id = string(members["id"], at: "\(path).id", required: true) ?? ""
            if !id.isEmpty, !ids.insert(id).inserted { report("\(path).id", "duplicate group id \"\(id)\"") }
            guard let name = string(members["strategy"], at: "\(path).strategy", required: true) else { continue }
            guard let strategy = SupervisionGroup.Strategy(rawValue: name) else {
                report("\(path).strategy", "must be \"one_for_one\", \"one_for_all\" or \"rest_for_one\"")
                continue
            }
            guard case .array(let list)? = members["scenes"], !list.isEmpty, list.allSatisfy({ $0.stringValue != nil }) else {
                report("\(path).scenes", "must be a non-empty list of scene ids")
                continue
            }
            let members_ = list.compactMap(\.stringValue)
            var maxRestarts = 3
            if let value = members["maxRestarts"] {
                if let count = value.intValue, count >= 0 { maxRestarts = count } else { report("\(path).maxRestarts", "must be a whole number of at least 0") }
            }
            var within = 30.0
            if let value = members["withinSeconds"] {
                if let seconds = value.doubleValue, seconds > 0, seconds <= 86_400 * 365 {
                    within = seconds
                } else {
                    report("\(path).withinSeconds", "must be a positive number of seconds, at most a year")
                }
            }
            let group = SupervisionGroup(id: id, strategy: strategy, scenes: members_, maxRestarts: maxRestarts, withinSeconds: within)
            for (position, scene) in members_.enumerated() {
                let at = "\(path).scenes[\(position)]"
                if !declared.contains(scene) {
                    report(at, "no scene \"\(scene)\" is declared")
                } else if let other = byScene[scene] {
                    report(at, "scene \"\(scene)\" is already in group \"\(other.id)\"")
                } else if scenes.first(where: { $0.id == scene })?.hosting == .virtual {
                    report(at, "scene \"\(scene)\" has no code to supervise (no launch, not in process)")
                } else {
                    byScene[scene] = group
                }
            }
        }
        return scenes.map { scene in
            var grouped = scene
            grouped.group = byScene[scene.id]
            return grouped
        }
    }
}
