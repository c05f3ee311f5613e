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
        let action = try arguments.expect("install|uninstall|status")[0]
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
        let schemes = manifest.linkPolicy.origins.map(\.scheme).filter { !LinkOrigin.isWeb($0) }
        guard !schemes.isEmpty else {
            standardError("scenectl: \(file) allows no custom link scheme (links.origins): there is nothing to register")
            return .failure
        }
        let socketPath = socket ?? CoordinatorConfiguration.defaultSocketPath(app: manifest.app)
        var entries = readRecord(places).filter { !schemes.contains($0.scheme) }
        do {
            try FileManager.default.createDirectory(atPath: places.applications, withIntermediateDirectories: true)
            for scheme in Array(Set(schemes)).sorted() {
                let desktop = "\(places.applications)/scenectl-\(manifest.app)-\(scheme).desktop"
                try Data(entry(app: manifest.app, scheme: scheme, socket: socketPath).utf8).write(to: URL(fileURLWithPath: desktop))
                try setDefault(URL(fileURLWithPath: desktop).lastPathComponent, for: scheme, places: places)
                entries.append(Entry(scheme: scheme, file: desktop, socket: socketPath, manifest: path))
                print("registered \(scheme): links: \(desktop)")
            }
            try writeRecord(entries, places)
        } catch {
            standardError("scenectl: cannot install: \(error.localizedDescription)")
            return .failure
        }
        return .success
    }

    /// The `.desktop` entry for `scheme`: hidden from menus, opening `%u` on `socket`, and
    /// starting a coordinator there when none answers.
    static func entry(app: String, scheme: String, socket: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Version=1.5
        Name=\(app) links (\(scheme):)
        Comment=Opens \(scheme): links in the \(app) scene coordinator
        Exec=\(quoted(DefaultApp.executable)) link --start --socket \(quoted(socket)) %u
        Terminal=false
        NoDisplay=true
        MimeType=x-scheme-handler/\(scheme);

        """
    }

    /// An `Exec` argument, quoted as the Desktop Entry specification says when it needs to be.
    private static func quoted(_ argument: String) -> String {
        let reserved = " \t\n\"'\\><~|&;$*?#()`"
        guard argument.contains(where: { reserved.contains($0) }) else { return argument }
        var escaped = ""
        for character in argument {
            if "\"`$\\".contains(character) { escaped += "\\\\" }
            escaped.append(character)
        }
        return "\"\(escaped)\""
    }

    /// Makes `desktop` the default handler of `scheme`: through `xdg-mime` when it is
    /// installed, else by writing `mimeapps.list` as the MIME Applications spec says.
    private static func setDefault(_ desktop: String, for scheme: String, places: Places) throws {
        let type = "x-scheme-handler/\(scheme)"
        if let xdgMime = which("xdg-mime") {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CONFIG_HOME"] = places.config
            if let pid = try? Processes.spawn(xdgMime, arguments: ["default", desktop, type], environment: environment) {
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                if status == 0, mimeappsDefault(for: type, places: places) == desktop { return }
            }
        }
        var lines = (try? String(contentsOfFile: places.mimeapps, encoding: .utf8))?.components(separatedBy: "\n") ?? []
        if lines.last == "" { lines.removeLast() }
        lines.removeAll { $0.hasPrefix("\(type)=") }
        let header = lines.firstIndex(of: "[Default Applications]") ?? {
            if !lines.isEmpty { lines.append("") }
            lines.append("[Default Applications]")
            return lines.count - 1
        }()
        lines.insert("\(type)=\(desktop)", at: header + 1)
        try FileManager.default.createDirectory(atPath: places.config, withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: places.mimeapps))
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
            removeDefault(name, for: "x-scheme-handler/\(entry.scheme)", places: places)
            print("unregistered \(entry.scheme): links: \(entry.file)")
        }
        try? FileManager.default.removeItem(atPath: places.record)
        return .success
    }

    /// Removes `type`'s line from `mimeapps.list` when it still names `desktop`; every
    /// other line stays.
    private static func removeDefault(_ desktop: String, for type: String, places: Places) {
        guard let text = try? String(contentsOfFile: places.mimeapps, encoding: .utf8) else { return }
        let kept = text.components(separatedBy: "\n").filter { line in
            !(line.hasPrefix("\(type)=") && line.dropFirst(type.count + 1).split(separator: ";").first.map(String.init) == desktop)
        }
        try? Data(kept.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: places.mimeapps))
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
        try encoder.encode(entries).write(to: URL(fileURLWithPath: places.record))
    }

    /// The manifest recorded for `socket`, if install recorded one.
    static func manifest(for socket: String) -> String? {
        readRecord(Places()).first { $0.socket == socket }?.manifest
    }

    /// `name`'s path in `PATH`, if it is there.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
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
        let lock = open("\(socket).start-lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return .failure(Failure(description: "cannot open \(socket).start-lock: \(String(cString: strerror(errno)))")) }
        defer { close(lock) }
        let deadline = ContinuousClock.now + .seconds(20)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else { return .failure(Failure(description: "another start on \(socket) did not finish in 20 s")) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        defer { flock(lock, LOCK_UN) }
        // Another start may have finished while this one waited for the lock.
        if await answers(socket) { return .success(()) }
        var environment = ProcessInfo.processInfo.environment
        // It outlives this command: it must not end when its starter does.
        environment["SCENE_EXIT_WITH_PARENT"] = nil
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let arguments = [DefaultApp.executable, "serve", "--socket", socket, "--manifest", manifest]
        do {
            _ = try Processes.spawn("/usr/bin/setsid", arguments: arguments, environment: environment, output: null, errors: null)
        } catch {
            return .failure(Failure(description: "cannot start scenectl serve: \(error)"))
        }
        while ContinuousClock.now < deadline {
            if await answers(socket) { return .success(()) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return .failure(Failure(description: "the coordinator started on \(socket) did not answer within 20 s"))
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
