import Foundation

/// The usage and `--help` texts, made from the declarations.
extension CommandSpec {
    /// How wide the help's lines may be.
    static let width = 100

    /// The synopses after the name, each as words that are never broken across lines
    /// (`[--state FILE [--durable]]` is one word); shared options only if `shared`.
    func synopses(shared: Bool) -> [[String]] {
        let sharedWords = shared ? options.filter(\.isShared).map { "[\($0.usage)]" } : []
        if let forms {
            return forms.map { Self.words($0) + sharedWords }
        }
        var words = arguments.map(\.synopsis)
        for option in options where option.requires == nil && !option.isShared {
            if option.isRequired {
                words.append(option.usage)
            } else {
                let nested = options.filter { $0.requires == option.name }.map { " [\($0.usage)]" }.joined()
                words.append("[\(option.usage)\(nested)]")
            }
        }
        return [words + sharedWords]
    }

    /// The synopses alone: the short usage a mistake is answered with.
    var usageLines: String {
        synopses(shared: true).flatMap { Self.wrap(words: $0, prefix: "scenectl \(name)") }.joined(separator: "\n")
    }

    /// `scenectl COMMAND --help`: the synopses, what the command does, and each option.
    var help: String {
        var lines: [String] = []
        for words in synopses(shared: true) {
            lines += Self.wrap(words: words, prefix: "scenectl \(name)")
        }
        for paragraph in (details ?? summary).split(separator: "\n") {
            lines += Self.wrap(String(paragraph), indent: "  ")
        }
        let rows = options.map { ($0.usage, $0.help) } + [("--help", "print this help")]
        let column = min(rows.map(\.0.count).max() ?? 0, 20)
        lines += ["", "options:"]
        for (usage, help) in rows {
            let indent = String(repeating: " ", count: column + 4)
            if usage.count > column {
                lines.append("  \(usage)")
                lines += Self.wrap(help, indent: indent)
            } else {
                var wrapped = Self.wrap(help, indent: indent)
                wrapped[0] = "  " + usage.padding(toLength: column, withPad: " ", startingAt: 0) + "  " + wrapped[0].dropFirst(indent.count)
                lines += wrapped
            }
        }
        return lines.joined(separator: "\n")
    }

    /// This command's entry in the list of commands: its synopsis without the shared
    /// options, and its summary from the 39th column.
    var entry: [String] {
        let forms = synopses(shared: false).map { $0.joined(separator: " ") }
        let words = forms.isEmpty ? [] : [forms.joined(separator: " | ")]
        let left = Self.wrap(words: words.flatMap(Self.words), prefix: "  \(name)")
        let indent = String(repeating: " ", count: 39)
        var right = Self.wrap(summary, indent: indent)
        if left.count == 1, left[0].count <= 37 {
            right[0] = left[0].padding(toLength: 39, withPad: " ", startingAt: 0) + right[0].dropFirst(indent.count)
            return right
        }
        return left + right
    }

    /// Splits a synopsis at the spaces outside brackets.
    static func words(_ synopsis: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in synopsis {
            if character == " ", depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `prefix` and `words`, wrapped; later lines start under the first word.
    static func wrap(words: [String], prefix: String) -> [String] {
        let indent = String(repeating: " ", count: prefix.count + 1)
        var lines = [prefix]
        for word in words {
            if lines[lines.count - 1] != prefix, lines[lines.count - 1].count + 1 + word.count > width {
                lines.append(indent + word)
            } else {
                lines[lines.count - 1] += " " + word
            }
        }
        return lines
    }

    /// `text` wrapped at the spaces, every line starting with `indent`.
    static func wrap(_ text: String, indent: String) -> [String] {
        var lines = [indent]
        for word in text.split(separator: " ") {
            if lines[lines.count - 1].count > indent.count, lines[lines.count - 1].count + 1 + word.count > width {
                lines.append(indent)
            }
            lines[lines.count - 1] += (lines[lines.count - 1].count > indent.count ? " " : "") + word
        }
        return lines
    }
}

extension Commands {
    /// `scenectl`, `scenectl --help` and `scenectl help`: every command with its summary.
    static var usage: String {
        ([overview, "", "commands:"] + all.flatMap(\.entry) + ["", notes]).joined(separator: "\n")
    }
}
