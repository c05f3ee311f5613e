/// A JSON Schema of the small subset a scene's interface may use, to check a value before
/// it reaches code that trusts its shape.
///
/// - Keywords: `type` (one name or a list of `null`, `boolean`, `integer`, `number`,
///   `string`, `array`, `object`), `properties` (a schema per member), `required` (member
///   names), `items` (the schema of every element) and `enum` (the values allowed). The
///   annotations `title`, `description` and `$comment` are accepted and ignored.
/// - Any other keyword is refused when the schema is read, so that a schema never seems to
///   promise a check it does not make. Members `properties` does not name are allowed.
/// - `integer` takes any number with no fraction; `number` takes every number.
public struct JSONSchema: Hashable, Sendable {
    /// The type names a schema may use.
    public enum TypeName: String, Hashable, Sendable, CaseIterable {
        /// `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`.
        case null, boolean, integer, number, string, array, object
    }

    /// The schema as it was written.
    public let json: JSONValue
    /// The types allowed; nil allows every type.
    public let types: Set<TypeName>?
    /// The schema of each member that has one.
    public let properties: [String: JSONSchema]
    /// The members an object must have.
    public let required: [String]
    /// The values allowed; nil allows every value.
    public let allowed: [JSONValue]?
    private let itemBox: [JSONSchema]

    /// The schema of every element of an array, if one is given.
    public var items: JSONSchema? { itemBox.first }

    /// The keywords this subset reads, annotations included.
    public static let keywords: Set<String> = ["type", "properties", "required", "items", "enum", "title", "description", "$comment"]

    /// Reads a schema.
    ///
    /// - Throws: ``JSONSchemaError`` naming each problem by its path under `path`: a schema
    ///   that is not an object, an unknown type or keyword, a `required` that is not a
    ///   list of names.
    public init(json: JSONValue, path: String = "$") throws(JSONSchemaError) {
        var problems: [JSONProblem] = []
        guard let schema = JSONSchema(json, at: path, problems: &problems), problems.isEmpty else {
            throw JSONSchemaError(problems: problems)
        }
        self = schema
    }

    private init?(_ json: JSONValue, at path: String, problems: inout [JSONProblem]) {
        guard case .object(let members) = json else {
            problems.append(JSONProblem(path: path, message: "a schema must be an object"))
            return nil
        }
        for key in members.keys.sorted() where !Self.keywords.contains(key) {
            problems.append(JSONProblem(
                path: "\(path).\(key)", message: "\"\(key)\" is not in the schema subset (type, properties, required, items, enum)"))
        }
        self.json = json
        switch members["type"] {
        case nil:
            types = nil
        case .string(let name)?:
            types = Self.typeNames([name], at: "\(path).type", problems: &problems)
        case .array(let names)? where !names.isEmpty && names.allSatisfy({ $0.stringValue != nil }):
            types = Self.typeNames(names.compactMap(\.stringValue), at: "\(path).type", problems: &problems)
        default:
            problems.append(JSONProblem(path: "\(path).type", message: "must be a type name or a non-empty list of them"))
            types = nil
        }
        var properties: [String: JSONSchema] = [:]
        if let value = members["properties"] {
            if case .object(let schemas) = value {
                for (name, schema) in schemas {
                    properties[name] = JSONSchema(schema, at: "\(path).properties.\(name)", problems: &problems)
                }
            } else {
                problems.append(JSONProblem(path: "\(path).properties", message: "must be an object of schemas"))
            }
        }
        self.properties = properties
        switch members["required"] {
        case nil:
            required = []
        case .array(let names)? where names.allSatisfy({ $0.stringValue != nil }):
            required = names.compactMap(\.stringValue)
        default:
            problems.append(JSONProblem(path: "\(path).required", message: "must be a list of member names"))
            required = []
        }
        if let value = members["items"] {
            itemBox = JSONSchema(value, at: "\(path).items", problems: &problems).map { [$0] } ?? []
        } else {
            itemBox = []
        }
        switch members["enum"] {
        case nil:
            allowed = nil
        case .array(let values)? where !values.isEmpty:
            allowed = values
        default:
            problems.append(JSONProblem(path: "\(path).enum", message: "must be a non-empty list of values"))
            allowed = nil
        }
    }

    private static func typeNames(_ names: [String], at path: String, problems: inout [JSONProblem]) -> Set<TypeName>? {
        var types = Set<TypeName>()
        for name in names {
            if let type = TypeName(rawValue: name) {
                types.insert(type)
            } else {
                let known = TypeName.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append(JSONProblem(path: path, message: "unknown type \"\(name)\" (expected one of \(known))"))
            }
        }
        return types
    }

    /// The first place where `value` breaks this schema, depth first in member-name order;
    /// nil when it fits. `path` names the value itself (`params`, say).
    public func violation(of value: JSONValue, at path: String = "$") -> JSONProblem? {
        if let types, !types.contains(where: { Self.value(value, is: $0) }) {
            let expected = types.map(\.rawValue).sorted().joined(separator: " or ")
            return JSONProblem(path: path, message: "must be \(expected), not \(Self.typeName(of: value))")
        }
        if let allowed, !allowed.contains(value) {
            return JSONProblem(path: path, message: "must be one of \(allowed.map(\.description).joined(separator: ", "))")
        }
        if case .object(let members) = value {
            for name in required where members[name] == nil {
                return JSONProblem(path: path, message: "must have member \"\(name)\"")
            }
            for name in properties.keys.sorted() {
                guard let member = members[name], let schema = properties[name] else { continue }
                if let problem = schema.violation(of: member, at: "\(path).\(name)") { return problem }
            }
        }
        if case .array(let elements) = value, let items {
            for (index, element) in elements.enumerated() {
                if let problem = items.violation(of: element, at: "\(path)[\(index)]") { return problem }
            }
        }
        return nil
    }

    private static func value(_ value: JSONValue, is type: TypeName) -> Bool {
        switch (type, value) {
        case (.null, .null), (.boolean, .bool), (.string, .string), (.array, .array), (.object, .object): return true
        case (.integer, .integer), (.number, .integer), (.number, .double): return true
        case (.integer, .double(let number)): return number.isFinite && number.rounded() == number
        default: return false
        }
    }

    private static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// Why a schema cannot be read: every problem, by its path.
public struct JSONSchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public let problems: [JSONProblem]

    /// An error listing `problems`.
    public init(problems: [JSONProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
