import Distributed
import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneWire
import SceneSocket
import SceneSync

/// `scenectl demo`: a coordinator on a temporary socket serving the demo app, whose
/// scenes are processes of this executable, and a scripted tour of every rule, with what
/// each step changed in the scene tree (the whole tree with `--verbose`).
enum Demo {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ arguments: Arguments) async -> ExitCode {
        signal(SIGPIPE, SIG_IGN)
        let windows = arguments.flag("windows")
        let verbose = arguments.flag("verbose")
        var pause: Duration = windows ? .seconds(2) : .zero
        if let text = arguments.option("pause") {
            guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
                standardError("scenectl demo: --pause takes a number of seconds from 0 to 3600")
                return .usage
            }
            pause = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        var scenes = DefaultApp.demoScenes(arguments: ["--quiet"])
        if windows {
            switch Windows.scenes() {
            case .success(let windows): scenes = windows
            case .failure(let why):
                standardError("scenectl demo --windows: \(why.description)")
                return .failure
            }
        }
        // In $TMPDIR when set, as temporary files go.
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(temporary)/scenectl-demo-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            standardError("scenectl: cannot make a temporary folder: \(String(cString: strerror(errno)))")
            return .failure
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = CoordinatorConfiguration(socketPath: "\(folder)/demo.sock")
        configuration.heartbeatInterval = .seconds(1)
        let coordinator: Coordinator<JSONValue>
        do {
            coordinator = try await Coordinator.start(scenes: scenes, configuration: configuration)
        } catch {
            standardError("scenectl: cannot start the demo coordinator: \(error)")
            return .failure
        }
        let started = ContinuousClock.now
        var code = ExitCode.success
        do {
            let connection = try await SceneConnection.connect(path: configuration.socketPath, client: "scenectl/demo", timeout: 10)
            defer { connection.close() }
            print(
                verbose
                    ? "After each step, the whole scene tree."
                    : "After each step, the lines of the scene tree that changed: - as it was, + as it is now (--verbose shows the whole tree).")
            try await Tour(
                connection: connection, socketPath: configuration.socketPath, verbose: verbose,
                pause: pause
            ).walk()
        } catch {
            standardError("scenectl demo: \(error)")
            code = .failure
        }
        // Every scene process is closed in stages; nothing is left behind.
        await coordinator.shutdown()
        print("\nThe coordinator closed every scene process and stopped (\(ContinuousClock.now - started) in all).")
        return code
    }

    /// The scripted steps.
    final class Tour: Sendable {
        let connection: SceneConnection
        let socketPath: String
        let verbose: Bool
        /// How long to wait after each step (for a person watching the windows).
        let pause: Duration
        let step = Locked(0)
        /// The tree's lines after the last step.
        let shown = Locked<[String]>([])

        init(connection: SceneConnection, socketPath: String, verbose: Bool, pause: Duration) {
            self.connection = connection
            self.socketPath = socketPath
            self.verbose = verbose
            self.pause = pause
        }

        func walk() async throws {
            let (_, events) = try await connection.subscribe(topics: [.scene])
            let pids = PidBook(events)
            defer { pids.stop() }

            try await section("Open windows: each scene instance is a process of its own") {
                let main = try await connection.open("main")
                let notes1 = try await connection.open("notes")
                let notes2 = try await connection.open("notes")
                say("open main → \(main.outcome) \(main.instance.id); open notes twice → \(notes1.instance.id), \(notes2.instance.id)")
                let title = try await connection.callScene(.instance(main.instance.id), method: "title")
                say("\(main.instance.id)'s process answers title: \(title["title"]?.stringValue ?? "?")")
            }
            try await section("One instance per value: opening the same document focuses it") {
                let first = try await connection.open("viewer", value: "report")
                let again = try await connection.open("viewer", value: "report")
                say("open viewer \"report\" → \(first.outcome) \(first.instance.id); again → \(again.outcome) \(again.instance.id)")
            }
            try await section("Immersive spaces are exclusive") {
                let theatre = try await connection.open("theatre", value: "matinee")
                say("open theatre → \(theatre.outcome) \(theatre.instance.id)")
                do {
                    _ = try await connection.open("portal")
                    throw Failure(description: "a second immersive space was allowed")
                } catch let error as ClientError {
                    say("open portal → refused \(Self.refusal(error))")
                }
                let gone = try await connection.dismissImmersive()
                say("dismiss-immersive → \(gone.joined(separator: " "))")
            }
            try await section("A push: a window takes the place of another") {
                let pushed = try await connection.push("viewer", value: "appendix", from: "main-1")
                say("push viewer \"appendix\" from main-1 → \(pushed.id); main-1 goes to the background")
                let path = try await connection.send(.push(.object(["screen": "page", "n": 2])), to: pushed.id)
                say("push a page in \(pushed.id) → \(path.outcome)")
            }
            try await section("A closed window reopens with its path, as a browser's closed tab does") {
                let state = try await connection.state()
                guard let appendix = state.instances.first(where: { $0.scene == "viewer" && $0.value == "appendix" }) else {
                    throw Failure(description: "the pushed viewer is not open")
                }
                _ = try await connection.dismiss(instance: appendix.id)
                say("dismiss \(appendix.id) → main-1 comes back to the front")
                let back = try await connection.reopen()
                say("reopen → \(back.id), \"appendix\" again, showing \(back.path.map(\.description).joined(separator: " > "))")
            }
            try await section("A deep link opens a new viewer already showing its page") {
                let result = try await connection.openLink("https://demo.example/viewer/spec")
                say("link https://demo.example/viewer/spec → \(result.outcome) in \(result.instance?.id ?? "?")\(result.opened == true ? " (opened)" : "")")
            }
            try await section("One deep link runs a program: two viewers side by side") {
                let result = try await connection.openLink("demo://demo.example/compare/7/9")
                let opened = (result.program?.results ?? []).compactMap { $0["instance"]?["id"]?.stringValue }
                say("link demo://demo.example/compare/7/9 → \(result.outcome) by its program: \(opened.joined(separator: " and "))")
            }
            try await section("A scene presented for a result: the presenter waits until it finishes") {
                let control = connection
                let presenting = Task { try await control.present("globe", from: "main-1") }
                let focused = try await waitUntilOpen("globe-1")
                say("present globe from main-1 → \(focused) opens; the present request waits for its result")
                try await connection.finish("globe-1", result: ["picked": "Lisbon"])
                let answer = try await presenting.value
                say("finish globe-1 with {\"picked\": \"Lisbon\"} → the presenter gets \(answer.result); globe-1 is dismissed")
            }
            try await section("A link that needs a signed-in user waits, and is replayed after login") {
                let pending = try await connection.openLink("demo://demo.example/theatre/premiere")
                say("link demo://demo.example/theatre/premiere → \(pending.outcome)")
                let replayed = try await connection.setAuthenticated(true)
                say("auth on → replayed: \(replayed["outcome"]?.stringValue ?? "nothing") in \(replayed["instance"]?["id"]?.stringValue ?? "?")")
            }
            try await section("Scenes call each other through the coordinator") {
                let answer = try await connection.callScene(
                    .instance("notes-1"), method: "relay",
                    params: ["to": ["scene": "viewer"], "method": "title"])
                say("notes-1 asks the most recent viewer for its title (scene.call) → \(answer["title"]?.stringValue ?? answer.description)")
                let echo = try await connection.callScene(.scene("main"), method: "echo", params: ["hello": "main"])
                say("echo through the coordinator to main → \(echo)")
            }
            try await section("A typed call: a Swift protocol (@Resolvable), answered by a scene process by the function's name") {
                let titled = try $Titled.resolve(id: .instance(InstanceID("main-1")!), using: connection.actorSystem)
                say("$Titled.resolve(main-1).title() → a scene.call of \"title()\", which main-1's process answers by name → \(try await titled.title())")
            }
            try await section("A scene as a service: the first call opens it, its interface is checked, it announces signals") {
                let listener = try await SceneConnection.connect(path: socketPath, client: "scenectl/demo-signals", timeout: 10)
                defer { listener.close() }
                let (_, signals) = try await listener.subscribe(EventFilter(topics: [.signal], signals: ["greeted"]))
                var received = signals.makeAsyncIterator()
                let answer = try await connection.callScene(
                    .instance("notes-1"), method: "relay",
                    params: ["to": ["scene": "assistant"], "method": "greet", "params": ["name": "notes-1"]])
                say("notes-1 (a process) asks assistant, not open yet, to greet it → the coordinator opens it (activatable; its code runs in scenectl itself) and relays: \(answer["greeting"]?.stringValue ?? answer.description)")
                if let signal = await received.next()?.signal {
                    say("a subscriber to signal greeted hears: \(signal.instance) emitted \(signal.signal) \(signal.payload)")
                }
                do {
                    _ = try await connection.callScene(.scene("assistant"), method: "greet", params: ["name": 42])
                    throw Failure(description: "params that break the interface reached the scene")
                } catch let error as ClientError {
                    say("greet with {\"name\": 42} → refused \(Self.refusal(error)) before it reaches the assistant")
                }
                let described = try await connection.describe("assistant")
                let methods = (described.interface["methods"]?.objectValue ?? [:]).keys.sorted()
                say("describe assistant → methods \(methods.joined(separator: ", ")); signals \((described.interface["signals"]?.objectValue ?? [:]).keys.sorted().joined(separator: ", "))")
            }
            try await section("A scene process killed with SIGKILL comes back with its path") {
                _ = try await connection.send(.push(.object(["screen": "draft", "id": 7])), to: "notes-1")
                guard let pid = pids.pid(of: "notes-1"), let mainPid = pids.pid(of: "main-1") else {
                    throw Failure(description: "no pid recorded for notes-1 or main-1")
                }
                kill(pid, SIGKILL)
                say("notes-1 showed draft 7; killed its process (pid \(pid)) with SIGKILL")
                let back = try await waitUntilRestarted("notes-1", after: pid, pids: pids)
                say("the coordinator restarted it as pid \(back.pid); its path: \(SceneCommand.describe(back.path))")
                // Its group restarts main-1 with it, which the next step shows (and kills main-1
                // once that is done).
                _ = try await waitUntilRestarted("main-1", after: mainPid, pids: pids)
            }
            try await section("A supervision group restarts together: main and notes are one_for_all") {
                guard let pid = pids.pid(of: "main-1"), let notesPid = pids.pid(of: "notes-1") else {
                    throw Failure(description: "no pid recorded for main-1 or notes-1")
                }
                kill(pid, SIGKILL)
                say("killed main-1's process (pid \(pid)) with SIGKILL")
                let main = try await waitUntilRestarted("main-1", after: pid, pids: pids)
                let notes = try await waitUntilRestarted("notes-1", after: notesPid, pids: pids)
                say("main-1 came back as pid \(main.pid), and its group restarted notes-1 with it: pid \(notesPid) → \(notes.pid), its path \(SceneCommand.describe(notes.path))")
            }
        }

        private func waitUntilRestarted(_ id: String, after old: Int32, pids: PidBook) async throws -> (pid: Int32, path: JSONValue) {
            let deadline = ContinuousClock.now + .seconds(15)
            while ContinuousClock.now < deadline {
                if let pid = pids.pid(of: id), pid != old {
                    let state = try await connection.state()
                    // Back: its new process said hello (whatever phase it reported for itself before).
                    if let instance = state.instances.first(where: { $0.id == id }), ["active", "inactive", "background"].contains(instance.phase) {
                        let path = try await connection.callScene(.instance(id), method: "path")
                        return (pid, path["path"] ?? .null)
                    }
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw Failure(description: "\(id) did not come back within 15 s")
        }

        /// Waits (bounded) until instance `id` is open, and answers it.
        private func waitUntilOpen(_ id: String) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(20)
            while try await connection.state().instances.contains(where: { $0.id == id && ["active", "inactive", "background"].contains($0.phase) }) == false {
                guard ContinuousClock.now < deadline else { throw Failure(description: "\(id) did not open") }
                try await Task.sleep(for: .milliseconds(10))
            }
            return id
        }

        private func section(_ title: String, _ body: () async throws -> Void) async throws {
            let number = self.step.withLock { step in
                step += 1
                return step
            }
            print("\n\(number). \(title)")
            try await body()
            if pause > .zero { try await Task.sleep(for: pause) }
            let tree = try await connection.state().tree.split(separator: "\n").map(String.init)
            let before = shown.withLock { shown in
                defer { shown = tree }
                return shown
            }
            if verbose {
                print(tree.map { "   " + $0 }.joined(separator: "\n"))
                return
            }
            // What changed: the lines that went, then those that appeared (a line's change is both).
            let gone = before.filter { !tree.contains($0) }.map { "   - " + $0.trimmingCharacters(in: .whitespaces) }
            let new = tree.filter { !before.contains($0) }.map { "   + " + $0.trimmingCharacters(in: .whitespaces) }
            if !(gone + new).isEmpty { print((gone + new).joined(separator: "\n")) }
        }

        private func say(_ line: String) { print("   " + line) }

        /// A refusal as a line says it: its reason once, then its message (`code` when the
        /// coordinator gave no reason, as for invalid params).
        static func refusal(_ error: ClientError) -> String {
            guard case .remote(let wire) = error else { return error.description }
            return wire.reason.map { "\($0): \(wire.message)" } ?? wire.message
        }

    }

    /// The pid of each instance's current process, from `scene.spawned` events.
    final class PidBook: Sendable {
        private final class Pids: Sendable {
            let byInstance = Locked<[String: Int32]>([:])
        }

        private let pids = Pids()
        private let reader: Task<Void, Never>

        init(_ events: EventStream<WireEvent>) {
            let pids = self.pids
            reader = Task {
                for await event in events where event.kind == .spawned {
                    guard let id = event.params["instance"]?.stringValue, let pid = event.params["pid"]?.intValue else { continue }
                    pids.byInstance.withLock { $0[id] = Int32(pid) }
                }
            }
        }

        func pid(of id: String) -> Int32? { pids.byInstance.withLock { $0[id] } }

        func stop() { reader.cancel() }
    }
}

