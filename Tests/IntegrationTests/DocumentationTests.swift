import Foundation
import Glibc
import SceneJSON
import Testing

/// The README and every DocC article keep their promises: each Swift block is a file the
/// package compiles (a snippet program under `Snippets/`, a test, or the product's own
/// source), each snippet program runs and prints what the text shows, the command-line tour
/// runs as written against a real coordinator, the Python scene works from the README
/// alone, and the demo prints what the README quotes of it.
///
/// A block says what checks it with an HTML comment on the line before it (hidden on
/// GitHub and in DocC):
/// - `<!-- snippet: PATH -->`: the block is PATH's whole shown text (a file's lines
///   between `// snippet.hide` and `// snippet.show` are hidden, the markers with them);
/// - `<!-- excerpt: PATH -->`: the block is a run of whole lines of PATH's shown text;
/// - `<!-- output: PATH -->`: the block is what the snippet program PATH prints;
/// - `<!-- demo -->`: lines `scenectl demo` prints, in order (`...` skips lines; pids may differ);
/// - `<!-- tour: serve -->`, `<!-- tour: drive -->`: the command-line tour (see ``tour()``);
/// - `<!-- file: NAME -->`: the file NAME of an example the tests write out and run.
@Suite("The docs: every snippet compiled, run and as shown", .timeLimit(.minutes(10)))
struct DocumentationTests {
    @Test("every Swift block of the README and the DocC catalogs is a snippet file's shown text, or an excerpt of one (or a file a test writes out)")
    func everySwiftBlockIsAFile() throws {
        var checked = 0
        for block in try Markdown.allBlocks() where block.language == "swift" || ["snippet", "excerpt"].contains(block.marker?.kind) {
            // A file the tests write out and use (the README's Package.swift).
            if block.marker?.kind == "file", Self.writtenOut.contains(block.marker!.argument) { continue }
            guard let marker = block.marker, ["snippet", "excerpt"].contains(marker.kind) else {
                Issue.record("\(block.place): a Swift block with no <!-- snippet: PATH --> or <!-- excerpt: PATH --> before it")
                continue
            }
            guard let shown = try? Snippet.shownText(of: marker.argument) else {
                Issue.record("\(block.place): \(marker.argument) does not exist")
                continue
            }
            if marker.kind == "snippet" {
                #expect(block.text == shown, "\(block.place) differs from \(marker.argument):\n\(Markdown.difference(block.text, shown))")
            } else {
                #expect(
                    !block.text.allSatisfy(\.isWhitespace) && Markdown.isExcerpt(block.text, of: shown),
                    "\(block.place) is not a run of whole lines of \(marker.argument)")
            }
            checked += 1
        }
        #expect(checked >= 30)
    }

    @Test("every marker comment sits on the line right before a fenced block, so that none is silently skipped")
    func markersBeforeFences() throws {
        for file in try Markdown.files() {
            let lines = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- ") && line.hasSuffix(" -->") {
                let next = index + 1 < lines.count ? lines[index + 1] : ""
                #expect(next.hasPrefix("```"), "\(file):\(index + 1): \(line) is not followed by a fenced block")
            }
        }
    }

    @Test("a snippet imports only the package's products and the toolchain's modules, as an app that depends on the package can")
    func snippetsImportProducts() throws {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let products = Set(manifest.matches(of: /\.library\(name: "(\w+)"/).map { String($0.output.1) })
        let toolchain: Set = ["Foundation", "Glibc", "Dispatch", "Distributed", "Synchronization", "Testing"]
        let shown = try Markdown.allBlocks().filter { ["snippet", "excerpt"].contains($0.marker?.kind) && $0.language == "swift" }
        for block in shown {
            for match in block.text.matches(of: /(?m)^import (\w+)$/) {
                let module = String(match.output.1)
                #expect(products.contains(module) || toolchain.contains(module), "\(block.place) imports \(module), which is not a product")
            }
        }
    }

    @Test("every output block names a snippet program, and every snippet program is shown somewhere")
    func outputsNameSnippets() throws {
        let blocks = try Markdown.allBlocks()
        #expect(blocks.count { $0.marker?.kind == "output" } >= 12)
        #expect(blocks.count { $0.marker?.kind == "demo" } == 2)
        for block in blocks where block.marker?.kind == "output" {
            #expect(Snippet.programs().contains(block.marker!.argument), "\(block.place): \(block.marker!.argument) is not a snippet program")
        }
        let shown = Set(blocks.compactMap { $0.marker.flatMap { ["snippet", "excerpt"].contains($0.kind) ? $0.argument : nil } })
        for program in Snippet.programs() {
            #expect(shown.contains(program), "\(program) is in no document")
        }
    }

    @Test("each snippet program exits 0 and prints exactly what the docs show it printing", arguments: Snippet.programs())
    func snippetRuns(_ program: String) async throws {
        try await withTemporaryFolder { folder in
            let name = URL(fileURLWithPath: program).deletingPathExtension().lastPathComponent
            // Its sockets and temporary files land in the test's folder.
            let child = try ChildProcess(
                [], environment: ["TMPDIR": folder.path, "XDG_RUNTIME_DIR": folder.path], executable: builtExecutable(name))
            defer { child.kill() }
            let code = await Self.finish(child, within: .seconds(120))
            let printed = child.standardOutput
            #expect(code == 0, "\(program) exited \(code.map(String.init) ?? "not within 120 s"): \(child.standardError)")
            for block in try Markdown.allBlocks() where block.marker?.kind == "output" && block.marker?.argument == program {
                #expect(printed == block.text + "\n", "\(block.place): \(program) printed otherwise:\n\(Markdown.difference(block.text, printed))")
            }
        }
    }

    @Test("the README's quotes of scenectl demo are what it prints, in order")
    func demoQuotes() async throws {
        let quotes = try Markdown.blocks(in: "README.md").filter { $0.marker?.kind == "demo" }
        #expect(!quotes.isEmpty)
        // In a folder of its own: the demo's own test looks for its scene processes by
        // their socket's folder, which is in $TMPDIR.
        let demo = try await withTemporaryFolder { folder in try await scenectl(["demo"], environment: ["TMPDIR": folder.path]) }
        #expect(demo.code == 0, "\(demo.err)")
        let printed = Markdown.anyPid(demo.out).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for quote in quotes {
            let lines = Markdown.anyPid(quote.text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Markdown.appears(lines, in: printed), "\(quote.place): not what scenectl demo prints:\n\(demo.out)")
        }
    }

    /// The tour: `<!-- tour: serve -->`'s command starts the coordinator (with
    /// `SCENE_SOCKET` set, as a user who exported it would have), then each line of
    /// `<!-- tour: drive -->` runs in order, in the same folder. A line's comment
    /// `# → TEXT — prose` says what it prints: TEXT must appear in its output, and its exit
    /// status is 0 — or 1 when TEXT starts with `refused`. A line ending in `&` runs in the background
    /// (the next line starts once it has printed its first line) and must exit 0 by the
    /// end. The tour's last line shuts the coordinator down, which must exit 0.
    @Test("the README's command-line tour runs as written: each line succeeds, or is refused, as its comment says")
    func tour() async throws {
        let blocks = try Markdown.blocks(in: "README.md")
        let serveLines = try #require(blocks.first { $0.marker?.kind == "tour" && $0.marker?.argument == "serve" }).commands
        let driveLines = try #require(blocks.first { $0.marker?.kind == "tour" && $0.marker?.argument == "drive" }).commands
        try #require(serveLines.count == 1)
        try await withTemporaryFolder { folder in
            let environment = ["SCENE_SOCKET": folder.file("tour.sock")]
            let serve = try ChildProcess(
                ["-c", "cd '\(folder.path)' && exec \(Self.shell(serveLines[0].command))"], environment: environment,
                executable: "/bin/bash")
            defer { serve.kill() }
            _ = try await serve.readOutput(until: "serving demo on \(folder.file("tour.sock"))")
            var background: [(line: Markdown.Command, child: ChildProcess)] = []
            defer { background.forEach { $0.child.kill() } }
            for line in driveLines {
                let child = try ChildProcess(
                    ["-c", "cd '\(folder.path)' && \(Self.shell(line.command))"], environment: environment, executable: "/bin/bash")
                if line.background {
                    _ = try await child.readOutput(until: "\n")
                    background.append((line, child))
                    continue
                }
                let code = await Self.finish(child, within: .seconds(60))
                let output = child.standardOutput + child.standardError
                Self.expect(line, code: code, output: output)
            }
            for (line, child) in background {
                let code = await Self.finish(child, within: .seconds(60))
                Self.expect(line, code: code, output: child.standardOutput + child.standardError)
            }
            #expect(await serve.wait(timeout: .seconds(60)) == 0, "the tour's last line should shut the coordinator down")
        }
    }

    /// The README's blocks that tests write out as files, by name.
    static let writtenOut: Set = ["sketch.json", "sketch.py", "Package.swift"]

    @Test("the README's Package.swift, with the main.swift it shows, resolves against this checkout: every product it names exists")
    func useItInYourPackage() async throws {
        let blocks = try Markdown.blocks(in: "README.md")
        let manifest = try #require(blocks.first { $0.marker?.kind == "file" && $0.marker?.argument == "Package.swift" })
        let program = try #require(blocks.first { $0.marker?.kind == "snippet" && $0.marker?.argument == "Snippets/README/MyApp.swift" })
        try await withTemporaryFolder { folder in
            // A checkout named as the README's path names it: this one, entry by entry.
            let checkout = folder.file("SceneCoordinator"), app = folder.file("MyApp")
            try FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
            for entry in try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.path) where ![".build", ".git"].contains(entry) {
                try FileManager.default.createSymbolicLink(atPath: "\(checkout)/\(entry)", withDestinationPath: repositoryRoot.appendingPathComponent(entry).path)
            }
            for (path, text) in [("Package.swift", manifest.text), ("Sources/MyApp/main.swift", program.text), ("Tests/MyAppTests/MyAppTests.swift", "import Testing")] {
                let url = URL(fileURLWithPath: "\(app)/\(path)")
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data((text + "\n").utf8).write(to: url)
            }
            // Loads the package graph: a product name the checkout does not have is an error.
            let swift = try #require(Self.onPath("swift"), "no swift on PATH")
            let resolved = try ChildProcess(
                ["package", "--package-path", app, "--scratch-path", folder.file("build"), "show-dependencies"], executable: swift)
            defer { resolved.kill() }
            let code = await Self.finish(resolved, within: .seconds(300))
            #expect(code == 0, "\(resolved.standardError)")
            #expect(resolved.standardOutput.contains("scenecoordinator"), "\(resolved.standardOutput)")
        }
    }

    /// The executable `name` on `$PATH`.
    static func onPath(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("the README's Python scene, with its manifest as written, served from another folder, opens and answers title as the README says")
    func pythonSketch() async throws {
        let files = try Markdown.blocks(in: "README.md").filter { $0.marker?.kind == "file" && $0.marker!.argument.hasPrefix("sketch.") }
        #expect(Set(files.map { $0.marker!.argument }) == ["sketch.json", "sketch.py"])
        try await withTemporaryFolder { folder in
            let project = folder.file("sketch")
            try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
            for file in files {
                try Data((file.text + "\n").utf8).write(to: URL(fileURLWithPath: "\(project)/\(file.marker!.argument)"))
            }
            let check = try await scenectl(["check", "\(project)/sketch.json"])
            #expect(check.code == 0, "\(check.out)")
            // Served from another folder (the manifest's own folder is where the scene runs),
            // on the app's default socket, as the README's commands are: here under a
            // runtime folder of the test's own, and with no $SCENE_SOCKET.
            let environment = ["XDG_RUNTIME_DIR": folder.path, "SCENE_SOCKET": ""]
            try await withChild(["serve", "--manifest", "\(project)/sketch.json"], environment: environment) { server in
                _ = try await server.readOutput(until: "serving sketch on \(folder.path)/scenectl/sketch.sock")
                let opened = try await scenectl(["--app", "sketch", "open", "sketch"], environment: environment)
                #expect(opened.code == 0, "\(opened.err)")
                let title = try await scenectl(["--app", "sketch", "call", "sketch-1", "title"], environment: environment)
                #expect(title.out == #"{"title":"Sketch"}"# + "\n", "\(title.err)")
                #expect(try await scenectl(["--app", "sketch", "shutdown"], environment: environment).code == 0)
                #expect(await server.wait() == 0)
            }
        }
    }

    /// Waits for `child` to exit; when it does not within `limit`, kills it (so that its
    /// output can be read to the end) and answers nil.
    static func finish(_ child: ChildProcess, within limit: Duration) async -> Int32? {
        if let code = await child.wait(timeout: limit) { return code }
        child.kill()
        return nil
    }

    /// `swift run scenectl …` as the built scenectl, for bash.
    static func shell(_ command: String) -> String {
        command.replacingOccurrences(of: "swift run scenectl", with: "'\(scenectlPath())'")
    }

    static func expect(_ line: Markdown.Command, code: Int32?, output: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let refused = line.prints?.hasPrefix("refused") ?? false
        #expect(code == (refused ? 1 : 0), "`\(line.command)` exited \(code.map(String.init) ?? "not within 60 s"): \(output)", sourceLocation: sourceLocation)
        if let prints = line.prints {
            #expect(output.contains(prints), "`\(line.command)` printed otherwise than `\(prints)`: \(output)", sourceLocation: sourceLocation)
        }
    }
}

