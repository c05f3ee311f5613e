package import SceneFlow

/// What a registry's declarations and behaviours must be, checked before it exists: each
/// rule answers a problem, in words a manifest's author reads.
package enum DeclarationRules {
    /// Every problem of `declarations` with behaviours registered for the scenes
    /// `behaviors`, in this order: in-process scenes without a behaviour; then, declaration
    /// by declaration, a duplicate id, a virtual scene with an interface or activation, an
    /// activatable per-value scene, an invalid id; behaviours for scenes undeclared or not
    /// in process; requirements that cannot hold (``RequirementGraph/problems(_:)``). Groups,
    /// placements and restart policies are checked after the declarations; a registry adds
    /// its deep links' problems after all of these.
    package static func problems<R: Route>(_ declarations: [SceneDeclaration<R>], behaviors: Set<String>) -> [String] {
        var problems: [String] = []
        for declaration in declarations where declaration.hosting == .inProcess && !behaviors.contains(declaration.id) {
            problems.append("scene \"\(declaration.id)\" runs in process: register a behaviour for it")
        }
        var byID: [String: SceneDeclaration<R>] = [:]
        for declaration in declarations {
            if byID[declaration.id] != nil { problems.append("duplicate scene id \"\(declaration.id)\"") }
            if declaration.hosting == .virtual, declaration.activatable || declaration.interface != nil {
                problems.append("scene \"\(declaration.id)\" is virtual: nothing would answer the calls an interface or activation is for")
            }
            if declaration.activatable, declaration.instances == .perValue {
                problems.append("scene \"\(declaration.id)\" opens one instance per value: a call, which gives none, cannot activate it")
            }
            if !SceneDeclaration<R>.isValidID(declaration.id) {
                problems.append("scene id \"\(declaration.id)\" must be ASCII letters, digits, \"_\", \".\" and \"-\", not empty")
            }
            byID[declaration.id] = declaration
        }
        problems += groupProblems(declarations, byID: byID)
        for declaration in declarations {
            if case .relative(let other, _)? = declaration.geometry.placement, byID[other] == nil {
                problems.append("scene \"\(declaration.id)\" is placed relative to \"\(other)\", which is not declared")
            }
            if declaration.hosting == .virtual, declaration.restart != RestartPolicy.standard {
                problems.append("scene \"\(declaration.id)\" is virtual: it has no code to restart")
            }
        }
        for scene in behaviors.sorted() where byID[scene]?.hosting != .inProcess {
            problems.append(
                byID[scene] == nil
                    ? "a behaviour is registered for scene \"\(scene)\", which is not declared"
                    : "a behaviour is registered for scene \"\(scene)\", which is not declared to run in process")
        }
        return problems + RequirementGraph.problems(declarations.map(\.requirementFacts)).map(\.description)
    }

    /// A group's scenes and the scenes that name the group must agree: every scene a group
    /// lists is declared, has code to supervise, and names that group (one group per
    /// scene); every scene that names a group is listed by it.
    private static func groupProblems<R: Route>(_ declarations: [SceneDeclaration<R>], byID: [String: SceneDeclaration<R>]) -> [String] {
        var problems: [String] = []
        var groups: [String: SupervisionGroup] = [:]
        for declaration in declarations {
            guard let group = declaration.group else { continue }
            if let other = groups[group.id], other != group {
                problems.append("group \"\(group.id)\" is declared twice, differently")
            }
            groups[group.id] = group
            if !group.scenes.contains(declaration.id) {
                problems.append("scene \"\(declaration.id)\" names group \"\(group.id)\", which does not list it")
            }
        }
        for group in groups.values.sorted(by: { $0.id < $1.id }) {
            for scene in group.scenes {
                guard let declaration = byID[scene] else {
                    problems.append("group \"\(group.id)\" lists \"\(scene)\", which is not declared")
                    continue
                }
                if declaration.hosting == .virtual {
                    problems.append("group \"\(group.id)\" lists \"\(scene)\", which has no code to supervise (no launch, not in process)")
                } else if declaration.group != group {
                    problems.append("group \"\(group.id)\" lists \"\(scene)\", which does not name it")
                }
            }
        }
        return problems
    }
}
