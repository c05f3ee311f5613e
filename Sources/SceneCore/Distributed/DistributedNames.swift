import CSceneSystem
import Glibc
import SceneSync

/// A distributed function as the wire names it: its Swift name with its argument labels
/// (`save(draft:count:)`, `price(_:)`), and which type declares it.
///
/// Read from what the runtime's demangler says of a call target, for instance
/// `distributed thunk Notes.Notebook.save(draft: Swift.String, count: Swift.Int) async throws
/// -> Swift.Int`: owner `Notes.Notebook`, method `save(draft:count:)`, labels `draft`, `count`.
struct DistributedName: Hashable, Sendable {
    /// The declaring type, qualified by its module (`Notes.Notebook`; a `@Resolvable`
    /// protocol's stub, `Notes.$Notebook`).
    let owner: String
    /// `save(draft:count:)`.
    let method: String
    /// Each parameter's argument label, nil where it has none (`_`).
    let labels: [String?]

    /// The name in a demangled call target; nil when it is not a distributed function's, or
    /// names a generic one (its type arguments could not travel).
    init?(demangled text: String) {
        let prefix = "distributed thunk "
        guard text.hasPrefix(prefix) else { return nil }
        var rest = Substring(text.dropFirst(prefix.count))
        // A function declared in an extension in another module: "(extension in M):N.T.f(…)".
        if rest.hasPrefix("(extension in "), let colon = rest.firstIndex(of: ":") {
            rest = rest[rest.index(after: colon)...]
        }
        // The parameter list is the first top-level "(" that follows a name: an owner's
        // own parentheses ("(unknown context at …)") follow a dot or nothing.
        var depth = 0
        var open: Substring.Index?
        var index = rest.startIndex
        while index < rest.endIndex {
            let character = rest[index]
            switch character {
            case "(" where depth == 0 && index > rest.startIndex && Self.isNameCharacter(rest[rest.index(before: index)]):
                open = index
            case "(", "[", "<": depth += 1
            case ")", "]", ">": depth -= 1
            default: break
            }
            if open != nil { break }
            index = rest.index(after: index)
        }
        guard let open, let dot = rest[..<open].lastIndex(of: ".") else { return nil }
        let base = rest[rest.index(after: dot)..<open]
        guard !base.isEmpty, base.allSatisfy(Self.isNameCharacter) else { return nil }
        guard let parameters = Self.parameters(after: open, in: rest) else { return nil }
        owner = String(rest[..<dot])
        labels = parameters.map(Self.label(of:))
        method = "\(base)(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber || character == "$"
    }

    /// The top-level parameters between the "(" at `open` and its ")".
    private static func parameters(after open: Substring.Index, in text: Substring) -> [Substring]? {
        var depth = 0
        var parts: [Substring] = []
        var start = text.index(after: open)
        var index = start
        while index < text.endIndex {
            switch text[index] {
            case "(", "[", "<": depth += 1
            case "]", ">": depth -= 1
            case ")" where depth == 0:
                let last = text[start..<index]
                if !last.isEmpty { parts.append(last) }
                return parts
            case ")": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// "draft: Swift.String" has the label `draft`; "Swift.Int" has none.
    private static func label(of parameter: Substring) -> String? {
        let trimmed = parameter.drop { $0 == " " }
        guard let colon = trimmed.firstIndex(of: ":"), trimmed[trimmed.index(after: colon)...].hasPrefix(" ") else { return nil }
        let label = trimmed[..<colon]
        guard !label.isEmpty, label.allSatisfy(isNameCharacter) else { return nil }
        return String(label)
    }

    /// What the runtime's demangler says of `mangled`; nil when it does not demangle.
    static func demangle(_ mangled: String) -> String? {
        var mangled = mangled
        return mangled.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress else { return nil }
            let text = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                swift_demangle($0, bytes.count, nil, nil, 0)
            }
            guard let text else { return nil }
            defer { free(text) }
            return String(cString: text)
        }
    }
}

/// The distributed functions compiled into this program, read once from the runtime's
/// table of them (each function's mangled name, which the demangler reads): how a scene
/// finds the function a call names, whatever its caller (a Swift caller's own target, a
/// `@Resolvable` protocol's stub, or a process in another language) had in hand.
enum DistributedFunctions {
    /// A function a type declares, by its wire name.
    struct Entry: Sendable {
        /// The mangled name `executeDistributedTarget` takes; nil when two functions of
        /// the type share the wire name (overloads that differ only in types).
        let identifier: String?
        let labels: [String?]
        /// The params' member of each argument, when every parameter has a label (the
        /// common case: the labels themselves, made once rather than at each call).
        let keys: [String]?

        init(identifier: String?, labels: [String?]) {
            self.identifier = identifier
            self.labels = labels
            keys = labels.contains(nil) ? nil : labels.map { $0! }
        }
    }

    /// By owner, then by wire name.
    static let all: [String: [String: Entry]] = {
        var table: [String: [String: Entry]] = [:]
        for identifier in mangledNames() {
            guard let text = DistributedName.demangle(identifier), let name = DistributedName(demangled: text) else { continue }
            let owner = owner(name.owner)
            let taken = table[owner]?[name.method] != nil
            table[owner, default: [:]][name.method] = Entry(identifier: taken ? nil : identifier, labels: name.labels)
        }
        return table
    }()

    /// The functions `type` declares.
    static func declared(by type: Any.Type) -> [String: Entry] {
        all[owner(_typeName(type, qualified: true))] ?? [:]
    }

    /// A type's name with the private discriminators the demangler and the runtime write
    /// differently left out: `M.(T in _8F…)` and `M.(unknown context at $5a…).T` are both
    /// `M.T`. (Two private types of one name in a module then share their functions'
    /// names, and a name both declare is refused as ambiguous.)
    static func owner(_ name: String) -> String {
        var result = ""
        var rest = Substring(name)
        while let open = rest.firstIndex(of: "(") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ")") else { break }
            let inside = rest[rest.index(after: open)..<close]
            var after = rest[rest.index(after: close)...]
            if inside.hasPrefix("unknown context at ") {
                if after.hasPrefix(".") { after = after.dropFirst() }
            } else if let marker = inside.range(of: " in _") {
                result += inside[..<marker.lowerBound]
            } else {
                result += rest[open...close]
            }
            rest = after
        }
        return result + rest
    }

    /// The mangled names in the runtime's table for this image: records of five 32-bit
    /// fields, the first a relative pointer to the name.
    private static func mangledNames() -> [String] {
        let recordSize = 5 * MemoryLayout<Int32>.size
        guard let start = scene_distributed_functions_start(), let end = scene_distributed_functions_end(),
            end > start, (end - start) % recordSize == 0
        else { return [] }
        var names: [String] = []
        var record = start
        while record < end {
            let name = record + Int(record.loadUnaligned(as: Int32.self))
            names.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
            record += recordSize
        }
        return names
    }

    /// Wire names of call targets already read, by mangled name: a caller reads its
    /// target's once.
    private static let methods = Locked<[String: String]>([:])

    /// The wire name of call target `identifier`.
    ///
    /// - Throws: -32601 for a target that is not a distributed function's or is generic.
    static func method(of identifier: String) throws(SceneError) -> String {
        if let known = methods.withLock({ $0[identifier] }) { return known }
        guard let text = DistributedName.demangle(identifier), let name = DistributedName(demangled: text) else {
            throw .methodNotFound(
                "\(DistributedName.demangle(identifier) ?? identifier): not a distributed function a scene can be called by (a generic one cannot)")
        }
        methods.withLock { $0[identifier] = name.method }
        return name.method
    }
}
