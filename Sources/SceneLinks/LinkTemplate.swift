public import SceneJSON

/// JSON with `${name}` placeholders, filled in from a link's path parameters.
///
/// - A placeholder inside a longer string is replaced by the parameter's text:
///   `"doc-${doc}"`.
/// - A string that is exactly one placeholder with a conversion becomes a JSON number or
///   boolean: `"${id:int}"`, `"${x:double}"`, `"${on:bool}"` (`true`/`false`/`1`/`0`).
///   `"${name:string}"` is the same as `"${name}"`. A value that does not convert rejects
///   the link with ``LinkRejection/invalidParameter(name:value:expected:)``.
/// - `$$` writes one `$`, so `"$${x}"` is the literal text `${x}`.
/// - Only strings are templates; object keys, numbers, booleans and null are kept as is.
/// - Every problem — a name the pattern does not have, an unknown conversion, an
///   unterminated placeholder — is found when the template is built, with its JSON path.
public struct LinkTemplate: Hashable, Sendable {
    /// The template as written.
    public let json: JSONValue
    private let node: Node

    /// A conversion a whole-string placeholder can ask for.
    public enum Conversion: String, Hashable, Sendable, CaseIterable {
        /// `string` keeps the text; `int`, `double` and `bool` (`true`/`false`/`1`/`0`) make
        /// a JSON number or boolean, and a value that does not convert rejects the link.
        case string, int, double, bool
    }

    private indirect enum Node: Hashable, Sendable {
        case constant(JSONValue)
        case text([Piece])
        case converted(name: String, Conversion)
        case array([Node])
        case object([String: Node])
    }

    private enum Piece: Hashable, Sendable {
        case text(String)
        case parameter(String)
    }

    /// Compiles `json`, allowing placeholders that name one of `parameters`.
    ///
    /// - Throws: ``LinkTemplateError`` listing every problem with its JSON path, relative
    ///   to `path` (for example `"links[0].plan"`).
    public init(_ json: JSONValue, parameters: Set<String>, path: String = "") throws(LinkTemplateError) {
        var problems: [LinkTemplateError.Problem] = []
        self.json = json
        self.node = LinkTemplate.compile(json, parameters: parameters, path: path, problems: &problems)
        if !problems.isEmpty { throw LinkTemplateError(problems: problems) }
    }

    /// The parameter names the template uses.
    public var parameterNames: Set<String> {
        var names = Set<String>()
        LinkTemplate.collect(node, into: &names)
        return names
    }

    /// The JSON with every placeholder filled in from `parameters`' path values.
    ///
    /// - Throws: ``LinkRejection/invalidParameter(name:value:expected:)`` when a value
    ///   does not convert.
    public func render(_ parameters: LinkParameters) throws(LinkRejection) -> JSONValue {
        try LinkTemplate.render(node, parameters)
    }

    private static func render(_ node: Node, _ parameters: LinkParameters) throws(LinkRejection) -> JSONValue {
        switch node {
        case .constant(let value):
            return value
        case .text(let pieces):
            var text = ""
            for piece in pieces {
                switch piece {
                case .text(let literal): text += literal
                case .parameter(let name): text += pathValue(name, parameters)
                }
            }
            return .string(text)
        case .converted(let name, let conversion):
            let value = pathValue(name, parameters)
            switch conversion {
            case .string:
                return .string(value)
            case .int:
                guard let number = Int(value) else { throw invalid(name, value, conversion) }
                return .integer(number)
            case .double:
                guard let number = Double(value), number.isFinite else {
                    throw invalid(name, value, conversion)
                }
                return .double(number)
            case .bool:
                guard let flag = LinkParameters.parseBool(value) else { throw invalid(name, value, conversion) }
                return .bool(flag)
            }
        case .array(let nodes):
            var values: [JSONValue] = []
            values.reserveCapacity(nodes.count)
            for node in nodes { values.append(try render(node, parameters)) }
            return .array(values)
        case .object(let members):
            var values: [String: JSONValue] = [:]
            for (key, node) in members { values[key] = try render(node, parameters) }
            return .object(values)
        }
    }