/// Fenced blocks of the project's Markdown, and the comment that says what checks each.
enum Markdown {
    struct Marker {
        let kind: String
        let argument: String
    }

    /// A line of a tour: its command, whether it runs in the background, and what its
    /// `# → TEXT` comment says it prints.
    struct Command {
        let command: String
        let background: Bool
        let prints: String?
    }

    struct Block {
        let file: String
        let line: Int
        let language: String
        let text: String
        let marker: Marker?

        var place: String { "\(file):\(line)" }

        /// The block's lines as commands (a `#` comment after two spaces is not part of one).
        var commands: [Command] {
            text.split(separator: "\n").map { raw in
                var command = String(raw), prints: String?
                if let comment = command.range(of: "  # ") {
                    let said = command[comment.upperBound...].trimmingCharacters(in: .whitespaces)
                    // `→ TEXT — prose`: TEXT is what it prints.
                    if said.hasPrefix("→ ") { prints = said.dropFirst(2).components(separatedBy: " — ")[0] }
                    command = String(command[..<comment.lowerBound])
                }
                command = command.trimmingCharacters(in: .whitespaces)
                let background = command.hasSuffix(" &")
                if background { command = String(command.dropLast(2)).trimmingCharacters(in: .whitespaces) }
                return Command(command: command, background: background, prints: prints)
            }
        }
    }

