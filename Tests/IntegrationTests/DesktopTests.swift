import Foundation
import Glibc
import SceneJSON
import Testing

/// The pids of `scenectl serve` processes on `socket`, from /proc.
private func servers(on socket: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let pid = Int32(entry), let data = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")) else { return nil }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard words.contains("serve"), let at = words.firstIndex(of: "--socket"), at + 1 < words.count, words[at + 1] == socket
        else { return nil }
        return pid
    }
}

/// A temporary XDG home, a manifest with a custom scheme whose host is the route, and
/// the environment that points scenectl at them.
private struct DesktopHome {
    let folder: TemporaryFolder
    var socket: String { folder.file("run/links.sock") }
    var manifest: String { folder.file("links.json") }
    var environment: [String: String] {
        ["XDG_DATA_HOME": folder.file("data"), "XDG_CONFIG_HOME": folder.file("config"), "HOME": folder.path]
    }
    var entry: String { folder.file("data/applications/scenectl-links-myapp.desktop") }
    var mimeapps: String { folder.file("config/mimeapps.list") }

    init(_ folder: TemporaryFolder) throws {
        self.folder = folder
        let manifest = #"""
            {"app": "links",
             "links": {"origins": [{"scheme": "https", "hosts": ["links.example"]}, {"scheme": "myapp"}]},
             "scenes": [{"id": "profile", "kind": "window", "instances": "perValue",
                         "links": [{"pattern": "/profile/:id", "value": "${id}"}]}]}
            """#
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: self.manifest))
        try FileManager.default.createDirectory(atPath: folder.file("config"), withIntermediateDirectories: true)
        // Someone else's default, which install and uninstall must leave alone.
        try Data("[Default Applications]\ntext/html=browser.desktop\n".utf8).write(to: URL(fileURLWithPath: mimeapps))
    }

    /// The entry's `Exec` line with `%u` replaced, as a desktop runs it.
    func exec(_ url: String) throws -> [String] {
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        return line.dropFirst("Exec=".count).split(separator: " ").map { $0 == "%u" ? url : String($0) }
    }
}

@Suite("Registering with the Linux desktop", .serialized)
struct DesktopTests {
    @Test("desktop install writes a hidden entry per custom scheme and makes it the default; uninstall removes exactly that")
    func installAndUninstall() async throws {
        try await withTemporaryFolder { folder in
            let home = try DesktopHome(folder)
            let install = try await scenectl(["desktop", "install", "--manifest", home.manifest, "--socket", home.socket], environment: home.environment)
            #expect(install.code == 0, "\(install.err)")
            let entry = try String(contentsOfFile: home.entry, encoding: .utf8)
            #expect(entry.hasPrefix("[Desktop Entry]\n"))
            #expect(entry.contains("MimeType=x-scheme-handler/myapp;\n"))
            #expect(entry.contains("NoDisplay=true\n"))
            #expect(entry.contains(" link --start --socket \(home.socket) %u\n"))
            // https is a web scheme: the browser keeps it.
            #expect(!FileManager.default.fileExists(atPath: folder.file("data/applications/scenectl-links-https.desktop")))
            let mimeapps = try String(contentsOfFile: home.mimeapps, encoding: .utf8)
            #expect(mimeapps.contains("x-scheme-handler/myapp=scenectl-links-myapp.desktop"))
            #expect(mimeapps.contains("text/html=browser.desktop"))
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
                let validate = try ChildProcess([home.entry], executable: "/usr/bin/desktop-file-validate")
                defer { validate.kill() }
                #expect(await validate.wait() == 0, "\(validate.standardOutput)")
            }
            let status = try await scenectl(["desktop", "status"], environment: home.environment)
            #expect(status.out.contains("myapp: links → \(home.socket)"))
            #expect(status.out.contains("the default handler"))
            let uninstall = try await scenectl(["desktop", "uninstall"], environment: home.environment)
            #expect(uninstall.code == 0)
            #expect(!FileManager.default.fileExists(atPath: home.entry))
            let after = try String(contentsOfFile: home.mimeapps, encoding: .utf8)
            #expect(!after.contains("x-scheme-handler/myapp"))
            #expect(after.contains("text/html=browser.desktop"))
            #expect(try await scenectl(["desktop", "status"], environment: home.environment).out == "nothing registered\n")
        }
    }

    @Test("the entry's Exec line, run as a desktop runs it, starts a coordinator when none answers and opens the link; two at once start one")
    func execStartsAndOpens() async throws {
        try await withTemporaryFolder { folder in
            let home = try DesktopHome(folder)
            defer { for pid in servers(on: home.socket) { kill(pid, SIGKILL) } }
            _ = try await scenectl(["desktop", "install", "--manifest", home.manifest, "--socket", home.socket], environment: home.environment)
            // Two clicks at once, with no coordinator running.
            let first = try home.exec("myapp://profile/7"), second = try home.exec("myapp:///profile/9")
            let one = try ChildProcess(Array(first.dropFirst()), environment: home.environment, executable: first[0])
            let two = try ChildProcess(Array(second.dropFirst()), environment: home.environment, executable: second[0])
            defer {
                one.kill()
                two.kill()
            }
            #expect(await one.wait() == 0, "\(one.standardError)")
            #expect(await two.wait() == 0, "\(two.standardError)")
            #expect(servers(on: home.socket).count == 1)
            let state = try await scenectl(["state", "--json", "--socket", home.socket])
            let values = try JSONParser.parse(state.out.trimmingCharacters(in: .whitespacesAndNewlines))["instances"]?.arrayValue?
                .compactMap { $0["value"]?.stringValue }
            #expect(Set(values ?? []) == ["7", "9"])
            // With it running, the Exec line opens the link there.
            let again = try home.exec("myapp:profile/11")
            let three = try ChildProcess(Array(again.dropFirst()), environment: home.environment, executable: again[0])
            defer { three.kill() }
            #expect(await three.wait() == 0)
            #expect(servers(on: home.socket).count == 1)
            #expect(try await scenectl(["shutdown", "--socket", home.socket]).code == 0)
            #expect(await eventually(.seconds(20)) { servers(on: home.socket).isEmpty })
        }
    }
}
