import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneLinks
import SceneSocket

/// `scenectl desktop install|uninstall|status`: registers scenectl with the Linux desktop
/// as the handler of a manifest's custom link schemes, as the freedesktop specifications
/// say (a `.desktop` entry with `MimeType=x-scheme-handler/SCHEME;`, made the default in
/// `mimeapps.list`), so that `xdg-open myapp://…` — a link clicked in a browser or a chat
/// client — reaches the coordinator.
///
/// What install adds is recorded in `$XDG_CONFIG_HOME/scenectl/desktop.json`: uninstall
/// removes exactly that, and `link --start` finds there the manifest to serve when no
/// coordinator answers on a socket.
enum Desktop {
    /// One scheme registered by install.
    struct Entry: Codable, Hashable {
        var scheme: String
        /// The `.desktop` file written.
        var file: String
        /// The socket its `Exec` line opens links on.
        var socket: String
        /// The manifest a coordinator started for it serves.
        var manifest: String
        /// The default handler install replaced, given back by uninstall.
        var previous: String?
    }

    /// Where the desktop's files are, from the XDG base directory variables.
    struct Places {
        let applications: String
        let config: String

        init(environment: [String: String] = ProcessInfo.processInfo.environment) {
            let home = environment["HOME"] ?? NSHomeDirectory()
            let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/share"
            applications = "\(data)/applications"
            config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.config"
        }

        var mimeapps: String { "\(config)/mimeapps.list" }
        var record: String { "\(config)/scenectl/desktop.json" }
    }

    static func run(_ arguments: Arguments) async throws(UsageError) -> ExitCode {
        let action = arguments.positionals[0]
        let places = Places()
        switch action {
        case "install":
            guard let file = arguments.option("manifest") else { throw UsageError("desktop install needs --manifest FILE") }
            return install(manifest: file, socket: arguments.option("socket"), places: places)
        case "uninstall":
            return uninstall(places: places)
        case "status":
            return status(places: places)
        default:
            throw UsageError("desktop takes install, uninstall or status")
        }
    }

    // MARK: Install

