import SceneFlow
import SceneJSON
import SceneLinks

/// Walks a manifest document, collecting every problem with its JSON path.
struct ManifestReader {
    private(set) var problems: [ManifestProblem] = []
    /// What loads but is better written otherwise (the older `links` form).
    private(set) var notes: [ManifestProblem] = []
    /// The folder of the manifest's file, when it was read from one: a relative launch
    /// command path or working folder is resolved against it.
    var base: String?

    struct Parsed {
        let app: String
        let policy: LinkOriginPolicy
        let immersive: ImmersivePolicy
        let scenes: [SceneDeclaration<JSONValue>]
    }

    mutating func report(_ path: String, _ message: String) {
        problems.append(ManifestProblem(path: path, message: message))
    }

    mutating func checkKeys(_ members: [String: JSONValue], at path: String, allowed: [String]) {
        for key in members.keys.sorted() where !allowed.contains(key) {
            report(join(path, key), "unknown key (expected \(allowed.joined(separator: ", ")))")
        }
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func string(_ value: JSONValue?, at path: String, required: Bool) -> String? {
        switch value {
        case .string(let text)?:
            if text.isEmpty { report(path, "must not be empty") }
            return text
        case nil:
            if required { report(path, "missing") }
            return nil
        default:
            report(path, "must be a string")
            return nil
        }
    }

    mutating func strings(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            report(path, "must be an array of strings")
            return []
        }
        return items.enumerated().compactMap { index, item in string(item, at: "\(path)[\(index)]", required: true) }
    }

    mutating func read(_ json: JSONValue) -> Parsed? {
        guard case .object(let root) = json else {
            report("$", "a manifest must be a JSON object")
            return nil
        }
        checkKeys(root, at: "", allowed: ["app", "links", "immersive", "scenes", "groups"])
        let app = string(root["app"], at: "app", required: true) ?? ""
        let origins = readOrigins(root["links"])
        var immersive = ImmersivePolicy.reject
        if let value = root["immersive"] {
            if case .string(let text) = value, let policy = ImmersivePolicy(rawValue: text) {
                immersive = policy
            } else {
                report("immersive", "must be \"reject\" or \"replace\"")
            }
        }
        var scenes: [SceneDeclaration<JSONValue>] = []
        var patterns: [(path: String, pattern: String)] = []
        switch root["scenes"] {
        case .array(let items)?:
            var seen: [String: Int] = [:]
            for (index, item) in items.enumerated() {
                let path = "scenes[\(index)]"
                // Duplicates are found even among scenes with other problems.
                if case .string(let id)? = item["id"], !id.isEmpty {
                    if let first = seen[id] {
                        report("\(path).id", "duplicate scene id \"\(id)\" (first at scenes[\(first)])")
                    } else {
                        seen[id] = index
                    }
                }
                guard let scene = readScene(item, at: path, patterns: &patterns) else { continue }
                scenes.append(scene)
            }
        case nil:
            report("scenes", "missing")
        default:
            report("scenes", "must be an array of scenes")
        }
        // A placement beside another scene names one that is declared.
        let declared = Set(scenes.map(\.id))
        readRequirements(scenes)
        if let value = root["groups"] { scenes = readGroups(value, scenes: scenes, declared: declared) }
        for (index, scene) in scenes.enumerated() {
            if case .relative(let other, _)? = scene.geometry.placement, !declared.contains(other) {
                report("scenes[\(index)].placement.relativeTo", "no scene \"\(other)\" is declared")
            }
        }
        // One matcher serves every scene's links: report conflicts between them here.
        let matcher = LinkMatcher(patterns: patterns.map(\.pattern))
        for diagnostic in matcher.diagnostics where !diagnostic.isError {
            report("\(patterns[diagnostic.index].path).pattern", diagnosticMessage(diagnostic, patterns))
        }
        if !patterns.isEmpty, origins.isEmpty || origins.allSatisfy({ $0.hosts?.isEmpty == true }) {
            report("links", "scenes declare links, but no origin is allowed, so every link would be refused")
        }
        return Parsed(app: app, policy: LinkOriginPolicy(origins: origins), immersive: immersive, scenes: scenes)
    }

    private func diagnosticMessage(_ diagnostic: LinkDiagnostic, _ patterns: [(path: String, pattern: String)]) -> String {
        switch diagnostic.problem {
        case .duplicate(let earlier):
            return "pattern \"\(diagnostic.pattern)\" duplicates the one at \(patterns[earlier].path)"
        case .parameterNamesDiffer(let earlier, _, _):
            return "pattern \"\(diagnostic.pattern)\" has the shape of the one at \(patterns[earlier].path) with other parameter names, so it can never win"
        case .shadowed(let winner):
            return "pattern \"\(diagnostic.pattern)\" can never win: the one at \(patterns[winner].path), or a more specific one, always does"
        case .invalid(let problem):
            return problem.description
        }
    }

