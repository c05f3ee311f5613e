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
    /// declare is a usage error.
    init(_ arguments: [String], for command: CommandSpec) throws(UsageError) {
        try self.init(arguments, valued: command.valuedOptions, flags: command.flags)
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
                    throw UsageError("unknown option --\(name)")
                }
            } else {
                positionals.append(argument)
            }
            index += 1
        }
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
