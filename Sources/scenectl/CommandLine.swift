import Foundation

/// How scenectl ends: 0 success, 1 domain failure, 2 usage error, 3 cannot connect.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
    case cannotConnect = 3
}

/// A command-line mistake: printed with the command's usage, exit code 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The arguments of one command: positionals, `--name value` options and `--flag`s.
struct Arguments: Sendable {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` as `command` declares them: an option or flag it does not
    /// declare is a usage error, and so are fewer positionals than it requires or more
    /// than it takes (a command's own checks come after, when it runs).
    init(_ arguments: [String], for command: CommandSpec) throws(UsageError) {
        try self.init(arguments, valued: command.valuedOptions, flags: command.flags)
        let required = command.arguments.filter { !$0.isOptional }.count
        guard (required...command.arguments.count).contains(positionals.count) || flags.contains("help") else {
            let names = command.arguments.map(\.synopsis)
            throw UsageError(
                "expected \(names.isEmpty ? "no arguments" : names.joined(separator: " ")), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")")
        }
    }

    /// Parses `arguments` knowing which `--names` take a value.
    private init(_ arguments: [String], valued: Set<String>, flags knownFlags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                positionals += arguments[(index + 1)...]
                break
            }
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var inline: String?
                if let equals = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if valued.contains(name) {
                    if let inline {
                        options[name] = inline
                    } else {
                        guard index + 1 < arguments.count else { throw UsageError("--\(name) needs a value") }
                        options[name] = arguments[index + 1]
                        index += 1
                    }
                } else if knownFlags.contains(name), inline == nil {
                    flags.insert(name)
                } else {
                    let near = Suggestion.nearest(to: name, among: valued.union(knownFlags))
                    throw UsageError("unknown option --\(name)" + (near.map { " (did you mean --\($0)?)" } ?? ""))
                }
            } else {
                positionals.append(argument)
            }
            index += 1
        }
    }

    /// Where the command's name is in a command line whose global options (`--socket`,
    /// `--app`, `--json`, `-h`/`--help`) may come before it: its index, or nil when there
    /// is none (only options, or nothing).
    static func commandIndex(in arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--socket" || argument == "--app" {
                index += 2
            } else if argument.hasPrefix("-") {
                index += 1
            } else {
                return index
            }
        }
        return nil
    }

    func option(_ name: String) -> String? { options[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Exactly `count` positionals, named for the message.
    func expect(_ names: String...) throws(UsageError) -> [String] {
        guard positionals.count == names.count else {
            throw UsageError("expected \(names.isEmpty ? "no arguments" : names.joined(separator: " ")), got \(positionals.count) argument\(positionals.count == 1 ? "" : "s")")
        }
        return positionals
    }
}

/// "Did you mean": the nearest of some names to a mistyped one.
enum Suggestion {
    /// The name among `names` nearest to `typed` by edit distance, when it is near enough
    /// to be what was meant (at most 2 edits, and fewer than half the name's length); nil
    /// otherwise.
    static func nearest(to typed: String, among names: some Sequence<String>) -> String? {
        let scored = names.map { ($0, distance(typed, $0)) }.filter { $0.1 <= min(2, max(1, typed.count / 2)) }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// The Levenshtein distance between two strings, by characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
