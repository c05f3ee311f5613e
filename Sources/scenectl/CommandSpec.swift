/// One scenectl command, declared once: what it is called, what it takes, what it says
/// about itself, and what runs it. The usage, `--help`, the parser's accepted options and
/// the shell completions are all read from these declarations (``Commands/all``).
struct CommandSpec: Sendable {
    /// What a command runs with its parsed arguments.
    typealias Run = @Sendable (Arguments) async throws -> ExitCode

    let name: String
    /// One line for the list of commands.
    let summary: String
    /// The positional arguments, in order.
    let arguments: [ArgumentSpec]
    /// Every option and flag the command accepts (`--help` comes on top of these).
    let options: [OptionSpec]
    /// The synopses after the name, when the options combine in ways a list cannot say
    /// (one either-or); else the synopsis is made from `arguments` and `options`.
    let forms: [String]?
    /// What `--help` says beyond the summary, as running prose (wrapped when printed).
    let details: String?
    let run: Run

    init(
        _ name: String, _ summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        forms: [String]? = nil, details: String? = nil, run: @escaping Run
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.forms = forms
        self.details = details
        self.run = run
    }

    /// The names of the options that take a value, as the parser needs them.
    var valuedOptions: Set<String> { Set(options.filter { $0.valueName != nil }.map(\.name)) }

    /// The names of the flags, `help` included.
    var flags: Set<String> { Set(options.filter { $0.valueName == nil }.map(\.name)).union(["help"]) }
}

/// What a value on the command line is, for completion.
enum ValueKind: Sendable, Equatable {
    /// Anything; nothing to offer.
    case text
    /// A path: file names are offered.
    case file
    /// One of these words.
    case choice([String])
    /// Some of these words, comma-separated.
    case list([String])
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    /// As the usage shows it: `SCENE`, `ROUTE-JSON`, `on|off`.
    let name: String
    let isOptional: Bool
    let kind: ValueKind

    static func required(_ name: String, _ kind: ValueKind = .text) -> ArgumentSpec {
        ArgumentSpec(name: name, isOptional: false, kind: kind)
    }

    static func optional(_ name: String, _ kind: ValueKind = .text) -> ArgumentSpec {
        ArgumentSpec(name: name, isOptional: true, kind: kind)
    }

    /// `NAME`, or `[NAME]` when it may be left out.
    var synopsis: String { isOptional ? "[\(name)]" : name }
}

/// An option (`--name VALUE`) or a flag (`--name`).
///
/// - `isRequired` and `requires` only shape the synopsis (`--from ID`,
///   `[--state FILE [--durable]]`); the command checks them with its own message.
/// - A shared option (the socket, the app, `--json`) is left out of the list of commands,
///   whose header and notes describe it once, and shown in the command's own help.
struct OptionSpec: Sendable {
    let name: String
    /// Nil for a flag.
    let valueName: String?
    let help: String
    let kind: ValueKind
    let isRequired: Bool
    /// The option this one only goes with.
    let requires: String?
    let isShared: Bool

    static func option(
        _ name: String, _ valueName: String, _ help: String, kind: ValueKind = .text,
        required: Bool = false, shared: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, kind: kind, isRequired: required, requires: nil, isShared: shared)
    }

    static func flag(_ name: String, _ help: String, requires: String? = nil, shared: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, kind: .text, isRequired: false, requires: requires, isShared: shared)
    }

    /// `--name VALUE` or `--name`, without brackets.
    var usage: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}
