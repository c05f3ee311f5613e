public import SceneFlow
public import SceneJSON

/// A deep-link mapping declared as data, as a manifest writes it:
/// `{"pattern": "/viewer/:doc", "value": "${doc}", "plan": [{"type": "push", "route": {…}}],
/// "requiresAuth": false}`.
///
/// - `value` and `plan` are ``LinkTemplate``s over the pattern's parameters; naming a
///   parameter the pattern lacks is an error here, when the mapping is built.
/// - `plan` must be an array of steps whose `type` is written out (`push`, `sheet` or
///   `cover`), with at most one sheet or cover, last — checked here too, so rendering can
///   never produce an invalid plan. Without `plan` the target's path is left alone; with
///   one (even `[]`) the path is reset to it.
/// - `program`, in place of `value` and `plan`, is an array of steps (`{"method",
///   "params"}`, as `scene.program` takes them) with templates anywhere inside: the link
///   runs them instead of landing in one instance. What the steps mean is checked by
///   whoever runs them.
public struct LinkTemplateMapping: Sendable {
    /// The pattern.
    public let pattern: LinkPattern
    /// Whether the link waits for authentication.
    public let requiresAuth: Bool
    /// The template of the target instance's value, if any.
    public let value: LinkTemplate?
    /// The template of the program the link runs in place of landing, if any.
    public let program: LinkTemplate?
    private let steps: [(kind: RouteStepKind, route: LinkTemplate)]?

    /// Builds the mapping from its JSON object; `path` locates it in its document
    /// (`scenes[1].links[0]`).
    ///
    /// - Throws: ``LinkTemplateError`` listing every problem with its JSON path.
    public init(json: JSONValue, path: String) throws(LinkTemplateError) {
        var problems: [LinkTemplateError.Problem] = []
        func report(_ key: String, _ message: String) {
            problems.append(.init(path: key.isEmpty ? path : "\(path).\(key)", message: message))
        }
        guard case .object(let members) = json else {
            throw LinkTemplateError(problems: [.init(path: path, message: "a link mapping must be an object")])
        }
        for key in members.keys.sorted() where !["pattern", "value", "plan", "program", "requiresAuth"].contains(key) {
            report(key, "unknown key (expected pattern, value, plan, program, requiresAuth)")
        }
        var pattern: LinkPattern?
        switch members["pattern"] {
        case .string(let text)?:
            do {
                pattern = try LinkPattern(text)
            } catch {
                for problem in error.problems { report("pattern", problem.description) }
            }
        case nil: report("pattern", "missing")
        default: report("pattern", "must be a string")
        }
        var requiresAuth = false
        switch members["requiresAuth"] {
        case .bool(let flag)?: requiresAuth = flag
        case nil: break
        default: report("requiresAuth", "must be true or false")
        }
        let names = Set(pattern?.parameterNames ?? [])
        func template(_ json: JSONValue, at key: String) -> LinkTemplate? {
            do {
                return try LinkTemplate(json, parameters: names, path: "\(path).\(key)")
            } catch {
                // Without a valid pattern every name would look unknown; report those only
                // when the pattern itself is fine.
                if pattern != nil { problems += error.problems }
                return nil
            }
        }
        let value = members["value"].flatMap { template($0, at: "value") }
        var steps: [(kind: RouteStepKind, route: LinkTemplate)]?
        if let plan = members["plan"] {
            if case .array(let items) = plan {
                var parsed: [(kind: RouteStepKind, route: LinkTemplate)] = []
                for (index, item) in items.enumerated() {
                    let key = "plan[\(index)]"
                    guard case .object(let step) = item else {
                        report(key, "a step must be an object {\"type\", \"route\"}")
                        continue
                    }
                    for extra in step.keys.sorted() where extra != "type" && extra != "route" {
                        report("\(key).\(extra)", "unknown key (expected type, route)")
                    }
                    guard case .string(let type)? = step["type"], let kind = RouteStepKind(rawValue: type) else {
                        report("\(key).type", "must be \"push\", \"sheet\" or \"cover\", written out")
                        continue
                    }
                    guard let route = step["route"] else {
                        report("\(key).route", "missing")
                        continue
                    }
                    if let compiled = template(route, at: "\(key).route") { parsed.append((kind, compiled)) }
                }
                let shape = parsed.map { RouteStep<JSONValue>($0.kind, .null) }
                if let problem = FlowPlan.problem(in: shape) { report("plan", problem.description) }
                steps = parsed
            } else {
                report("plan", "must be an array of steps")
            }
        }
        var program: LinkTemplate?
        if let json = members["program"] {
            if members["value"] != nil || members["plan"] != nil {
                report("program", "a link runs a program in place of a value and a plan, not with them")
            }
            if case .array = json {
                program = template(json, at: "program")
            } else {
                report("program", "must be an array of steps {\"method\", \"params\"}")
            }
        }
        if !problems.isEmpty { throw LinkTemplateError(problems: problems) }
        self.pattern = pattern!
        self.requiresAuth = requiresAuth
        self.value = value
        self.steps = steps
        self.program = program
    }

    /// The program's steps for a link's parameters, as JSON; nil for a mapping that lands.
    ///
    /// - Throws: ``LinkRejection/invalidParameter(name:value:expected:)`` when a
    ///   conversion fails.
    public func renderProgram(_ parameters: LinkParameters) throws(LinkRejection) -> [JSONValue]? {
        try program.map { template throws(LinkRejection) in try template.render(parameters).arrayValue ?? [] }
    }

    /// The value and plan for a link's parameters (path parameters only).
    ///
    /// - Throws: ``LinkRejection/invalidParameter(name:value:expected:)`` when a
    ///   conversion fails.
    public func render(_ parameters: LinkParameters) throws(LinkRejection) -> (value: JSONValue?, plan: FlowPlan<JSONValue>?) {
        let renderedValue = try value?.render(parameters)
        guard let steps else { return (renderedValue, nil) }
        var rendered: [RouteStep<JSONValue>] = []
        rendered.reserveCapacity(steps.count)
        for step in steps { rendered.append(RouteStep(step.kind, try step.route.render(parameters))) }
        // The build checked the kinds, so the plan is valid by construction.
        return (renderedValue, FlowPlan(unchecked: rendered))
    }
}
