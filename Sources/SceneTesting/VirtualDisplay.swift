import Foundation
import Glibc
import SceneSocket

/// A real X server with no screen (Xvfb), for tests and benchmarks whose scene processes
/// open real toolkit windows: it starts on a display number of its own, and reads its
/// windows from the server itself — their titles, whether they are mapped, which window a
/// dialog is transient for — closes one as a window manager's close button does, and
/// takes screenshots.
///
/// What it needs is installed with `apt-get` when missing (`xvfb`, `libxtst6`; `python3-gi` and
/// `gir1.2-gtk-4.0` for GTK 4 scenes, which ``python`` runs), so a test that uses it runs
/// everywhere and skips nothing. The window reader is a small Python program over
/// libX11 (ctypes), run by ``python`` for each question.
public final class VirtualDisplay: Sendable {
    /// Why the display could not be set up, or a question to it failed.
    public typealias Failure = ToolFailure

    /// One top-level window, as the X server describes it.
    public struct Window: Sendable, Decodable, Equatable, CustomStringConvertible {
        /// The X window id.
        public let id: UInt64
        /// Its title (`_NET_WM_NAME`, else `WM_NAME`); nil when it has none.
        public let name: String?
        /// Whether it is mapped and viewable: shown on the screen.
        public let mapped: Bool
        /// The window it is a dialog of (`WM_TRANSIENT_FOR`), if any.
        public let transientFor: UInt64?
        /// The pid of the process that made it (`_NET_WM_PID`), when it says.
        public let pid: Int32?
        /// Where it is, and its size, in pixels.
        public let x: Int, y: Int, width: Int, height: Int

        public var description: String {
            "\(String(id, radix: 16)) \"\(name ?? "")\"\(mapped ? "" : " (unmapped)")\(transientFor.map { " transient for \(String($0, radix: 16))" } ?? "")"
        }
    }

    /// The Python that has PyGObject and GTK 4 once the display is started: the system's.
    public static let python = "/usr/bin/python3"
    /// Where Xvfb is looked for (and installed to).
    public static let xvfb = "/usr/bin/Xvfb"

    /// The display's name, as `DISPLAY` gives it: `:<number>`.
    public let display: String
    private let folder: String
    private let server: Child
    private let reader: String

    private init(display: String, folder: String, server: Child, reader: String) {
        self.display = display
        self.folder = folder
        self.server = server
        self.reader = reader
    }

    deinit { stop() }

    /// The variables a GTK 4 process needs to open its windows on this display, the same
    /// way on every machine: the X11 backend, the software renderer (Xvfb has no GPU), and
    /// no accessibility bus (there is no session bus).
    public var environment: [String: String] {
        ["DISPLAY": display, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "NO_AT_BRIDGE": "1"]
    }

