import Foundation
import Glibc
import SceneJSON
import SceneTesting
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
    /// A socket whose path needs quoting in an Exec line: a space and a percent sign.
    var socket: String { folder.file("run dir%/links.sock") }
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
        // Someone else's defaults and associations, which install and uninstall must leave
        // alone, and a previous handler of myapp, which uninstall gives back.
        try Data("""
            [Added Associations]
            x-scheme-handler/myapp=other.desktop;

            [Default Applications]
            text/html=browser.desktop
            x-scheme-handler/myapp=older.desktop

            """.utf8).write(to: URL(fileURLWithPath: mimeapps))
    }

    /// The entry's `Exec` line as a desktop runs it (Desktop Entry specification: the
    /// value's string escapes first, then quoting, then field codes), `%u` being `url`.
    func exec(_ url: String) throws -> [String] {
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        var value = ""
        var escaping = false
        for character in line.dropFirst("Exec=".count) {
            if escaping {
                value.append(character == "s" ? " " : character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                value.append(character)
            }
        }
        var arguments: [String] = []
        var current = ""
        var quoted = false
        var backslash = false
        var started = false
        for character in value {
            if quoted {
                if backslash {
                    current.append(character)
                    backslash = false
                } else if character == "\\" {
                    backslash = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
                started = true
            } else if character == " " {
                if started { arguments.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { arguments.append(current) }
        return arguments.map { argument in
            argument == "%u" ? url : argument.replacingOccurrences(of: "%%", with: "%")
        }
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
            let exec = try home.exec("myapp://profile/1")
            #expect(Array(exec.dropFirst()) == ["link", "--start", "--socket", home.socket, "--manifest", home.manifest, "myapp://profile/1"])
            // https is a web scheme: the browser keeps it.
            #expect(!FileManager.default.fileExists(atPath: folder.file("data/applications/scenectl-links-https.desktop")))
            let mimeapps = try String(contentsOfFile: home.mimeapps, encoding: .utf8)
            #expect(mimeapps.contains("[Default Applications]\nx-scheme-handler/myapp=scenectl-links-myapp.desktop\n"))
            #expect(!mimeapps.contains("myapp=older.desktop"))
            #expect(mimeapps.contains("text/html=browser.desktop"))
            #expect(mimeapps.contains("[Added Associations]\nx-scheme-handler/myapp=other.desktop;"))
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
            #expect(!after.contains("scenectl-links-myapp.desktop"))
            // The handler install replaced is the default again; the rest is as it was.
            #expect(after.contains("x-scheme-handler/myapp=older.desktop"))
            #expect(after.contains("text/html=browser.desktop"))
            #expect(after.contains("[Added Associations]\nx-scheme-handler/myapp=other.desktop;"))
            #expect(try await scenectl(["desktop", "status"], environment: home.environment).out == "nothing registered\n")
        }
    }

    @Test("desktop install while renames fail (ENOSPC): refused with why, every file it touched left whole and as it was, no temporary file; the same install then works")
    func installWhileDiskFails() async throws {
        try await withTemporaryFolder { folder in
            let home = try DesktopHome(folder)
            let faults = try await FaultInjection.prepare(in: folder.path)
            let before = try String(contentsOfFile: home.mimeapps, encoding: .utf8)
            let command = [scenectlPath(), "desktop", "install", "--manifest", home.manifest, "--socket", home.socket]
            let failing = try ChildProcess(
                faults.arguments(running: command, failing: ["posix/io/dir/rename"], errno: ENOSPC), environment: home.environment,
                executable: FaultInjection.fiuRun)
            defer { failing.kill() }
            #expect(await failing.wait() == 1)
            #expect(failing.standardError.contains("cannot install"), "\(failing.standardError)")
            #expect(try String(contentsOfFile: home.mimeapps, encoding: .utf8) == before)
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
            #expect(files.allSatisfy { !$0.contains(".tmp") && !$0.contains("nosync") }, "a temporary file was left: \(files)")
            #expect(try await scenectl(["desktop", "status"], environment: home.environment).out == "nothing registered\n")

            let install = try await scenectl(Array(command.dropFirst()), environment: home.environment)
            #expect(install.code == 0, "\(install.err)")
            #expect(try await scenectl(["desktop", "status"], environment: home.environment).out.contains("myapp: links → \(home.socket)"))
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
            #expect(await eventually { servers(on: home.socket).isEmpty })
        }
    }
}
