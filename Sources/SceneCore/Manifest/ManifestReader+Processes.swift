import SceneJSON

extension ManifestReader {
    mutating func readLaunch(_ value: JSONValue?, at path: String) -> LaunchSpec? {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            report(path, "must be an object {\"command\": [\"exe\", \"arg\", …], \"env\": {…}, \"cwd\": …}")
            return nil
        }
        checkKeys(members, at: path, allowed: ["command", "env", "cwd", "timeout", "grace"])
        var command: [String] = []
        if case .array(let items)? = members["command"], !items.isEmpty {
            command = strings(members["command"], at: "\(path).command")
            if command.count != items.count { return nil }
        } else {
            report("\(path).command", "must be a non-empty array of strings: the executable, then its arguments")
        }
        var environment: [String: String] = [:]
        if let env = members["env"] {
            if case .object(let variables) = env {
                for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
                    if name.isEmpty || name.contains("=") {
                        report("\(path).env.\(name)", "a variable name must be non-empty and without \"=\"")
                    } else if case .string(let text) = value {
                        environment[name] = text
                    } else {
                        report("\(path).env.\(name)", "must be a string")
                    }
                }
            } else {
                report("\(path).env", "must be an object of strings")
            }
        }
        var cwd = string(members["cwd"], at: "\(path).cwd", required: false)
        // Paths written relative to the manifest mean the manifest's folder, wherever the
        // coordinator was started; a bare name (no "/") is still looked up in PATH.
        if let base {
            if let first = command.first, first.contains("/"), !first.hasPrefix("/") { command[0] = "\(base)/\(first)" }
            if let folder = cwd, !folder.hasPrefix("/") { cwd = "\(base)/\(folder)" }
        }
        let timeout = seconds(members["timeout"], at: "\(path).timeout")
        let grace = seconds(members["grace"], at: "\(path).grace")
        guard !command.isEmpty else { return nil }
        return LaunchSpec(command: command, environment: environment, workingDirectory: cwd, timeout: timeout, grace: grace)
    }

    /// `attach` {timeout?, grace?}: the scene's processes are started elsewhere and attach
    /// with a token.
    mutating func readAttach(_ value: JSONValue?, at path: String) -> LaunchSpec? {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            report(path, "must be an object {\"timeout\": seconds, \"grace\": seconds}")
            return nil
        }
        checkKeys(members, at: path, allowed: ["timeout", "grace"])
        return .attachOnly(timeout: seconds(members["timeout"], at: "\(path).timeout"), grace: seconds(members["grace"], at: "\(path).grace"))
    }

    /// A number of seconds more than 0 and at most an hour, when given.
    private mutating func seconds(_ value: JSONValue?, at path: String) -> Double? {
        guard let value else { return nil }
        guard let seconds = value.doubleValue, seconds > 0, seconds <= 3600 else {
            report(path, "must be a positive number of seconds, at most 3600")
            return nil
        }
        return seconds
    }

    /// `decides` (a boolean) and `decideTimeout` (seconds): only a scene with code can
    /// decide, and a timeout goes with `decides`.
    mutating func readDecides(_ members: [String: JSONValue], at path: String, hasCode: Bool) -> (Bool, Duration) {
        var decides = false
        if let value = members["decides"] {
            if case .bool(let flag) = value { decides = flag } else { report("\(path).decides", "must be true or false") }
        }
        if decides, !hasCode {
            report("\(path).decides", "only a scene with a launch command or running in process has code to decide")
        }
        var timeout = SceneDeclaration<JSONValue>.standardDecideTimeout
        if let value = members["decideTimeout"] {
            if !decides {
                report("\(path).decideTimeout", "goes with \"decides\": true")
            } else if let seconds = value.doubleValue, seconds > 0, seconds <= 60 {
                timeout = .milliseconds(Int64((seconds * 1000).rounded()))
            } else {
                report("\(path).decideTimeout", "must be a positive number of seconds, at most 60")
            }
        }
        return (decides, timeout)
    }

    /// `activatable` and `interface`: how the scene serves others. Both need code behind
    /// the scene (a virtual instance answers no call and emits no signal).
    mutating func readService(
        _ members: [String: JSONValue], at path: String, hasCode: Bool, policy: InstancePolicy?
    ) -> (Bool, SceneInterface?) {
        var activatable = false
        if let value = members["activatable"] {
            if case .bool(let flag) = value { activatable = flag } else { report("\(path).activatable", "must be true or false") }
        }
        if activatable, !hasCode {
            report("\(path).activatable", "only a scene with a launch command or running in process can answer the call that opens it")
        }
        if activatable, policy == .perValue {
            report("\(path).activatable", "a scene that opens one instance per value cannot be activated by a call, which gives no value")
        }
        guard let json = members["interface"] else { return (activatable, nil) }
        if !hasCode {
            report("\(path).interface", "only a scene with a launch command or running in process has methods and signals")
        }
        do {
            return (activatable, try SceneInterface(json: json, path: "\(path).interface"))
        } catch {
            for problem in error.problems { report(problem.path, problem.message) }
            return (activatable, nil)
        }
    }

    /// The shape of a link's program, before its templates are rendered: each step an
    /// object whose `method` is a program method written out (never `link.open`: a link's
    /// program opens no link) and whose `params`, if any, are an object; one step, at least,
    /// names the instance the link is handled in. The params
    /// themselves are checked when a link renders them (a mistake refuses the link).
    mutating func checkLinkProgram(_ steps: [JSONValue], at path: String) {
        let methods = ProgramStep<JSONValue>.methods.filter { $0 != "link.open" }
        let landing = ["scene.open", "scene.push", "scene.focus", "scene.route"]
        if !steps.contains(where: { $0["method"]?.stringValue.map(landing.contains) == true }) {
            report(path, "needs a step that names an instance (scene.open, scene.push, scene.focus or scene.route): the link is handled there")
        }
        for (index, step) in steps.enumerated() {
            let stepPath = "\(path)[\(index)]"
            guard case .object(let members) = step else {
                report(stepPath, "a step must be an object {\"method\", \"params\"}")
                continue
            }
            checkKeys(members, at: stepPath, allowed: ["method", "params"])
            if members["method"]?.stringValue.map(methods.contains) != true {
                report("\(stepPath).method", "must be one of \(methods.joined(separator: ", ")), written out")
            }
            if let params = members["params"], params.objectValue == nil {
                report("\(stepPath).params", "must be an object")
            }
        }
    }

    mutating func readRestart(_ value: JSONValue?, at path: String) -> RestartPolicy? {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            report(path, "must be an object {\"policy\": …, \"maxRestarts\": n, \"withinSeconds\": s}")
            return nil
        }
        checkKeys(members, at: path, allowed: ["policy", "maxRestarts", "withinSeconds", "backoff"])
        var policy = RestartPolicy.standard
        if let value = members["policy"] {
            if case .string(let text) = value, let mode = RestartPolicy.Mode(rawValue: text) {
                policy.mode = mode
            } else {
                report("\(path).policy", "must be \"permanent\", \"transient\" or \"temporary\"")
            }
        }
        if let value = members["maxRestarts"] {
            if let count = value.intValue, count >= 0 {
                policy.maxRestarts = count
            } else {
                report("\(path).maxRestarts", "must be a whole number of at least 0")
            }
        }
        if let value = members["withinSeconds"] {
            if let seconds = value.doubleValue, seconds > 0, seconds <= 86_400 * 365 {
                policy.withinSeconds = seconds
            } else {
                report("\(path).withinSeconds", "must be a positive number of seconds, at most a year")
            }
        }
        if let value = members["backoff"] {
            let numbers = ["initial", "max", "factor"].map { value[$0]?.doubleValue }
            if case .object(let fields) = value, fields.count == 3, let initial = numbers[0], let max = numbers[1], let factor = numbers[2],
                initial > 0, max >= initial, max <= 3600, factor >= 1, factor <= 100
            {
                policy.backoff = RestartPolicy.Backoff(initial: initial, max: max, factor: factor)
            } else {
                report("\(path).backoff", "must be {\"initial\", \"max\", \"factor\"}: seconds with 0 < initial ≤ max ≤ 3600, and a factor from 1 to 100")
            }
        }
        return policy
    }
}