    private static func invalid(_ name: String, _ value: String, _ conversion: Conversion) -> LinkRejection {
        .invalidParameter(name: name, value: value, expected: conversion.rawValue)
    }

    /// Templates see path parameters only; the build guarantees the name exists.
    private static func pathValue(_ name: String, _ parameters: LinkParameters) -> String {
        parameters.pathItems.first { $0.name == name }?.value ?? ""
    }

    private static func collect(_ node: Node, into names: inout Set<String>) {
        switch node {
        case .constant: break
        case .text(let pieces):
            for case .parameter(let name) in pieces { names.insert(name) }
        case .converted(let name, _): names.insert(name)
        case .array(let nodes): for node in nodes { collect(node, into: &names) }
        case .object(let members): for node in members.values { collect(node, into: &names) }
        }
    }

    private static func compile(
        _ json: JSONValue, parameters: Set<String>, path: String,
        problems: inout [LinkTemplateError.Problem]
    ) -> Node {
        switch json {
        case .string(let text):
            return compileString(text, parameters: parameters, path: path, problems: &problems)
        case .array(let values):
            return .array(values.enumerated().map { index, value in
                compile(value, parameters: parameters, path: "\(path)[\(index)]", problems: &problems)
            })
        case .object(let members):
            var nodes: [String: Node] = [:]
            for key in members.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                nodes[key] = compile(members[key]!, parameters: parameters, path: child, problems: &problems)
            }
            return .object(nodes)
        case .null, .bool, .integer, .double:
            return .constant(json)
        }
    }

    private static func compileString(
        _ text: String, parameters: Set<String>, path: String,
        problems: inout [LinkTemplateError.Problem]
    ) -> Node {
        guard text.contains("$") else { return .constant(.string(text)) }
        var pieces: [Piece] = []
        var literal = ""
        var conversions: [(name: String, Conversion)] = []
        var rest = Substring(text)
        func report(_ message: String) {
            problems.append(LinkTemplateError.Problem(path: path.isEmpty ? "$" : path, message: message))
        }
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                literal += "$"
                rest = after.dropFirst()
            } else if after.first == "{" {
                guard let close = after.firstIndex(of: "}") else {
                    report("unterminated placeholder in \"\(text)\"")
                    return .constant(.string(text))
                }
                let body = after[after.index(after: after.startIndex)..<close]
                let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                var conversion = Conversion.string
                if parts.count == 2 {
                    if let known = Conversion(rawValue: String(parts[1])) {
                        conversion = known
                    } else {
                        report("unknown conversion \"\(parts[1])\" (expected string, int, double or bool)")
                    }
                }
                if !LinkPattern.isValidName(name) {
                    report("invalid placeholder name \"\(name)\"")
                } else if !parameters.contains(name) {
                    let known = parameters.sorted().joined(separator: ", ")
                    report("placeholder \"${\(name)}\" names no parameter of the pattern (it has: \(known.isEmpty ? "none" : known))")
                }
                if !literal.isEmpty {
                    pieces.append(.text(literal))
                    literal = ""
                }
                pieces.append(.parameter(name))
                if parts.count == 2 { conversions.append((name, conversion)) }
                rest = after[after.index(after: close)...]
            } else {
                literal += "$"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(literal)) }
        if let (name, conversion) = conversions.first {
            if pieces.count != 1 {
                report("a conversion (\"${\(name):\(conversion.rawValue)}\") needs the placeholder to be the whole string")
            }
            return .converted(name: name, conversion)
        }
        if pieces.allSatisfy({ if case .text = $0 { return true } else { return false } }) {
            return .constant(.string(pieces.map { if case .text(let value) = $0 { return value } else { return "" } }.joined()))
        }
        return .text(pieces)
    }
}

/// Why a template could not be built; lists every problem with its JSON path.
public struct LinkTemplateError: JSONProblemReport {
    /// One problem at one place in the template.
    public typealias Problem = JSONProblem

    /// Every problem, in document order.
    public let problems: [Problem]

    /// An error listing `problems`.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    public var code: String { "invalid_template" }
}
