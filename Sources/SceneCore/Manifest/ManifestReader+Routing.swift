import SceneFlow
import SceneJSON

/// A scene's routing rules: its `scope` (what its own routes do) and its `claims` (the routes
/// it opens for).
extension ManifestReader {
    mutating func readWhen(_ members: [String: JSONValue], at path: String) -> RoutePredicate<JSONValue> {
        guard let when = members["when"] else { return RoutePredicate(when: [:]) }
        guard case .object = when else {
            report("\(path).when", "must be an object (keys the route must have, with equal values)")
            return RoutePredicate(when: [:])
        }
        return RoutePredicate(when: when)
    }

    mutating func readStepKind(_ value: JSONValue?, at path: String) -> RouteStepKind? {
        guard case .string(let text)? = value, let kind = RouteStepKind(rawValue: text) else {
            report(path, "must be \"push\", \"sheet\" or \"cover\"")
            return nil
        }
        return kind
    }

    /// The objects of an optional array of `what`s, each with its JSON path; reports a
    /// value that is not an array, and items that are not objects.
    mutating func objects(_ value: JSONValue?, at path: String, of what: String) -> [(path: String, members: [String: JSONValue])] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            report(path, "must be an array of \(what)s")
            return []
        }
        var result: [(path: String, members: [String: JSONValue])] = []
        for (index, item) in items.enumerated() {
            if case .object(let members) = item {
                result.append(("\(path)[\(index)]", members))
            } else {
                report("\(path)[\(index)]", "a \(what) must be an object")
            }
        }
        return result
    }

    mutating func readScope(_ value: JSONValue?, at path: String) -> [ScopeRule<JSONValue>] {
        var rules: [ScopeRule<JSONValue>] = []
        for (rulePath, members) in objects(value, at: path, of: "rule") {
            checkKeys(members, at: rulePath, allowed: ["when", "present", "reject", "pass"])
            let when = readWhen(members, at: rulePath)
            let actions = ["present", "reject", "pass"].filter { members[$0] != nil }
            guard actions.count == 1 else {
                report(rulePath, "a rule needs exactly one of \"present\", \"reject\" or \"pass\"")
                continue
            }
            switch actions[0] {
            case "present":
                if let kind = readStepKind(members["present"], at: "\(rulePath).present") {
                    rules.append(ScopeRule(when: when, .present(kind)))
                }
            case "reject":
                if let reason = string(members["reject"], at: "\(rulePath).reject", required: true) {
                    rules.append(ScopeRule(when: when, .reject(reason)))
                }
            default:
                if members["pass"] == .bool(true) {
                    rules.append(ScopeRule(when: when, .pass))
                } else {
                    report("\(rulePath).pass", "must be true")
                }
            }
        }
        return rules
    }

    mutating func readClaims(_ value: JSONValue?, at path: String) -> [SceneClaim<JSONValue>] {
        var claims: [SceneClaim<JSONValue>] = []
        for (claimPath, members) in objects(value, at: path, of: "claim") {
            checkKeys(members, at: claimPath, allowed: ["when", "present"])
            let when = readWhen(members, at: claimPath)
            if let kind = readStepKind(members["present"], at: "\(claimPath).present") {
                claims.append(SceneClaim(when: when, present: kind))
            }
        }
        return claims
    }
}