    private static func install(manifest file: String, socket: String?, places: Places) -> ExitCode {
        let path = URL(fileURLWithPath: file).absoluteURL.standardizedFileURL.path
        let manifest: Manifest
        do {
            manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: path))
        } catch {
            for problem in error.problems { standardError("scenectl: \(file): \(problem)") }
            return .failure
        }
        let schemes = Array(Set(manifest.linkPolicy.origins.map(\.scheme).filter { !LinkOrigin.isWeb($0) })).sorted()
        guard !schemes.isEmpty else {
            standardError("scenectl: \(file) allows no custom link scheme (links.origins): there is nothing to register")
            return .failure
        }
        // The desktop runs the entry from wherever it likes: the socket is written absolute.
        let socketPath = URL(fileURLWithPath: socket ?? CoordinatorConfiguration.defaultSocketPath(app: manifest.app))
            .absoluteURL.standardizedFileURL.path
        var entries = readRecord(places)
        do {
            try FileManager.default.createDirectory(atPath: places.applications, withIntermediateDirectories: true)
            for scheme in schemes {
                // A scheme registered before (for another manifest) is replaced whole.
                for old in entries where old.scheme == scheme {
                    try? FileManager.default.removeItem(atPath: old.file)
                }
                let previous = entries.first { $0.scheme == scheme }?.previous
                entries.removeAll { $0.scheme == scheme }
                let desktop = "\(places.applications)/scenectl-\(fileSafe(manifest.app))-\(scheme).desktop"
                let name = URL(fileURLWithPath: desktop).lastPathComponent
                try Data(entry(app: manifest.app, scheme: scheme, socket: socketPath, manifest: path).utf8)
                    .write(to: URL(fileURLWithPath: desktop), options: .atomic)
                let replaced = try setDefault(name, for: scheme, places: places)
                entries.append(Entry(scheme: scheme, file: desktop, socket: socketPath, manifest: path, previous: previous ?? replaced))
                // Recorded scheme by scheme: what was written can always be uninstalled.
                try writeRecord(entries, places)
                print("registered \(scheme): links: \(desktop)")
            }
        } catch {
            standardError("scenectl: cannot install: \(error.localizedDescription)")
            return .failure
        }
        return .success
    }

    /// The `.desktop` entry for `scheme`: hidden from menus, opening `%u` on `socket` and
    /// starting a coordinator there, serving `manifest`, when none answers.
    static func entry(app: String, scheme: String, socket: String, manifest: String) -> String {
        let arguments = [DefaultApp.executable, "link", "--start", "--socket", socket, "--manifest", manifest].map(execArgument)
        let label = app.map { $0.isNewline || $0 == "\\" ? " " : String($0) }.joined()
        return """
            [Desktop Entry]
            Type=Application
            Version=1.5
            Name=\(label) links (\(scheme):)
            Comment=Opens \(scheme): links in the \(label) scene coordinator
            Exec=\(arguments.joined(separator: " ")) %u
            Terminal=false
            NoDisplay=true
            MimeType=x-scheme-handler/\(scheme);

            """
    }

    /// An `Exec` argument as the Desktop Entry specification reads it: a literal `%` is
    /// `%%`; an argument with a reserved character is quoted, `"`, `` ` ``, `$` and `\\`
    /// escaped by a backslash inside the quotes; and the file's own string escaping then
    /// doubles every backslash.
    static func execArgument(_ argument: String) -> String {
        let percent = argument.replacingOccurrences(of: "%", with: "%%")
        let reserved = " \t\n\"'\\><~|&;$*?#()`"
        guard percent.contains(where: { reserved.contains($0) }) else { return percent }
        var quoted = ""
        for character in percent {
            if character == "\\" {
                quoted += "\\\\\\\\"
            } else if "\"`$".contains(character) {
                quoted += "\\\\"
                quoted.append(character)
            } else {
                quoted.append(character)
            }
        }
        return "\"\(quoted)\""
    }

    /// `app` as a part of a file name: letters, digits, `.`, `_` and `-` kept, the rest `_`.
    private static func fileSafe(_ app: String) -> String {
        String(app.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }

    /// Makes `desktop` the default handler of `scheme`: through `xdg-mime` when it is
    /// installed, else by writing `mimeapps.list` as the MIME Applications spec says (only
    /// the `[Default Applications]` line of that type changes). Answers the default it
    /// replaced, if any.
    private static func setDefault(_ desktop: String, for scheme: String, places: Places) throws -> String? {
        let type = "x-scheme-handler/\(scheme)"
        let replaced = mimeappsDefault(for: type, places: places).flatMap { $0 == desktop ? nil : $0 }
        if let xdgMime = which("xdg-mime") {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = places.config
            if let pid = try? Processes.spawn(xdgMime, arguments: ["default", desktop, type], environment: environment) {
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                if status == 0, mimeappsDefault(for: type, places: places) == desktop { return replaced }
            }
        }
        try editDefaults(places, adding: "\(type)=\(desktop)") { line in line.hasPrefix("\(type)=") ? [] : [line] }
        return replaced
    }

    /// Rewrites `mimeapps.list`, atomically: each line of its `[Default Applications]`
    /// section through `change`, then `adding` (when given) as the section's first line;
    /// every other section, and every other line, stays as it was.
    private static func editDefaults(_ places: Places, adding: String? = nil, _ change: (String) -> [String]) throws {
        var lines = (try? String(contentsOfFile: places.mimeapps, encoding: .utf8))?.components(separatedBy: "\n") ?? []
        if lines.last == "" { lines.removeLast() }
        var output: [String] = []
        var inDefaults = false
        var sawDefaults = false
        for line in lines {
            if line.hasPrefix("[") {
                inDefaults = line == "[Default Applications]"
                output.append(line)
                if inDefaults {
                    sawDefaults = true
                    if let adding { output.append(adding) }
                }
                continue
            }
            output += inDefaults ? change(line) : [line]
        }
        if !sawDefaults, let adding {
            if !output.isEmpty { output.append("") }
            output += ["[Default Applications]", adding]
        }
        try FileManager.default.createDirectory(atPath: places.config, withIntermediateDirectories: true)
        try Data((output.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: places.mimeapps), options: .atomic)
    }

    /// The default handler `mimeapps.list` names for `type`, if any.
    static func mimeappsDefault(for type: String, places: Places) -> String? {
        guard let text = try? String(contentsOfFile: places.mimeapps, encoding: .utf8) else { return nil }
        var inDefaults = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("[") { inDefaults = line == "[Default Applications]" }
            if inDefaults, line.hasPrefix("\(type)=") {
                return line.dropFirst(type.count + 1).split(separator: ";").first.map(String.init)
            }
        }
        return nil
    }

    // MARK: Uninstall and status

    private static func uninstall(places: Places) -> ExitCode {
        let entries = readRecord(places)
        guard !entries.isEmpty else {
            print("nothing registered")
            return .success
        }
        for entry in entries {
            try? FileManager.default.removeItem(atPath: entry.file)
            let name = URL(fileURLWithPath: entry.file).lastPathComponent
            let type = "x-scheme-handler/\(entry.scheme)"
            // Only our own entry goes from the type's default line; the default it replaced
            // comes back when ours was the default.
            try? editDefaults(places) { line in
                guard line.hasPrefix("\(type)=") else { return [line] }
                let handlers = line.dropFirst(type.count + 1).split(separator: ";").map(String.init)
                var kept = handlers.filter { $0 != name }
                if handlers.first == name, let previous = entry.previous, !kept.contains(previous) { kept.insert(previous, at: 0) }
                return kept.isEmpty ? [] : ["\(type)=" + kept.joined(separator: ";")]
            }
            print("unregistered \(entry.scheme): links: \(entry.file)")
        }
        try? FileManager.default.removeItem(atPath: places.record)
        return .success
    }

    private static func status(places: Places) -> ExitCode {
        let entries = readRecord(places)
        guard !entries.isEmpty else {
            print("nothing registered")
            return .success
        }
        for entry in entries {
            let name = URL(fileURLWithPath: entry.file).lastPathComponent
            let present = FileManager.default.fileExists(atPath: entry.file) ? "present" : "missing"
            let isDefault = mimeappsDefault(for: "x-scheme-handler/\(entry.scheme)", places: places) == name
            print("\(entry.scheme): links → \(entry.socket)  (\(entry.file) \(present), \(isDefault ? "the default handler" : "not the default handler"); serves \(entry.manifest))")
        }
        return .success
    }

    // MARK: The record

    static func readRecord(_ places: Places) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: places.record) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }

    private static func writeRecord(_ entries: [Entry], _ places: Places) throws {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: places.record).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(entries).write(to: URL(fileURLWithPath: places.record), options: .atomic)
    }

    /// The manifest recorded for `socket`, if install recorded one.
    static func manifest(for socket: String) -> String? {
        readRecord(Places()).first { $0.socket == socket }?.manifest
    }

    /// `name`'s path in `PATH`, found as a spawned scene's command is.
    static func which(_ name: String) -> String? {
        SpawnedProcess.executable(name, path: ProcessInfo.processInfo.environment["PATH"])
    }
}

