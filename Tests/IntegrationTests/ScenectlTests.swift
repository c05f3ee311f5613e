import Foundation
import Glibc
import SceneFlow
import SceneJSON
import SceneTesting
import SceneWire
import Testing

@Suite("scenectl")
struct ScenectlTests {
    /// Runs `body` with `scenectl serve` answering on a socket in a temporary folder; kills
    /// the server and removes the folder afterwards.
    func withServe(_ body: (ChildProcess, String) async throws -> Void) async throws {
        try await withTemporaryFolder { folder in
            let path = folder.file("run/demo.sock")
            try await withChild(["serve", "--socket", path]) { child in
                let up = await eventually { (try? await scenectl(["ping", "--socket", path]))?.code == 0 }
                #expect(up, "scenectl serve did not come up")
                try await body(child, path)
            }
        }
    }

    @Test("serve, drive and inspect: exit 0 with readable answers; shutdown ends serve with 0")
    func drive() async throws {
        try await withServe { server, path in
        let open = try await scenectl(["open", "viewer", "--value", "\"42\"", "--socket", path])
        #expect(open.code == 0)
        #expect(open.out == "opened viewer-1\n")
        let send = try await scenectl(["send", "viewer-1", #"{"type":"push","route":"page"}"#, "--socket", path])
        #expect(send.out == "changed: push(\"page\")\n")
        let state = try await scenectl(["state", "--socket", path])
        #expect(state.out.contains(#"  viewer-1 = "42"  active  focused  path: push("page")"#))
        // The wire's tree reads like the registry's own.
        #expect(state.out.contains("notes  window, multiple, max 3\n"))
        #expect(state.out.contains("globe  volume 0.6x0.6x0.6 m, single\n"))
        #expect(state.out.contains("theatre  immersive full, single\n"))
        let json = try await scenectl(["state", "--json", "--socket", path])
        #expect(try JSONParser.parse(json.out.trimmingCharacters(in: .whitespacesAndNewlines))["focused"] == "viewer-1")
        let dot = try await scenectl(["state", "--format", "dot", "--socket", path])
        #expect(dot.out.hasPrefix("digraph"))
        let shutdown = try await scenectl(["shutdown", "--socket", path])
        #expect(shutdown.code == 0, "\(shutdown.err)")
        #expect(await server.wait() == 0)
        }
    }

    @Test("a refused request exits 1 and prints the reason")
    func refused() async throws {
        try await withServe { _, path in
        let result = try await scenectl(["open", "nope", "--socket", path])
        #expect(result.code == 1)
        #expect(result.err.contains("unknown_scene"))
        }
    }

    @Test("no coordinator at the socket exits 3")
    func cannotConnect() async throws {
        try await withTemporaryFolder { folder in
            let result = try await scenectl(["ping", "--socket", folder.file("none.sock")])
            #expect(result.code == 3)
        }
    }

    @Test("usage errors exit 2, before any connection", arguments: [
        ["open"], ["push", "notes"], ["frobnicate"], ["send", "main-1", "{not json"], ["auth", "maybe"],
        ["state", "--format", "svg"], ["open", "main", "--bogus"], ["send", "main-1", #"{"type":"teleport"}"#],
        ["apply", "main-1", #"[{"type":"sheet","route":1},{"type":"push","route":2}]"#],
        ["reconcile", "main-1", "[]"], ["reconcile", "main-1", "[]", "--policy", "merge"],
        ["present", "notes"], ["finish", "notes-1"], ["finish", "notes-1", "{not json"], ["program", "/nonexistent/program.json"],
        ["reconcile", "main-1", #"[{"type":"modal","route":1}]"#, "--policy", "adopt"],
    ])
    func usage(arguments: [String]) async throws {
        let result = try await scenectl(arguments + ["--socket", "/nonexistent/none.sock"])
        #expect(result.code == 2)
    }

    @Test("--help works for scenectl and for each command")
    func help() async throws {
        #expect(try await scenectl(["--help"]).out.contains("commands:"))
        #expect(try await scenectl(["open", "--help"]).out.contains("scenectl open SCENE"))
    }

    /// Every command scenectl runs, in the order its usage lists them.
    static let commands = [
        "demo", "serve", "scene", "check", "open", "push", "dismiss", "dismiss-immersive", "focus", "reopen", "immersive-style", "route", "send", "apply",
        "reconcile", "program", "present", "finish", "link", "auth", "call", "notify", "session", "token", "restart", "status", "state", "describe", "emit", "watch", "ping", "shutdown", "desktop", "completions",
    ]

    /// The command names of the usage's list of commands (its lines indented by two spaces).
    func listedCommands(_ usage: String) -> [String] {
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLetter == true }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The options a command's `--help` lists.
    func listedOptions(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "options:") else { return [] }
        return lines[(start + 1)...].filter { $0.hasPrefix("  --") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("the usage lists every command; it is printed with exit 0 when asked for, and 2 without a command")
    func usageListsEveryCommand() async throws {
        for asked in [["--help"], ["-h"], ["help"]] {
            let result = try await scenectl(asked)
            #expect(result.code == 0)
            #expect(listedCommands(result.out) == Self.commands, "\(asked)")
        }
        let bare = try await scenectl([])
        #expect(bare.code == 2)
        #expect(listedCommands(bare.out) == Self.commands)
    }

    @Test(
        "a command given fewer positionals than it requires, or more than it takes, is a usage error naming what it expects",
        arguments: [
            (["serve", "extra"], "expected no arguments, got 1 argument"),
            (["call", "main-1"], "expected ID METHOD [PARAMS-JSON], got 1 argument"),
            (["reopen", "a", "b"], "expected [SCENE], got 2 arguments"),
            (["dismiss", "a-1", "b-1"], "expected [ID], got 2 arguments"),
            (["check"], "expected MANIFEST, got 0 arguments"),
        ])
    func positionalCount(arguments: [String], message: String) async throws {
        // Checked as the arguments are read: before any connection or file is tried.
        let result = try await scenectl(arguments)
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("scenectl: \(message)"), "\(result.err)")
    }

    @Test("scenectl help COMMAND prints what COMMAND --help does; an unknown one is a usage error")
    func helpCommand() async throws {
        for command in ["open", "watch", "serve"] {
            let asked = try await scenectl(["help", command])
            #expect(asked.code == 0)
            #expect(asked.out == (try await scenectl([command, "--help"])).out, "\(command)")
        }
        #expect(try await scenectl(["help", "--app", "x", "open"]).out == (try await scenectl(["open", "--help"])).out)
        let unknown = try await scenectl(["help", "opne"])
        #expect(unknown.code == 2)
        #expect(unknown.err.contains("did you mean \"open\""))
    }

    @Test("the README names every command of the usage")
    func readmeNamesEveryCommand() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for command in Self.commands {
            let named = ["scenectl \(command) ", "scenectl \(command)`", "`\(command)`", "`\(command) "].contains { readme.contains($0) }
            #expect(named, "\(command)")
        }
    }

    @Test("every command's --help exits 0 and shows its synopsis and its options", arguments: commands)
    func commandHelp(command: String) async throws {
        let result = try await scenectl([command, "--help"])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("scenectl \(command)"))
        #expect(listedOptions(result.out).last == "--help")
    }

    @Test("a usage error prints the message and the command's own help to standard error")
    func usageErrorShowsHelp() async throws {
        let result = try await scenectl(["push", "notes", "--socket", "/nonexistent/none.sock"])
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("scenectl: push needs --from ID\n\nscenectl push SCENE --from ID"))
    }

    @Test("an option the command does not declare is a usage error (exit 2), even one another command takes", arguments: [
        ["open", "main", "--force"], ["ping", "--value", "1"], ["state", "--topics", "scene"], ["watch", "--format", "dot"],
        ["serve", "--json", "--socket", "/nonexistent/none.sock"], ["serve", "--value", "1", "--socket", "/nonexistent/none.sock"],
        ["scene", "--socket", "/nonexistent/none.sock"], ["check", "none.json", "--json"], ["demo", "--socket", "/nonexistent/none.sock"],
        ["completions", "bash", "--json"],
    ])
    func undeclaredOption(arguments: [String]) async throws {
        let result = try await scenectl(arguments)
        #expect(result.code == 2)
        #expect(result.err.contains("unknown option --"))
    }

    @Test("every option and flag the tests, benchmarks, examples and README pass is declared by its command", arguments: [
        ["serve", "--manifest", "m.json", "--socket", "s.sock", "--state", "state.json", "--durable", "--discard-state",
         "--launch-timeout", "1", "--heartbeat", "1", "--app", "demo"],
        ["scene", "--title", "Ctl", "--unsaved", "--quiet"],
        ["open", "viewer", "--value", "\"42\"", "--socket", "s.sock", "--app", "demo", "--json"],
        ["push", "notes", "--from", "main-1", "--value", "1", "--socket", "s.sock", "--json"],
        ["dismiss", "--scene", "viewer", "--value", "1", "--force", "--socket", "s.sock", "--json"],
        ["state", "--json", "--format", "dot", "--socket", "s.sock", "--app", "demo"],
        ["watch", "--json", "--topics", "scene,flow", "--socket", "s.sock"],
        ["watch", "--since", "0", "--instances", "main-1", "--scenes", "main", "--signals", "saved", "--follow", "--socket", "s.sock"],
        ["describe", "main", "--socket", "s.sock", "--json"], ["emit", "main-1", "saved", "{}", "--socket", "s.sock", "--json"],
        ["serve", "--history", "100", "--reopenable", "5", "--socket", "s.sock"], ["reopen", "viewer", "--socket", "s.sock", "--json"],
        ["call", "notes-1", "title", "--socket", "s.sock", "--json"], ["notify", "notes-1", "echo", "--socket", "s.sock", "--json"],
        ["send", "viewer-1", "{}", "--socket", "s.sock", "--json"], ["ping", "--socket", "s.sock", "--app", "demo", "--json"],
        ["shutdown", "--socket", "s.sock", "--json"],
    ])
    func declaredOptions(arguments: [String]) async throws {
        // --help is only looked at once every argument has parsed: exit 0 means all were accepted.
        let result = try await scenectl(arguments + ["--help"])
        #expect(result.code == 0, "\(result.err)")
    }

    /// Completes `words` (the last one is the word being completed) with the bash script
    /// of `scenectl completions bash`; returns the candidates.
    func bashCompletions(_ words: [String], script: String) async throws -> [String] {
        let program = #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _scenectl; printf '%s\n' "${COMPREPLY[@]}""#
        let bash = try ChildProcess(["-c", program, "bash", script] + words, executable: "/bin/bash")
        defer { bash.kill() }
        #expect(await bash.wait() == 0, "\(bash.standardError)")
        return bash.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Runs `body` with the bash completion script saved in a temporary folder.
    func withBashScript(_ body: (String) async throws -> Void) async throws {
        try await withTemporaryFolder { folder in
            let generated = try await scenectl(["completions", "bash"])
            #expect(generated.code == 0)
            let script = folder.file("scenectl.bash")
            try generated.out.write(toFile: script, atomically: true, encoding: .utf8)
            try await body(script)
        }
    }

    @Test("scenectl completions bash is a script bash accepts, and it completes every command's name")
    func bashScript() async throws {
        try await withBashScript { script in
            let check = try ChildProcess(["-n", script], executable: "/bin/bash")
            defer { check.kill() }
            #expect(await check.wait() == 0, "\(check.standardError)")
            #expect(try await bashCompletions(["scenectl", ""], script: script) == Self.commands)
            #expect(try await bashCompletions(["scenectl", "dis"], script: script) == ["dismiss", "dismiss-immersive"])
        }
    }

    @Test("bash completes each command's options exactly as its --help lists them", arguments: commands)
    func bashCompletesOptions(command: String) async throws {
        let help = try await scenectl([command, "--help"])
        try await withBashScript { script in
            let completed = try await bashCompletions(["scenectl", command, "--"], script: script)
            #expect(completed == listedOptions(help.out))
        }
    }

    @Test("bash completes option values and arguments from their declared words", arguments: [
        (["scenectl", "state", "--format", ""], ["tree", "dot", "mermaid"]),
        (["scenectl", "state", "--format", "m"], ["mermaid"]),
        (["scenectl", "watch", "--topics", "scene,f"], ["scene,flow"]),
        (["scenectl", "auth", ""], ["on", "off"]),
        (["scenectl", "completions", ""], ["bash", "zsh", "fish"]),
        (["scenectl", "open", "main", "--j"], ["--json"]),
        (["scenectl", "open", "--value", ""], []),
    ])
    func bashCompletesValues(words: [String], expected: [String]) async throws {
        try await withBashScript { script in
            let completed = try await bashCompletions(words, script: script)
            #expect(completed == expected)
        }
    }

    @Test("completions for a shell other than bash, zsh or fish, or for none, is a usage error", arguments: [
        ["completions", "tcsh"], ["completions"], ["completions", "bash", "zsh"],
    ])
    func unknownShell(arguments: [String]) async throws {
        let result = try await scenectl(arguments)
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
    }

    @Test("completions for zsh and fish print a script that registers every command", arguments: ["zsh", "fish"])
    func otherShells(shell: String) async throws {
        let result = try await scenectl(["completions", shell])
        #expect(result.code == 0)
        for command in Self.commands {
            #expect(result.out.contains(shell == "zsh" ? "'\(command):" : "-a \(command) -d"), "\(command)")
        }
    }

    @Test("check prints every problem with its JSON path and exits 1; a good manifest exits 0")
    func check() async throws {
        try await withTemporaryFolder { folder in
        let bad = folder.file("bad.json")
        try #"{"app":"a","scenes":[{"id":"x","kind":"volumn"},{"id":"x","kind":"window"}]}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try await scenectl(["check", bad])
        #expect(result.code == 1)
        #expect(result.out.contains(#"scenes[0].kind: unknown kind "volumn""#))
        #expect(result.out.contains("scenes[1].id: duplicate scene id"))
        let good = folder.file("good.json")
        try #"{"app":"a","scenes":[{"id":"w","kind":"window"}]}"#.write(toFile: good, atomically: true, encoding: .utf8)
        #expect(try await scenectl(["check", good]).code == 0)
        }
    }

    @Test("check loads the older links form, and notes how to write it as origins")
    func checkNotesOlderLinks() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.file("old.json")
            try Data(#"{"app": "a", "links": {"schemes": ["d"], "hosts": ["h"]}, "scenes": []}"#.utf8).write(to: URL(fileURLWithPath: file))
            let result = try await scenectl(["check", file])
            #expect(result.code == 0)
            #expect(result.out.contains(#"note: links: {"schemes", "hosts"} allows every scheme with every host; as origins: {"origins": [{"hosts":["h"],"scheme":"d"}]}"#), "\(result.out)")
        }
    }

    @Test("a second serve on a live socket exits 1 with a clear message")
    func secondServe() async throws {
        try await withServe { _, path in
        let second = try await scenectl(["serve", "--socket", path])
        #expect(second.code == 1)
        #expect(second.err.contains("already answers"))
        }
    }

    @Test("SIGTERM and SIGINT stop serve cleanly: exit 0 and the socket file removed", arguments: [SIGTERM, SIGINT])
    func signals(number: Int32) async throws {
        try await withServe { server, path in
        kill(server.pid, number)
        #expect(await server.wait() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("watch prints one line per event")
    func watch() async throws {
        try await withServe { _, path in
        try await withChild(["watch", "--socket", path]) { watcher in
        // The watcher says when it listens; only then is the open sure to be seen.
        _ = try await watcher.readOutput(until: "watching from seq")
        #expect(try await scenectl(["open", "main", "--socket", path]).code == 0)
        let text = try await watcher.readOutput(until: "scene.focused")
        #expect(text.contains("scene.opened instance=main-1"))
        #expect(text.contains("scene.focused instance=main-1"))
        }
        }
    }

    @Test("serve without a manifest runs each scene instance as a scenectl scene process that answers calls")
    func defaultAppIsProcesses() async throws {
        try await withServe { _, path in
            #expect(try await scenectl(["open", "notes", "--socket", path]).out == "opened notes-1\n")
            let title = try await scenectl(["call", "notes-1", "title", "--socket", path])
            #expect(title.code == 0)
            #expect(title.out == #"{"title":"Notes"}"# + "\n")
            // A scene name reaches its most recently focused instance.
            let echo = try await scenectl(["call", "notes", "echo", #"{"n":1}"#, "--socket", path])
            #expect(echo.out == #"{"n":1}"# + "\n")
            #expect(try await scenectl(["notify", "notes-1", "echo", "--socket", path]).out == "delivered\n")
            #expect(try await scenectl(["call", "notes-1", "edit", "--socket", path]).out == #"{"unsaved":true}"# + "\n")
            let vetoed = try await scenectl(["dismiss", "notes-1", "--socket", path])
            #expect(vetoed.code == 1)
            #expect(vetoed.err.contains("close_vetoed"))
            let forced = try await scenectl(["dismiss", "notes-1", "--force", "--socket", path])
            #expect(forced.code == 0)
            #expect(forced.out == "dismissed notes-1\n")
            let reserved = try await scenectl(["call", "main", "scene.close", "--socket", path])
            #expect(reserved.code == 1)
        }
    }

    @Test("scenectl demo walks its tour, exits 0, and leaves no scene process behind; --verbose prints the whole tree after each step")
    func demo() async throws {
        let result = try await scenectl(["demo"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("notes-1 (a process) asks assistant, not open yet, to greet it → the coordinator opens it (activatable; its code runs in scenectl itself) and relays: hello, notes-1"))
        #expect(result.out.contains(#"a subscriber to signal greeted hears: assistant-1 emitted greeted {"count":1,"name":"notes-1"}"#))
        #expect(result.out.contains("params.name must be string"))
        #expect(result.out.contains("13. A scene process killed with SIGKILL comes back with its path"))
        #expect(result.out.contains("14. A supervision group restarts together"))
        #expect(result.out.contains(#"a scene.call of "title()", which main-1's process answers by name → Main"#))
        #expect(result.out.contains("and its group restarted notes-1 with it"))
        #expect(result.out.contains("handled by its program: viewer-5 and viewer-6"))
        #expect(result.out.contains(#"reopen → viewer-3, "appendix" again, showing push({"n":2,"screen":"page"})"#))
        #expect(result.out.contains(#"the presenter gets {"picked":"Lisbon"}"#))
        // Each step prints what it changed: a line that never changes is printed once.
        #expect(result.out.components(separatedBy: "globe  volume 0.6x0.6x0.6 m, single").count == 2)
        #expect(result.out.contains("   + notes-1  active  path: (root)"))
        #expect(result.out.contains(#"notes-1  active  path: push({"id":7,"screen":"draft"})"#))
        #expect(result.out.contains("The coordinator closed every scene process and stopped"))
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { entry in
            guard Int32(entry) != nil, let environment = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/environ")) else {
                return false
            }
            return String(decoding: environment, as: UTF8.self).contains("SCENE_SOCKET=/tmp/scenectl-demo-")
                && isRunning(Int32(entry)!)
        }
        #expect(left.isEmpty, "demo scene processes left: \(left)")
        // With --verbose, the whole tree after each step (run after the first: the check
        // above counts every demo's processes).
        let verbose = try await scenectl(["demo", "--verbose"])
        #expect(verbose.code == 0, "\(verbose.err)")
        let steps = verbose.out.split(separator: "\n").filter { $0.first?.isNumber == true && $0.contains(". ") }.count
        #expect(steps > 5)
        #expect(verbose.out.components(separatedBy: "globe  volume 0.6x0.6x0.6 m, single").count == steps + 1)
    }

    @Test("serve with SCENE_EXIT_WITH_PARENT=1 shuts down once the process that started it has ended")
    func exitsWithParent() async throws {
        try await withTemporaryFolder { folder in
            // A shell starts serve in the background, prints its pid, waits (bounded) for
            // its socket, and exits: serve's parent is gone.
            let script = #""$0" serve --socket "$1" >/dev/null 2>&1 & echo "pid $!"; n=0; while [ ! -S "$1" ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n+1)); done"#
            let shell = try ChildProcess(["-c", script, scenectlPath(), folder.file("s.sock")], executable: "/bin/sh")
            defer { shell.kill() }
            let line = try await shell.readOutput(until: "pid ")
            let pid = try #require(Int32(line.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
            defer { kill(pid, SIGKILL) }
            #expect(await shell.wait() == 0)
            #expect(await eventually { !isRunning(pid) })
        }
    }
}
