import Foundation
import Glibc
import SceneFlow
import SceneJSON
import SceneTesting
import SceneWire
import Testing

// The commands of navigation across scenes (reconcile, program, present and finish, status)
// and what a newcomer meets: global options, mistakes, errors and hints.
extension ScenectlTests {
    @Test("reconcile adopts an observed path and prints the intents it became; reject refuses a different one, exit 1")
    func reconcile() async throws {
        try await withServe { _, path in
            _ = try await scenectl(["open", "main", "--socket", path])
            _ = try await scenectl(["send", "main-1", #"{"type":"pushMany","routes":["a","b"]}"#, "--socket", path])
            let adopted = try await scenectl([
                "reconcile", "main-1", #"[{"type":"push","route":"a"}]"#, "--policy", "adopt", "--socket", path,
            ])
            #expect(adopted.code == 0, "\(adopted.err)")
            #expect(adopted.out == #"changed: push("a") by {"type":"pop"}"# + "\n")
            let rejected = try await scenectl(["reconcile", "main-1", "[]", "--policy", "reject", "--socket", path])
            #expect(rejected.code == 1)
            #expect(rejected.err.contains("path_mismatch"))
        }
    }

    @Test("program runs a file's steps, $k naming an earlier step's instance; a failing step exits 1 naming it")
    func program() async throws {
        try await withServe { _, path in
            try await withTemporaryFolder { folder in
                let file = folder.file("program.json")
                try Data(#"{"steps": [{"method": "scene.open", "params": {"scene": "main"}}, {"method": "scene.push", "params": {"scene": "notes", "from": "$0"}}]}"#.utf8)
                    .write(to: URL(fileURLWithPath: file))
                let ran = try await scenectl(["program", file, "--socket", path])
                #expect(ran.code == 0, "\(ran.err)")
                #expect(ran.out.hasPrefix("completed 2 steps\n"))
                try Data(#"[{"method": "scene.open", "params": {"scene": "nope"}}]"#.utf8).write(to: URL(fileURLWithPath: file))
                let failed = try await scenectl(["program", file, "--socket", path])
                #expect(failed.code == 1)
                #expect(failed.err.contains("step 0 (scene.open) failed"))
            }
        }
    }

    @Test("present says when the presented instance is up, waits until finish ends it, and prints its result")
    func presentAndFinish() async throws {
        try await withServe { _, path in
            _ = try await scenectl(["open", "main", "--socket", path])
            try await withChild(["present", "notes", "--from", "main-1", "--socket", path]) { presenter in
                let up = try await presenter.readOutput(until: "\n")
                #expect(up == "presented notes-1 from main-1; waiting until it finishes\n")
                let finished = try await scenectl(["finish", "notes-1", #"{"picked":"blue"}"#, "--socket", path])
                #expect(finished.code == 0, "\(finished.err)")
                #expect(await presenter.wait() == 0)
                #expect(presenter.standardOutput == #"notes-1 finished with {"picked":"blue"}"# + "\n")
            }
        }
    }

    @Test("the global options may come before the command, and -h is --help")
    func globalOptionsFirst() async throws {
        let ping = try await scenectl(["--socket", "/nonexistent/none.sock", "--json", "ping"])
        #expect(ping.code == 3)
        #expect(ping.out.contains(#""socket":"/nonexistent/none.sock""#))
        let help = try await scenectl(["open", "main", "-h"])
        #expect(help.code == 0)
        #expect(help.out.hasPrefix("scenectl open SCENE"))
    }

    @Test("a mistyped command or option is answered with the nearest one, exit 2", arguments: [
        (["opn", "main"], #"unknown command "opn" (did you mean "open"?)"#),
        (["dismiss", "main-1", "--forse"], "unknown option --forse (did you mean --force?)"),
        (["state", "--fromat", "dot"], "unknown option --fromat (did you mean --format?)"),
    ])
    func didYouMean(arguments: [String], message: String) async throws {
        let result = try await scenectl(arguments + ["--socket", "/nonexistent/none.sock"])
        #expect(result.code == 2)
        #expect(result.err.contains(message), "\(result.err)")
    }

    @Test("a connection failure names the rule that chose the socket and how to start a coordinator there")
    func connectionFailureExplains() async throws {
        let flag = try await scenectl(["state", "--socket", "/nonexistent/none.sock"])
        #expect(flag.code == 3)
        #expect(flag.err.contains("cannot connect to /nonexistent/none.sock (from --socket)"))
        #expect(flag.err.contains("scenectl serve --socket /nonexistent/none.sock"))
        let variable = try await scenectl(["state"], environment: ["SCENE_SOCKET": "/nonexistent/env.sock"])
        #expect(variable.err.contains("cannot connect to /nonexistent/env.sock (from $SCENE_SOCKET)"))
    }

    @Test("with --json, errors are JSON on standard output, with the same exit codes")
    func jsonErrors() async throws {
        let usage = try await scenectl(["open", "--json", "--socket", "/nonexistent/none.sock"])
        #expect(usage.code == 2)
        #expect(try JSONParser.parse(usage.out.trimmingCharacters(in: .whitespacesAndNewlines))["error"]?["code"] == -32602)
        try await withServe { _, path in
            let refused = try await scenectl(["open", "nope", "--json", "--socket", path])
            #expect(refused.code == 1)
            let error = try JSONParser.parse(refused.out.trimmingCharacters(in: .whitespacesAndNewlines))["error"]
            #expect(error?["data"]?["reason"] == "unknown_scene")
            #expect(error?["data"]?["scene"] == "nope")
        }
    }

    @Test("a refusal prints its message and every data field; invalid params exit 2")
    func refusalDetail() async throws {
        try await withServe { _, path in
            let refused = try await scenectl(["open", "nope", "--socket", path])
            #expect(refused.code == 1)
            #expect(refused.err.contains("  scene: nope"))
            let params = try await scenectl(["route", "main", #"{"screen":"x"}"#, "--socket", path])
            #expect(params.code == 2)
            #expect(params.err.contains(#""main" is not an instance id"#), "\(params.err)")
            _ = try await scenectl(["open", "main", "--socket", path])
            let method = try await scenectl(["call", "main-1", "nosuch", "--socket", path])
            #expect(method.code == 2)
            #expect(method.err.contains("  method: nosuch"), "\(method.err)")
        }
    }

    @Test("serve runs the process-backed example manifest: a relative working folder means the manifest's folder, wherever serve started")
    func processExampleManifest() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.file("run/processes.sock")
            let manifest = repositoryRoot.appendingPathComponent("Protocols/examples/processes.manifest.json").path
            try await withChild(["serve", "--manifest", manifest, "--socket", path]) { _ in
                #expect(await eventually { (try? await scenectl(["ping", "--socket", path]))?.code == 0 })
                let opened = try await scenectl(["open", "notes", "--socket", path])
                #expect(opened.code == 0, "\(opened.err)")
                let title = try await scenectl(["call", "notes-1", "title", "--socket", path])
                #expect(title.out.contains("Notes"), "\(title.out)\(title.err)")
                _ = try await scenectl(["shutdown", "--socket", path])
            }
        }
    }

    @Test("status shows an instance's process — pid, uptime, restarts, how the last one ended — and state marks each process row")
    func status() async throws {
        try await withServe { _, path in
            _ = try await scenectl(["open", "notes", "--socket", path])
            let first = try await scenectl(["status", "notes-1", "--json", "--socket", path])
            let process = try JSONParser.parse(first.out.trimmingCharacters(in: .whitespacesAndNewlines))["process"]
            #expect(process?["stage"] == "connected")
            #expect(process?["restarts"] == 0)
            let pid = Int32(try #require(process?["pid"]?.intValue))
            #expect(kill(pid, SIGKILL) == 0)
            // Restarted by its policy: the new process shows the old one's end.
            var shown = ""
            let restarted = await eventually {
                shown = (try? await scenectl(["status", "notes-1", "--socket", path]))?.out ?? ""
                return shown.contains("1 restart") && shown.contains("process: connected")
            }
            #expect(restarted, "\(shown)")
            #expect(shown.contains("last exit: ended by signal 9"))
            let state = try await scenectl(["state", "--socket", path])
            #expect(state.out.contains("notes-1  active  focused  path: (root)  [pid "), "\(state.out)")
        }
    }

    @Test("not_open for an instance names the instances of its scene that are open now")
    func notOpenNamesOpenInstances() async throws {
        try await withServe { _, path in
            _ = try await scenectl(["open", "main", "--socket", path])
            _ = try await scenectl(["dismiss", "main-1", "--force", "--socket", path])
            _ = try await scenectl(["open", "main", "--socket", path])
            let stale = try await scenectl(["route", "main-1", #"{"screen":"settings"}"#, "--socket", path])
            #expect(stale.code == 1)
            #expect(stale.err.contains("open now: main-2"), "\(stale.err)")
            #expect(stale.err.contains(#"  open: ["main-2"]"#), "\(stale.err)")
        }
    }

    @Test("a value that is not JSON hints at quoting; a mistyped intent lists the intent types")
    func hints() async throws {
        let value = try await scenectl(["open", "viewer", "--value", "report", "--socket", "/nonexistent/none.sock"])
        #expect(value.code == 2)
        #expect(value.err.contains(#"a string is quoted: '"report"'"#))
        let intent = try await scenectl(["send", "viewer-1", #"{"type":"popCount","count":5}"#, "--socket", "/nonexistent/none.sock"])
        #expect(intent.code == 2)
        #expect(intent.err.contains("intent types: push {route}"))
    }

    @Test("serve without --socket serves on $SCENE_SOCKET, the socket every control command then uses")
    func serveHonoursSceneSocket() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.file("env.sock")
            try await withChild(["serve"], environment: ["SCENE_SOCKET": path]) { server in
                _ = try await server.readOutput(until: "serving demo on \(path)")
                let ping = try await scenectl(["ping"], environment: ["SCENE_SOCKET": path])
                #expect(ping.code == 0, "\(ping.err)")
                #expect(try await scenectl(["shutdown"], environment: ["SCENE_SOCKET": path]).code == 0)
                #expect(await server.wait() == 0)
            }
        }
    }

    @Test("a manifest with in-process scenes: check passes it with a warning that serve cannot host them; serve refuses it saying so, exit 1")
    func inProcessScenesNeedAProgram() async throws {
        try await withTemporaryFolder { folder in
            let manifest = folder.file("assistant.json")
            try Data(#"{"app": "helper", "scenes": [{"id": "main", "kind": "window"}, {"id": "assistant", "kind": "window", "in_process": true}]}"#.utf8)
                .write(to: URL(fileURLWithPath: manifest))
            let check = try await scenectl(["check", manifest])
            #expect(check.code == 0, "\(check.out)")
            #expect(check.out.contains(#"warning: scene "assistant" runs in process ("in_process": true), so `scenectl serve` cannot serve this manifest"#), "\(check.out)")
            let serve = try await scenectl(["serve", "--manifest", manifest, "--socket", folder.file("helper.sock")])
            #expect(serve.code == 1)
            #expect(serve.err.contains("a Swift program that embeds the coordinator serves it"), "\(serve.err)")
        }
    }

    @Test("watch --count N prints N events and exits 0")
    func watchCount() async throws {
        try await withServe { _, path in
            try await withChild(["watch", "--topics", "scene", "--count", "2", "--socket", path]) { watcher in
                _ = try await watcher.readOutput(until: "watching from seq")
                _ = try await scenectl(["open", "main", "--socket", path])
                #expect(await watcher.wait() == 0)
                let lines = watcher.standardOutput.split(separator: "\n")
                #expect(lines.count == 2, "\(lines)")
            }
            let zero = try await scenectl(["watch", "--count", "0", "--socket", path])
            #expect(zero.code == 2)
        }
    }
}
