import Foundation
import Glibc
import SceneJSON
import SceneTesting
import Testing

extension ScenectlTests {
    @Test("scenectl describe and emit answer as the protocol does; watch --since replays a signal, filtered; mistakes exit 2, refusals 1")
    func services() async throws {
        try await withServe { _, path in
            let described = try await scenectl(["describe", "main", "--json", "--socket", path])
            #expect(described.code == 0)
            let json = try JSONParser.parse(Array(described.out.utf8))
            #expect(json["kind"] == "window" && json["interface"] == .null && json["activatable"] == false)
            #expect(try await scenectl(["describe", "main", "--socket", path]).out.contains("no interface declared"))
            let unknown = try await scenectl(["describe", "nowhere", "--socket", path])
            #expect(unknown.code == 1 && unknown.err.contains("unknown_scene"))

            #expect(try await scenectl(["open", "main", "--socket", path]).code == 0)
            let emitted = try await scenectl(["emit", "main-1", "saved", #"{"doc":"7"}"#, "--socket", path])
            #expect(emitted.out == "emitted saved from main-1\n")
            #expect(try await scenectl(["emit", "main-1", "saved", "{nope", "--socket", path]).code == 2)
            #expect(try await scenectl(["emit", "main-9", "saved", "--socket", path]).code == 1)

            // Replayed from the start, only signals: the one emitted above.
            let watcher = try ChildProcess(["watch", "--since", "0", "--topics", "signal", "--json", "--socket", path])
            defer { watcher.kill() }
            let line = try await watcher.readOutput(until: #""signal.emitted""#)
            let event = try JSONParser.parse(Array(line.utf8))
            #expect(event["signal"] == "saved" && event["instance"] == "main-1" && event["payload"] == ["doc": "7"])

            let gone = try await scenectl(["watch", "--since", "99999", "--socket", path])
            #expect(gone.code == 1 && gone.err.contains("history_gone"))
            #expect(try await scenectl(["watch", "--since", "-1", "--socket", path]).code == 2)
        }
    }

    @Test("scenectl watch --follow goes on across a durable coordinator's restart, missing nothing")
    func followAcrossRestart() async throws {
        try await withTemporaryFolder { folder in
            let socket = folder.file("s.sock")
            let serve = ["serve", "--socket", socket, "--state", folder.file("state.json"), "--durable"]
            let first = try ChildProcess(serve)
            defer { first.kill() }
            #expect(await eventually { (try? await scenectl(["ping", "--socket", socket]))?.code == 0 })
            #expect(try await scenectl(["open", "main", "--socket", socket]).code == 0)
            let watcher = try ChildProcess(["watch", "--follow", "--topics", "signal", "--socket", socket])
            defer { watcher.kill() }
            _ = try await watcher.readOutput(until: "following from seq")
            #expect(try await scenectl(["emit", "main-1", "before", "--socket", socket]).code == 0)
            _ = try await watcher.readOutput(until: "before")
            first.signal(SIGTERM)
            #expect(await first.wait() == 0)
            // Emitted while nothing serves: nothing. Then a new run, and a signal in it.
            let second = try ChildProcess(serve)
            defer { second.kill() }
            #expect(await eventually { (try? await scenectl(["ping", "--socket", socket]))?.code == 0 })
            #expect(try await scenectl(["emit", "main-1", "restarted-signal", "--socket", socket]).code == 0)
            let rest = try await watcher.readOutput(until: "restarted-signal")
            #expect(rest.contains("reconnected; resumed after seq"))
            #expect(rest.components(separatedBy: "\n").filter { $0.contains("signal.emitted") }.count == 1)
        }
    }
}