    /// README.md and every DocC article, relative to the repository.
    static func files() throws -> [String] {
        let sources = repositoryRoot.appendingPathComponent("Sources").path
        var files = ["README.md"]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard let articles = try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(catalog).path) else { continue }
            files += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return files
    }

    static func allBlocks() throws -> [Block] { try files().flatMap { try blocks(in: $0) } }

    /// The fenced blocks of `file`, each with the `<!-- kind: argument -->` comment on the
    /// line before its fence, if any.
    static func blocks(in file: String) throws -> [Block] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let start = index
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" { index += 1 }
            guard index < lines.count else { throw Unterminated(place: "\(file):\(start + 1)") }
            let marker = start > 0 ? Self.marker(lines[start - 1]) : nil
            blocks.append(
                Block(
                    file: file, line: start + 1, language: String(fence.dropFirst(3)),
                    text: lines[(start + 1)..<min(index, lines.count)].joined(separator: "\n"), marker: marker))
            index += 1
        }
        return blocks
    }

    /// A fence that no fence closes: every block after it would be read wrong.
    struct Unterminated: Error, CustomStringConvertible {
        let place: String
        var description: String { "\(place): a fenced block that is never closed" }
    }

    private static func marker(_ line: String) -> Marker? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!-- "), trimmed.hasSuffix(" -->") else { return nil }
        let inside = trimmed.dropFirst(5).dropLast(4)
        guard let colon = inside.firstIndex(of: ":") else { return Marker(kind: String(inside), argument: "") }
        return Marker(kind: String(inside[..<colon]), argument: inside[inside.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    /// Whether `excerpt`'s lines are consecutive whole lines of `text`.
    static func isExcerpt(_ excerpt: String, of text: String) -> Bool {
        ("\n" + text + "\n").contains("\n" + excerpt + "\n")
    }

    /// Whether `quoted` appears in `printed` in order: consecutive lines, except that a
    /// line `...` (any indentation) skips any number of lines.
    static func appears(_ quoted: [String], in printed: [String]) -> Bool {
        let runs = quoted.split { $0.trimmingCharacters(in: .whitespaces) == "..." }.map(Array.init)
        var from = 0
        for run in runs {
            guard let at = (from..<max(from, printed.count - run.count + 1)).first(where: { Array(printed[$0..<($0 + run.count)]) == run }) else {
                return false
            }
            from = at + run.count
        }
        return true
    }

    /// `text` with every pid as `pid N`.
    static func anyPid(_ text: String) -> String {
        text.replacing(/pid \d+/, with: "pid N").replacing(/→ \d+,/, with: "→ N,")
    }

    /// The first line where `a` and `b` differ, for a failure's message.
    static func difference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false), right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? String(left[index]) : "(nothing)", r = index < right.count ? String(right[index]) : "(nothing)"
            if l != r { return "line \(index + 1):\n  docs: \(l)\n  file: \(r)" }
        }
        return "(the same)"
    }
}

/// Snippet programs (`Snippets/…/*.swift`, each built by SwiftPM as an executable of its
/// name) and the shown text of any file a block names.
enum Snippet {
    /// Every snippet program, relative to the repository, sorted.
    static func programs() -> [String] {
        let root = repositoryRoot.appendingPathComponent("Snippets").path
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".swift") }.map { "Snippets/\($0)" }.sorted()
    }

    /// The file at `path` (relative to the repository) without its hidden lines: those from
    /// a `// snippet.hide` line to the next `// snippet.show` line, both included; then
    /// without blank lines at either end.
    static func shownText(of path: String) throws -> String {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        var shown: [Substring] = []
        var hidden = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            switch line.trimmingCharacters(in: .whitespaces) {
            case "// snippet.hide": hidden = true
            case "// snippet.show": hidden = false
            default: if !hidden { shown.append(line) }
            }
        }
        while shown.first?.allSatisfy(\.isWhitespace) == true { shown.removeFirst() }
        while shown.last?.allSatisfy(\.isWhitespace) == true { shown.removeLast() }
        return shown.joined(separator: "\n")
    }
}