/// `demo --windows`: the demo's scenes as GTK 4 windows, when this machine can show them.
enum Windows {
    /// Why the windows cannot be shown.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    static let python = "/usr/bin/python3"

    /// The demo with each scene the GTK example scene, or why it cannot run here.
    static func scenes() -> Result<SceneSet<JSONValue>, Unavailable> {
        let environment = ProcessInfo.processInfo.environment
        guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else {
            return .failure(Unavailable(description: """
                there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set. Run it in a desktop session, \
                or under a virtual X server (xvfb-run scenectl demo --windows).
                """))
        }
        guard let script = script() else {
            return .failure(Unavailable(description: """
                Examples/gtk-scene/scene.py is not under the working folder nor beside this executable's \
                checkout: run it from the repository.
                """))
        }
        // GTK 4 must load and open the display, as each scene process will.
        let check = "import gi, sys; gi.require_version('Gtk', '4.0'); from gi.repository import Gtk; sys.exit(0 if Gtk.init_check() else 5)"
        switch run(python, ["-c", check]) {
        case 0: return .success(DefaultApp.demoScenes { [python, script, "--title", $0, "--quiet"] })
        case 5: return .failure(Unavailable(description: "GTK 4 cannot open the display (\(environment["DISPLAY"] ?? environment["WAYLAND_DISPLAY"] ?? ""))."))
        case nil: return .failure(Unavailable(description: "\(python) is missing: the GTK scene needs the system's Python 3 with PyGObject and GTK 4."))
        default:
            return .failure(Unavailable(description: """
                \(python) cannot load GTK 4 through PyGObject: install them (Debian and Ubuntu: \
                apt-get install python3-gi gir1.2-gtk-4.0).
                """))
        }
    }

    /// The GTK scene: under the working folder, or up from this executable (a checkout's
    /// `.build/<configuration>/scenectl`).
    private static func script() -> String? {
        let relative = "Examples/gtk-scene/scene.py"
        var folders = [FileManager.default.currentDirectoryPath]
        var folder = URL(fileURLWithPath: DefaultApp.executable).deletingLastPathComponent()
        while folder.path != "/" {
            folders.append(folder.path)
            folder.deleteLastPathComponent()
        }
        return folders.map { "\($0)/\(relative)" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Runs a command to its end, its output discarded; its exit status, nil when it
    /// cannot start.
    private static func run(_ executable: String, _ arguments: [String]) -> Int32? {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        guard let pid = try? Processes.spawn(executable, arguments: arguments, environment: ProcessInfo.processInfo.environment, output: null, errors: null)
        else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// What the demo's scene processes answer as a typed call: a Swift protocol that any scene
/// may answer, in any language, by the name of its function (`title()`).
@Resolvable
protocol Titled: DistributedActor where ActorSystem == SceneActorSystem {
    /// The scene's title.
    distributed func title() async throws -> String
}
