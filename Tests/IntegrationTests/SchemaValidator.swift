import Foundation
import SceneFlow
import SceneJSON
import SceneWire

/// The protocol's folder, found from this file's place in the repository.
let protocolsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Protocols")

/// A validator for the subset of JSON Schema that `Protocols/schemas` uses: `type`,
/// `properties`, `required`, `additionalProperties` (boolean), `items`, `enum`, `const`,
/// `anyOf`, `oneOf`, `$ref` (file, file#/$defs/name, #/$defs/name), `$defs`, `minimum`,
/// `maximum`, `minItems`, `maxItems`, `minLength`. Unknown keywords are reported, so a
/// schema cannot silently rely on something this validator ignores.
struct SchemaValidator {
    let schemas: [String: JSONValue]

    static let known: Set<String> = [
        "$schema", "$id", "title", "description", "type", "properties", "required", "additionalProperties", "items",
        "enum", "const", "anyOf", "oneOf", "$ref", "$defs", "minimum", "maximum", "exclusiveMinimum", "minItems", "maxItems",
        "minLength",
    ]

    /// Every schema in `Protocols/schemas`, read once per test process (the vectors' many
    /// cases share them).
    static func load() throws -> SchemaValidator {
        try loaded.get()
    }

    private static let loaded = Result { try read() }

    /// Reads every schema in `Protocols/schemas`.
    private static func read() throws -> SchemaValidator {
        let folder = protocolsFolder.appendingPathComponent("schemas")
        var schemas: [String: JSONValue] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            schemas[name] = try JSONParser.parse([UInt8](data))
        }
        return SchemaValidator(schemas: schemas)
    }

    /// Every way `value` breaks the schema in `file`; empty when it conforms.
    func validate(_ value: JSONValue, against file: String) -> [String] {
        guard let schema = schemas[file] else { return ["no schema \(file)"] }
        var errors: [String] = []
        check(value, schema, file: file, path: "$", errors: &errors)
        return errors
    }

    private func resolve(_ reference: String, from file: String) -> (JSONValue, String)? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let target = parts[0].isEmpty ? file : String(parts[0])
        guard var schema = schemas[target] else { return nil }
        if parts.count == 2, !parts[1].isEmpty {
            for component in parts[1].split(separator: "/") {
                guard let next = schema[String(component)] else { return nil }
                schema = next
            }
        }
        return (schema, target)
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, file: String, path: String, errors: inout [String]) {
        guard case .object(let keywords) = schema else {
            errors.append("\(path): schema is not an object")
            return
        }
        for key in keywords.keys where !SchemaValidator.known.contains(key) {
            errors.append("\(path): unsupported keyword \(key) in \(file)")
        }
        if let reference = keywords["$ref"]?.stringValue {
            if let (target, targetFile) = resolve(reference, from: file) {
                check(value, target, file: targetFile, path: path, errors: &errors)
            } else {
                errors.append("\(path): unresolved $ref \(reference) in \(file)")
            }
        }
        if let type = keywords["type"] {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            if !names.contains(where: { matches(value, type: $0) }) {
                errors.append("\(path): expected \(names.joined(separator: " or ")), found \(value)")
                return
            }
        }
        if let options = keywords["enum"]?.arrayValue, !options.contains(value) {
            errors.append("\(path): \(value) is not one of \(JSONValue.array(options))")
        }
        if let constant = keywords["const"], constant != value {
            errors.append("\(path): \(value) is not \(constant)")
        }
        if case .object(let members) = value {
            for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                errors.append("\(path): missing \(name)")
            }
            let properties = keywords["properties"]?.objectValue ?? [:]
            for (name, member) in members {
                if let property = properties[name] {
                    check(member, property, file: file, path: "\(path).\(name)", errors: &errors)
                } else if keywords["additionalProperties"] == .bool(false) {
                    errors.append("\(path): unexpected member \(name)")
                }
            }
        }
        if case .array(let items) = value {
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() {
                    check(item, itemSchema, file: file, path: "\(path)[\(index)]", errors: &errors)
                }
            }
            if let minimum = keywords["minItems"]?.intValue, items.count < minimum {
                errors.append("\(path): fewer than \(minimum) items")
            }
            if let maximum = keywords["maxItems"]?.intValue, items.count > maximum {
                errors.append("\(path): more than \(maximum) items")
            }
        }
        if let number = value.doubleValue {
            if let minimum = keywords["minimum"]?.doubleValue, number < minimum { errors.append("\(path): below \(minimum)") }
            if let maximum = keywords["maximum"]?.doubleValue, number > maximum { errors.append("\(path): above \(maximum)") }
            if let bound = keywords["exclusiveMinimum"]?.doubleValue, number <= bound { errors.append("\(path): not above \(bound)") }
        }
        if let text = value.stringValue, let minimum = keywords["minLength"]?.intValue, text.count < minimum {
            errors.append("\(path): shorter than \(minimum) characters")
        }
        if let branches = keywords["anyOf"]?.arrayValue {
            let passing = branches.filter { branch in
                var scratch: [String] = []
                check(value, branch, file: file, path: path, errors: &scratch)
                return scratch.isEmpty
            }
            if passing.isEmpty { errors.append("\(path): matches no branch of anyOf") }
        }
        if let branches = keywords["oneOf"]?.arrayValue {
            let passing = branches.filter { branch in
                var scratch: [String] = []
                check(value, branch, file: file, path: path, errors: &scratch)
                return scratch.isEmpty
            }
            if passing.count != 1 { errors.append("\(path): matches \(passing.count) branches of oneOf, not exactly 1") }
        }
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array), ("string", .string): return true
        case ("number", .integer), ("number", .double): return true
        case ("integer", _): return value.intValue != nil
        default: return false
        }
    }
}