    private mutating func readScene(
        _ json: JSONValue, at path: String, patterns: inout [(path: String, pattern: String)]
    ) -> SceneDeclaration<JSONValue>? {
        guard case .object(let members) = json else {
            report(path, "a scene must be an object")
            return nil
        }
        checkKeys(
            members, at: path,
            allowed: [
                "id", "kind", "size", "style", "instances", "scope", "claims", "links", "restore", "launch", "attach", "in_process",
                "restart", "decides", "decideTimeout", "activatable", "interface", "defaultSize", "resizability", "placement",
                "styles", "requires",
            ])
        let id = string(members["id"], at: "\(path).id", required: true) ?? ""
        if !id.isEmpty, !SceneDeclaration<JSONValue>.isValidID(id) {
            report("\(path).id", "\"\(id)\" must use only ASCII letters, digits, \"_\", \".\" and \"-\"")
        }
        let kind = readKind(members, at: path)
        let policy = readInstances(members["instances"], at: "\(path).instances", kind: kind)
        let scope = readScope(members["scope"], at: "\(path).scope")
        let claims = readClaims(members["claims"], at: "\(path).claims")
        var restore = true
        if let value = members["restore"] {
            if case .bool(let flag) = value { restore = flag } else { report("\(path).restore", "must be true or false") }
        }
        var links: [SceneLinkMapping<JSONValue>] = []
        if let value = members["links"] {
            if case .array(let items) = value {
                for (index, item) in items.enumerated() {
                    let linkPath = "\(path).links[\(index)]"
                    do {
                        let mapping = try LinkTemplateMapping(json: item, path: linkPath)
                        if mapping.program != nil {
                            patterns.append((linkPath, mapping.pattern.text))
                            checkLinkProgram(item["program"]?.arrayValue ?? [], at: "\(linkPath).program")
                            links.append(SceneLinkMapping(mapping.pattern.text, requiresAuth: mapping.requiresAuth) { parameters in
                                try ProgramStep<JSONValue>.program(json: mapping.renderProgram(parameters) ?? [])
                            })
                            continue
                        }
                        if policy == .perValue, mapping.value == nil {
                            report(linkPath, "scene \"\(id)\" opens one instance per value: the link needs a \"value\"")
                        }
                        patterns.append((linkPath, mapping.pattern.text))
                        links.append(SceneLinkMapping(mapping.pattern.text, requiresAuth: mapping.requiresAuth) { parameters in
                            let rendered = try mapping.render(parameters)
                            return (rendered.value, rendered.plan)
                        })
                    } catch {
                        for problem in error.problems { report(problem.path, problem.message) }
                    }
                }
            } else {
                report("\(path).links", "must be an array of link mappings")
            }
        }
        let launch = readLaunch(members["launch"], at: "\(path).launch") ?? readAttach(members["attach"], at: "\(path).attach")
        let restart = readRestart(members["restart"], at: "\(path).restart")
        var inProcess = false
        if let flag = members["in_process"] {
            if case .bool(let value) = flag {
                inProcess = value
            } else {
                report("\(path).in_process", "must be true or false")
            }
        }
        if inProcess, members["launch"] != nil || members["attach"] != nil {
            report("\(path).in_process", "a scene runs in process or in a launched or attached process, not both")
        }
        if members["launch"] != nil, members["attach"] != nil {
            report("\(path).attach", "a scene's processes are launched by the coordinator or attach, not both")
        }
        if members["restart"] != nil, members["launch"] == nil, members["attach"] == nil, !inProcess {
            report("\(path).restart", "only a scene with a launch command or running in process has code to restart")
        }
        let hosting: SceneHosting = inProcess ? .inProcess : launch.map { .process($0) } ?? .virtual
        let (decides, decideTimeout) = readDecides(members, at: path, hasCode: hosting != .virtual)
        let (activatable, interface) = readService(members, at: path, hasCode: hosting != .virtual, policy: policy)
        guard let kind else { return nil }
        let geometry = readGeometry(members, at: path, kind: kind)
        var requires: [String] = []
        if let value = members["requires"] {
            if case .array(let items) = value, items.allSatisfy({ $0.stringValue?.isEmpty == false }) {
                requires = items.compactMap(\.stringValue)
            } else {
                report("\(path).requires", "must be a list of scene ids")
            }
        }
        return SceneDeclaration(
            id: id, kind: kind, instances: policy, links: links, scope: scope, claims: claims, restore: restore,
            hosting: hosting, restart: restart ?? .standard, decides: decides, decideTimeout: decideTimeout,
            activatable: activatable, interface: interface, geometry: geometry, requires: requires)
    }