    /// Starts a server of `width` × `height` pixels (24-bit colour) on a free display
    /// number, its files in `folder` (an existing, private folder); answers once it accepts
    /// connections.
    public static func start(in folder: String, width: Int = 1280, height: Int = 800, timeout: Duration = .seconds(60))
        async throws(Failure) -> VirtualDisplay
    {
        try await install()
        let reader = "\(folder)/xwindows.py"
        guard let source = Bundle.module.url(forResource: "xwindows", withExtension: "py"),
            (try? FileManager.default.copyItem(atPath: source.path, toPath: reader)) != nil
        else { throw Failure(description: "the window reader (xwindows.py) is missing from SceneTesting's resources") }
        // -displayfd: the server picks a free display number and writes it, once it listens.
        let number = "\(folder)/display"
        let fd = open(number, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot open \(number)") }
        let log = open("\(folder)/xvfb.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(fd); if log >= 0 { close(log) } }
        let server = try Child(
            xvfb, ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
            output: fd, errors: log)
        let deadline = ContinuousClock.now + timeout
        while true {
            if let text = try? String(contentsOfFile: number, encoding: .utf8), text.hasSuffix("\n"), let value = Int(text.dropLast()) {
                return VirtualDisplay(display: ":\(value)", folder: folder, server: server, reader: reader)
            }
            guard server.isRunning, ContinuousClock.now < deadline else {
                server.kill()
                let said = (try? String(contentsOfFile: "\(folder)/xvfb.log", encoding: .utf8)) ?? ""
                throw Failure(description: "Xvfb did not come up: \(said.suffix(2000))")
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The top-level windows, as the server says now.
    public func windows() async throws(Failure) -> [Window] {
        let output = try await read(["list"])
        do {
            return try JSONDecoder().decode([Window].self, from: Data(output.utf8))
        } catch {
            throw Failure(description: "the window reader answered what is not a window list: \(output.prefix(500))")
        }
    }

    /// Waits (bounded) until `condition` holds of the windows; the windows then, or nil
    /// when it did not hold in time.
    public func windows(
        within timeout: Duration = .seconds(30), where condition: ([Window]) -> Bool
    ) async throws(Failure) -> [Window]? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let now = try await windows()
            if condition(now) { return now }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Asks `window` to close, as a window manager's close button does (`WM_DELETE_WINDOW`):
    /// its toolkit decides what that does.
    public func requestClose(_ window: Window) async throws(Failure) {
        _ = try await read(["close", "\(window.id)"])
    }

    /// Gives `window` the keyboard focus, as a person clicking it would.
    public func focus(_ window: Window) async throws(Failure) {
        _ = try await read(["focus", "\(window.id)"])
    }

    /// Gives `window` the keyboard focus and presses `key` (an X keysym name: `Escape`,
    /// `Left`, `Return`, …) while holding each of `modifiers` (`Alt_L`, `Control_L`, …), as
    /// a person at the keyboard would (the XTEST extension).
    public func press(_ key: String, holding modifiers: [String] = [], in window: Window) async throws(Failure) {
        _ = try await read(["key", "\(window.id)", key] + modifiers)
    }

    /// Tiles the shown windows on the screen and centres each dialog on its window (with
    /// no window manager, each toolkit window opens at the top left corner).
    public func arrange() async throws(Failure) {
        _ = try await read(["arrange"])
    }

    /// Writes the screen to `path` as a PNG, once it is still (two captures alike): the
    /// part the shown windows cover, with a 16-pixel margin (the whole screen when none is
    /// shown).
    public func screenshot(to path: String) async throws(Failure) {
        _ = try await read(["screenshot", path])
    }

    /// The server's map and unmap notifications of top-level windows, as they happen: a
    /// stream that begins once the server reports them, and ends at ``WindowEvents/stop()``.
    public func events(timeout: Duration = .seconds(30)) async throws(Failure) -> WindowEvents {
        let events = try WindowEvents(python: Self.python, reader: reader, display: display)
        // A reader that never says it is ready is stopped, which ends its stream.
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            events.stop()
        }
        defer { watchdog.cancel() }
        var lines = events.stream.makeAsyncIterator()
        guard let first = await lines.next(), first.event == "ready" else {
            events.stop()
            throw Failure(description: "the window reader did not start watching within \(timeout)")
        }
        return events
    }

    /// Stops the server (and every window on it goes).
    public func stop() { server.kill() }

    private func read(_ arguments: [String]) async throws(Failure) -> String {
        let name = "\(folder)/xwindows-\(UInt32.random(in: 0...UInt32.max))"
        defer {
            try? FileManager.default.removeItem(atPath: "\(name).out")
            try? FileManager.default.removeItem(atPath: "\(name).err")
        }
        let out = open("\(name).out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let err = open("\(name).err", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let child: Child
        do {
            defer { close(out); close(err) }
            child = try Child(Self.python, [reader] + arguments, output: out, errors: err, environment: ["DISPLAY": display])
        }
        let status = await child.finished(poll: .milliseconds(5))
        let output = (try? String(contentsOfFile: "\(name).out", encoding: .utf8)) ?? ""
        guard status == 0 else {
            let said = (try? String(contentsOfFile: "\(name).err", encoding: .utf8)) ?? ""
            throw Failure(description: "xwindows.py \(arguments.joined(separator: " ")): exit \(status): \(said.suffix(2000))")
        }
        return output
    }

    /// Installs Xvfb, PyGObject and GTK 4 when one is missing.
    private static func install() async throws(Failure) {
        try await SystemPackages.ensure(["xvfb", "libxtst6", "python3-gi", "gir1.2-gtk-4.0"]) {
            guard FileManager.default.isExecutableFile(atPath: xvfb), hasXTest() else { return false }
            return await hasGTK4()
        }
    }

    /// Whether the XTEST client library (key presses) is there.
    private static func hasXTest() -> Bool {
        guard let library = dlopen("libXtst.so.6", RTLD_LAZY) else { return false }
        dlclose(library)
        return true
    }

    /// Whether ``python`` can load GTK 4 (without opening a display).
    private static func hasGTK4() async -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let check = "import gi; gi.require_version('Gtk', '4.0'); gi.require_version('Gdk', '4.0')"
        guard let child = try? Child(python, ["-c", check], log: "/dev/null") else { return false }
        return await child.finished() == 0
    }
}

/// Windows mapped and unmapped on a ``VirtualDisplay``, as the X server reports them (a
/// reader process of their own).
public final class WindowEvents: Sendable {
    /// One notification.
    public struct Event: Sendable, Decodable {
        /// `map` or `unmap` (and `ready`, once, before any).
        public let event: String
        /// The window's X id.
        public let id: UInt64?
        /// Its title when it was mapped (an unmap reports the same).
        public let name: String?
    }

    fileprivate let stream: AsyncStream<Event>
    private let child: Child

    /// The notifications, in the order the server sent them.
    public var notifications: AsyncStream<Event> { stream }

    fileprivate init(python: String, reader: String, display: String) throws(ToolFailure) {
        let pipe: (read: Int32, write: Int32)
        do { pipe = try Processes.pipe() } catch { throw ToolFailure(description: "pipe: \(error)") }
        do {
            defer { close(pipe.write) }
            child = try Child(python, ["-u", reader, "watch"], output: pipe.write, errors: -1, environment: ["DISPLAY": display])
        } catch {
            close(pipe.read)
            throw error
        }
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        self.stream = stream
        // A thread of its own blocks on the pipe: the reader's lines as they come.
        let descriptor = pipe.read
        Thread.detachNewThread {
            defer { close(descriptor); continuation.finish() }
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if let event = try? JSONDecoder().decode(Event.self, from: line) { continuation.yield(event) }
                }
            }
        }
    }

    deinit { stop() }

    /// Ends the reader; the stream finishes.
    public func stop() { child.kill() }
}
