package import SceneFlow

/// What a registry's declarations and behaviours must be, checked before it exists: each
/// rule answers a problem, in words a manifest's author reads.
package enum DeclarationRules {
    /// Every problem of `declarations` with behaviours registered for the scenes
    /// `behaviors`, in this order: in-process scenes without a behaviour; then, declaration
    /// by declaration, a duplicate id, a virtual scene with an interface or activation, an
    /// activatable per-value scene, an invalid id; behaviours for scenes undeclared or not
    /// in process; requirements that cannot hold (``RequirementGraph/problems(_:)``).
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
        for scene in behaviors.sorted() where byID[scene]?.hosting != .inProcess {
            problems.append(
                byID[scene] == nil
                    ? "a behaviour is registered for scene \"\(scene)\", which is not declared"
                    : "a behaviour is registered for scene \"\(scene)\", which is not declared to run in process")
        }
        return problems + RequirementGraph.problems(declarations.map(\.requirementFacts)).map(\.description)
    }
}
