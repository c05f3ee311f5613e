import Foundation

/// `scenectl completions SHELL`: a completion script for bash, zsh or fish, made from
/// ``Commands/all`` — the command names first, then each command's options, their values
/// (file names, or the declared words) and its positional arguments.
enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    static func run(_ arguments: Arguments) throws(UsageError) -> ExitCode {
        let shell = arguments.positionals[0]
        switch shell {
        case "bash": print(bash(Commands.all))
        case "zsh": print(zsh(Commands.all))
        case "fish": print(fish(Commands.all))
        default: throw UsageError("unknown shell \"\(shell)\" (expected bash, zsh or fish)")
        }
        return .success
    }

    /// The options a command completes: its own, then `--help`.
    private static func options(_ command: CommandSpec) -> [OptionSpec] {
        command.options + [.flag("help", "print this help")]
    }

    /// `text` inside single quotes, for bash and zsh.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    // MARK: bash

    /// A `complete -F` function; it needs no bash-completion package.
    ///
    /// - The command's positional arguments complete as the first of them that is not
    ///   free text (a file, or one of some words) whatever their position.
    static func bash(_ commands: [CommandSpec]) -> String {
        var lines = [
            "# bash completion for scenectl, made by `scenectl completions bash`.",
            "_scenectl() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local words='' list='' files=''",
            "    COMPREPLY=()",
            "    if ((COMP_CWORD == 1)); then",
            "        words=\(quoted(commands.map(\.name).joined(separator: " ")))",
            "    else",
            "        case ${COMP_WORDS[1]} in",
        ]
        for command in commands {
            lines.append("        \(command.name))")
            lines.append("            case $prev in")
            let valued = command.options.filter { $0.valueName != nil }
            for option in valued {
                lines.append("            --\(option.name)) \(bashValue(option.kind)) ;;")
            }
            let positional = command.arguments.first { $0.kind != .text }?.kind ?? .text
            let names = quoted(options(command).map { "--\($0.name)" }.joined(separator: " "))
            lines.append("            *) if [[ $cur == -* ]]; then words=\(names); else \(bashValue(positional)); fi ;;")
            lines.append("            esac")
            lines.append("            ;;")
        }
        lines += [
            "        *) return ;;",
            "        esac",
            "    fi",
            "    if [[ -n $list ]]; then",
            "        local done=${cur%\"${cur##*,}\"}",
            "        mapfile -t COMPREPLY < <(compgen -P \"$done\" -W \"$list\" -- \"${cur##*,}\")",
            "    elif [[ -n $files ]]; then",
            "        compopt -o filenames 2>/dev/null",
            "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")",
            "    else",
            "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")",
            "    fi",
            "}",
            "complete -F _scenectl scenectl",
        ]
        return lines.joined(separator: "\n")
    }

    /// What the bash function sets to complete a value of `kind`.
    private static func bashValue(_ kind: ValueKind) -> String {
        switch kind {
        case .text: return "return"
        case .file: return "files=1"
        case .choice(let words): return "words=\(quoted(words.joined(separator: " ")))"
        case .list(let words): return "list=\(quoted(words.joined(separator: " ")))"
        }
    }

    // MARK: zsh

    /// A `#compdef` function: saved as `_scenectl` in a folder of `$fpath` it is autoloaded;
    /// sourced, it registers itself.
    static func zsh(_ commands: [CommandSpec]) -> String {
        var lines = [
            "#compdef scenectl",
            "# zsh completion for scenectl, made by `scenectl completions zsh`.",
            "",
            "_scenectl() {",
            "    local context state state_descr line",
            "    typeset -A opt_args",
            "    local -a commands",
            "    commands=(",
        ]
        lines += commands.map { "        " + quoted("\($0.name):\($0.summary)") }
        lines += [
            "    )",
            "    _arguments -C '1: :->command' '*:: :->argument'",
            "    case $state in",
            "    command)",
            "        _describe -t commands 'scenectl command' commands",
            "        ;;",
            "    argument)",
            "        case $words[1] in",
        ]
        for command in commands {
            var specs = options(command).map { option in
                let help = "[\(zshEscaped(option.help))]"
                guard let valueName = option.valueName else { return quoted("--\(option.name)\(help)") }
                return quoted("--\(option.name)=\(help):\(zshMessage(valueName)):\(zshAction(option.kind, named: valueName))")
            }
            for (index, argument) in command.arguments.enumerated() {
                let colons = argument.isOptional ? "::" : ":"
                specs.append(quoted("\(index + 1)\(colons)\(zshMessage(argument.name)):\(zshAction(argument.kind, named: argument.name))"))
            }
            lines.append("        \(command.name))")
            lines.append("            _arguments -S \\")
            lines += specs.enumerated().map { index, spec in "                \(spec)" + (index == specs.count - 1 ? "" : " \\") }
            lines.append("            ;;")
        }
        lines += [
            "        esac",
            "        ;;",
            "    esac",
            "}",
            "",
            "if [[ $funcstack[1] == _scenectl ]]; then",
            "    _scenectl \"$@\"",
            "else",
            "    compdef _scenectl scenectl",
            "fi",
        ]
        return lines.joined(separator: "\n")
    }

    /// An option's explanation, for inside `[…]`.
    private static func zshEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]")
    }

    /// A value's name, for between colons.
    private static func zshMessage(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
    }

    /// How zsh completes a value of `kind`; a space offers nothing but shows the name.
    private static func zshAction(_ kind: ValueKind, named name: String) -> String {
        switch kind {
        case .text: return " "
        case .file: return "_files"
        case .choice(let words): return "(\(words.joined(separator: " ")))"
        case .list(let words): return "_values -s , \(quoted(name)) \(words.joined(separator: " "))"
        }
    }

    // MARK: fish

    /// `complete` lines: the commands while none is given, then each command's options
    /// and arguments once it is.
    static func fish(_ commands: [CommandSpec]) -> String {
        var lines = [
            "# fish completion for scenectl, made by `scenectl completions fish`.",
            "complete -c scenectl -f",
        ]
        lines += commands.map { "complete -c scenectl -n __fish_use_subcommand -a \($0.name) -d \(fishQuoted($0.summary))" }
        for command in commands {
            let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
            for option in options(command) {
                var line = "complete -c scenectl \(condition) -l \(option.name)"
                if option.valueName != nil {
                    switch option.kind {
                    case .text: line += " -x"
                    case .file: line += " -r -F"
                    case .choice(let words), .list(let words): line += " -x -a \(fishQuoted(words.joined(separator: " ")))"
                    }
                }
                lines.append(line + " -d \(fishQuoted(option.help))")
            }
            for argument in command.arguments {
                switch argument.kind {
                case .text: continue
                case .file: lines.append("complete -c scenectl \(condition) -F")
                case .choice(let words), .list(let words):
                    lines.append("complete -c scenectl \(condition) -a \(fishQuoted(words.joined(separator: " ")))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` inside fish's single quotes, where only `\\` and `\'` are escapes.
    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