/// Starting a coordinator on a socket nobody answers, as D-Bus activation starts a service
/// on its first call: `scenectl link URL --start`.
enum Activation {
    /// Makes sure a coordinator answers on `socket`: when none does, starts `scenectl serve`
    /// there — detached, in a session of its own, serving `manifest` (or the one
    /// `desktop install` recorded for the socket) — and waits (bounded) until it answers.
    /// Concurrent starts on one socket take turns on a lock file beside it, so only the
    /// first starts one.
    /// Why no coordinator could be made to answer.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func ensureCoordinator(socket: String, manifest: String?) async -> Result<Void, Failure> {
        guard let manifest = manifest ?? Desktop.manifest(for: socket) else {
            return .failure(Failure(description: "no coordinator answers at \(socket), and no manifest to start one with: give --manifest FILE, or register one with scenectl desktop install --manifest FILE"))
        }
        let folder = URL(fileURLWithPath: socket).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock = open("\(socket).start-lock", O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { return .failure(Failure(description: "cannot open \(socket).start-lock: \(String(cString: strerror(errno)))")) }
        defer { close(lock) }
        let lockDeadline = ContinuousClock.now + .seconds(30)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < lockDeadline else { return .failure(Failure(description: "another start on \(socket) did not finish in 30 s")) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        defer { flock(lock, LOCK_UN) }
        // Another start may have finished while this one waited for the lock.
        if await answers(socket) { return .success(()) }
        var environment = ProcessInfo.processInfo.environment
        // It outlives this command: it must not end when its starter does.
        environment["SCENE_EXIT_WITH_PARENT"] = nil
        // Its output goes to a log beside the socket, which a failed start points to.
        let logPath = "\(socket).log"
        let log = open(logPath, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        defer { if log >= 0 { close(log) } }
        var arguments = ["serve", "--socket", socket, "--manifest", manifest]
        // In a session of its own (setsid), so that closing the starter's terminal leaves it.
        var program = DefaultApp.executable
        if let setsid = Desktop.which("setsid") {
            arguments.insert(program, at: 0)
            program = setsid
        }
        let pid: Int32
        do {
            pid = try Processes.spawn(program, arguments: arguments, environment: environment, output: log, errors: log)
        } catch {
            return .failure(Failure(description: "cannot start scenectl serve: \(error)"))
        }
        let startDeadline = ContinuousClock.now + .seconds(20)
        var watching = true
        while ContinuousClock.now < startDeadline {
            if await answers(socket) { return .success(()) }
            // It ended before answering: say how, and where its words are. (A setsid that
            // forked ends at once with status 0: then the one it started goes on.)
            var status: Int32 = 0
            if watching, waitpid(pid, &status, WNOHANG) == pid {
                watching = false
                if status != 0 {
                    return .failure(Failure(description: "scenectl serve on \(socket) ended before it answered (wait status \(status)); see \(logPath)"))
                }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return .failure(Failure(description: "the coordinator started on \(socket) did not answer within 20 s; see \(logPath)"))
    }

    /// Whether a coordinator answers `ping` on `socket`.
    static func answers(_ socket: String) async -> Bool {
        guard let connection = try? await SceneConnection.connect(path: socket, client: "scenectl/activation", timeout: 2) else {
            return false
        }
        defer { connection.close() }
        return (try? await connection.ping()) != nil
    }
}