    private mutating func readKind(_ members: [String: JSONValue], at path: String) -> SceneKind? {
        guard let name = string(members["kind"], at: "\(path).kind", required: true) else { return nil }
        switch name {
        case "window":
            if members["size"] != nil { report("\(path).size", "only a volume has a size") }
            if members["style"] != nil { report("\(path).style", "only an immersive space has a style") }
            return .window
        case "volume":
            if members["style"] != nil { report("\(path).style", "only an immersive space has a style") }
            guard case .array(let items)? = members["size"], items.count == 3,
                let sizes = Optional(items.compactMap(\.doubleValue)), sizes.count == 3,
                sizes.allSatisfy({ $0 > 0 && $0.isFinite })
            else {
                report("\(path).size", "a volume needs a size [width, height, depth] of positive numbers, in metres")
                return nil
            }
            return .volume(size: VolumeSize(width: sizes[0], height: sizes[1], depth: sizes[2]))
        case "immersive":
            if members["size"] != nil { report("\(path).size", "only a volume has a size") }
            var style = ImmersionStyle.mixed
            if let value = members["style"] {
                if case .string(let text) = value, let parsed = ImmersionStyle(rawValue: text) {
                    style = parsed
                } else {
                    report("\(path).style", "must be \"mixed\", \"progressive\" or \"full\"")
                }
            }
            return .immersive(style: style)
        default:
            report("\(path).kind", "unknown kind \"\(name)\" (expected window, volume or immersive)")
            return nil
        }
    }

    private mutating func readInstances(_ value: JSONValue?, at path: String, kind: SceneKind?) -> InstancePolicy? {
        switch value {
        case nil:
            return nil
        case .string("single")?:
            return .single
        case .string("perValue")?:
            return .perValue
        case .string("multiple")?:
            return .multiple(max: nil)
        case .object(let members)?:
            checkKeys(members, at: path, allowed: ["max"])
            guard let max = members["max"]?.intValue, max >= 1 else {
                report("\(path).max", "must be a whole number of at least 1")
                return nil
            }
            return .multiple(max: max)
        default:
            report(path, "must be \"single\", \"perValue\", \"multiple\" or {\"max\": n}")
            return nil
        }
    }

}

extension ManifestReader {
    /// `links`: `{"origins": [{"scheme", "hosts"?, "hostIsRoute"?}]}`, or the older
    /// `{"schemes", "hosts"}` (every pair of the two lists), which loads with a note saying
    /// how to write it as origins.
    mutating func readOrigins(_ value: JSONValue?) -> [LinkOrigin] {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            report("links", "must be an object {\"origins\": [{\"scheme\", \"hosts\"?, \"hostIsRoute\"?}]}")
            return []
        }
        if members["origins"] == nil, members["schemes"] != nil || members["hosts"] != nil {
            checkKeys(members, at: "links", allowed: ["schemes", "hosts"])
            let schemes = strings(members["schemes"], at: "links.schemes")
            let hosts = strings(members["hosts"], at: "links.hosts")
            let rules = schemes.map { scheme -> JSONValue in
                ["scheme": .string(scheme), "hosts": .array(hosts.map(JSONValue.string))]
            }
            notes.append(ManifestProblem(
                path: "links",
                message: "{\"schemes\", \"hosts\"} allows every scheme with every host; as origins: {\"origins\": \(JSONValue.array(rules))}"))
            return LinkOriginPolicy(schemes: schemes, hosts: hosts).origins
        }
        checkKeys(members, at: "links", allowed: ["origins"])
        guard case .array(let items)? = members["origins"] else {
            report("links.origins", "must be an array of origins {\"scheme\", \"hosts\"?, \"hostIsRoute\"?}")
            return []
        }
        var origins: [LinkOrigin] = []
        for (index, item) in items.enumerated() {
            let path = "links.origins[\(index)]"
            guard case .object(let rule) = item else {
                report(path, "an origin must be an object {\"scheme\", \"hosts\"?, \"hostIsRoute\"?}")
                continue
            }
            checkKeys(rule, at: path, allowed: ["scheme", "hosts", "hostIsRoute"])
            guard let scheme = string(rule["scheme"], at: "\(path).scheme", required: true) else { continue }
            let valid = scheme.first?.isLetter == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            if !valid { report("\(path).scheme", "\"\(scheme)\" is not a scheme (a letter, then letters, digits, \"+\", \"-\", \".\")") }
            let hosts = rule["hosts"].map { strings($0, at: "\(path).hosts") }
            var hostIsRoute: Bool?
            if let flag = rule["hostIsRoute"] {
                if case .bool(let value) = flag { hostIsRoute = value } else { report("\(path).hostIsRoute", "must be true or false") }
            }
            if LinkOrigin.isWeb(scheme) {
                if hosts?.isEmpty ?? true { report("\(path).hosts", "a \(scheme.lowercased()) origin must list its hosts") }
                if hostIsRoute == true { report("\(path).hostIsRoute", "a web link's host is never part of its route") }
            }
            origins.append(LinkOrigin(scheme: scheme, hosts: hosts, hostIsRoute: hostIsRoute))
        }
        return origins
    }
}
