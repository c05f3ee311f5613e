import Foundation
import Glibc
import SceneClient
import SceneCoordinator
import SceneJSON
import SceneTesting
import SceneWire
import Testing

/// The GTK 4 scene (Examples/gtk-scene) under a real X server with no screen: what the
/// tests check is what the X server says — which windows exist, their titles, whether
/// they are mapped, which window a dialog belongs to — not what the scene says of itself.
@Suite("Real windows: the GTK scene under Xvfb", .timeLimit(.minutes(10)))
struct WindowTests {
    /// Two scenes of the GTK example, on `display`.
    static func scenes(on display: VirtualDisplay) -> [String] {
        let script = repositoryRoot.appendingPathComponent("Examples/gtk-scene/scene.py").path
        let environment = String(decoding: try! JSONEncoder().encode(display.environment), as: UTF8.self)
        return [("gtk-desk", "Desk"), ("gtk-notes", "Notes")].map { id, title in
            #"{"id": "\#(id)", "kind": "window", "launch": {"command": ["\#(VirtualDisplay.python)", "\#(script)", "--title", "\#(title)", "--quiet"], "env": \#(environment), "timeout": 60}}"#
        }
    }

    @Test("two scenes are two mapped windows; a push retitles its window; a sheet is a transient window the toolkit can close; a close with unsaved text is refused; a killed process comes back as a new window with its path; a dismissal unmaps")
    func windows() async throws {
        try await withTemporaryFolder { folder in
            let display = try await VirtualDisplay.start(in: folder.path)
            defer { display.stop() }
            try await withProcesses(extra: Self.scenes(on: display), configure: patientClose) { harness in
                let control = harness.control
                let desk = try await control.open("gtk-desk").instance.id
                let notes = try await control.open("gtk-notes").instance.id
                #expect([desk, notes] == ["gtk-desk-1", "gtk-notes-1"])
                let screen = Screen(display: display)

                // Two scenes open: two mapped windows, each made by its instance's process.
                let opened = try await screen.until("both windows are shown") {
                    $0.shown("Desk — gtk-desk-1") != nil && $0.shown("Notes — gtk-notes-1") != nil
                }
                let deskWindow = try #require(opened.shown("Desk — gtk-desk-1"))
                let notesWindow = try #require(opened.shown("Notes — gtk-notes-1"))
                #expect(deskWindow.id != notesWindow.id)
                #expect(deskWindow.pid == harness.pid(of: desk))
                #expect(notesWindow.pid == harness.pid(of: notes))

                // A push: the same window shows the pushed page (its title names it first).
                _ = try await control.send(.push(["screen": "draft", "id": 7]), to: notes)
                let pushed = try await screen.until("the window shows the pushed page") { $0.shown("draft 7 — Notes — gtk-notes-1") != nil }
                #expect(pushed.shown("draft 7 — Notes — gtk-notes-1")?.id == notesWindow.id)
                #expect(pushed.shown("Notes — gtk-notes-1") == nil)

                // A sheet: a second window, a dialog of the first.
                _ = try await control.send(.sheet("share"), to: notes)
                let sheeted = try await screen.until("the sheet is shown") { $0.shown("sheet: share — gtk-notes-1") != nil }
                let sheet = try #require(sheeted.shown("sheet: share — gtk-notes-1"))
                #expect(sheet.transientFor == notesWindow.id)
                try await arrangeAndSave(display, as: "gtk-windows.png")

                // The toolkit closes the sheet itself (Escape): the coordinator adopts what
                // the window shows.
                try await display.press("Escape", in: sheet)
                let reconciled = await harness.events.wait {
                    $0.kind == .flowChanged && $0.params["instance"] == .string(notes) && $0.params["cause"]?["by"] == "reconcile"
                }
                #expect(reconciled?.params["path"] == [["type": "push", "route": ["screen": "draft", "id": 7]]])
                _ = try await screen.until("the sheet is gone") { $0.shown("sheet: share — gtk-notes-1") == nil }

                // A cover closed by its close button, the same way.
                _ = try await control.send(.cover("photo"), to: notes)
                let covered = try await screen.until("the cover is shown") { $0.shown("cover: photo — gtk-notes-1") != nil }
                try await display.requestClose(try #require(covered.shown("cover: photo — gtk-notes-1")))
                let uncovered = await harness.events.wait { event in
                    event.kind == .flowChanged && event.params["cause"]?["by"] == "reconcile" && event.seq > (reconciled?.seq ?? 0)
                }
                #expect(uncovered?.params["path"] == [["type": "push", "route": ["screen": "draft", "id": 7]]])

                // A swipe back (Alt+Left): the toolkit goes back a page, then says so.
                _ = try await control.send(.push("appendix"), to: notes)
                _ = try await screen.until("the appendix page is shown") { $0.shown("appendix — Notes — gtk-notes-1") != nil }
                try await display.press("Left", holding: ["Alt_L"], in: notesWindow)
                let swiped = await harness.events.wait { event in
                    event.kind == .flowChanged && event.params["cause"]?["by"] == "reconcile" && event.seq > (uncovered?.seq ?? 0)
                }
                #expect(swiped?.params["path"] == [["type": "push", "route": ["screen": "draft", "id": 7]]])
                _ = try await screen.until("the draft page is shown again") { $0.shown("draft 7 — Notes — gtk-notes-1") != nil }

                // The close button with unsaved text: refused, an alert says why, the window stays.
                _ = try await control.callScene(.instance(notes), method: "edit", params: ["text": "half a thought"])
                try await display.requestClose(notesWindow)
                let alerted = try await screen.until("the unsaved-text alert is shown") { $0.shown("Unsaved text — gtk-notes-1") != nil }
                #expect(alerted.shown("Unsaved text — gtk-notes-1")?.transientFor == notesWindow.id)
                #expect(alerted.shown("draft 7 — Notes — gtk-notes-1")?.id == notesWindow.id)
                #expect(try await harness.instance(notes) != nil)
                // The coordinator's own interactive close is refused the same way.
                #expect(await refusal { _ = try await control.dismiss(instance: notes) } == .closeVetoed)

                // The close button with nothing unsaved: the coordinator dismisses the instance.
                try await display.requestClose(deskWindow)
                #expect(await harness.events.wait { $0.kind == .dismissed && $0.params["instance"] == .string(desk) } != nil)
                _ = try await screen.until("the desk window is gone") { $0.shown("Desk — gtk-desk-1") == nil }

                // A scene process killed with SIGKILL: a new process, a new window, the same path.
                let old = try #require(harness.pid(of: notes))
                kill(old, SIGKILL)
                let pid = try await harness.newPid(of: notes, other: old)
                // Told apart by pid, not window id: the X server hands a departed client's
                // resource ids to the next client that connects, so the new window may reuse one.
                _ = try await screen.until("the restarted process shows its window, and none of the killed one's is left") { windows in
                    windows.shown("draft 7 — Notes — gtk-notes-1")?.pid == pid && !windows.contains { $0.pid == old }
                }

                // A dismissal from the coordinator: the window goes.
                _ = try await control.dismiss(instance: notes)
                _ = try await screen.until("the notes window is gone") { $0.shown("draft 7 — Notes — gtk-notes-1") == nil }
                try await arrangeAndSave(display, as: "gtk-windows-end.png")
            }
        }
    }

    @Test("focus raises a window above the others; the keyboard focus moving is reported as each window's phase; a window pushed over is hidden, and shown again when the pushed one goes")
    func focusAndPush() async throws {
        try await withTemporaryFolder { folder in
            let display = try await VirtualDisplay.start(in: folder.path)
            defer { display.stop() }
            try await withProcesses(extra: Self.scenes(on: display)) { harness in
                let control = harness.control
                let screen = Screen(display: display)
                _ = try await control.open("gtk-desk")
                _ = try await screen.until("the desk window is shown") { $0.shown("Desk — gtk-desk-1") != nil }
                _ = try await control.open("gtk-notes")
                // The server lists windows bottom to top: the one opened last is above.
                func above(_ top: String, _ bottom: String) -> ([VirtualDisplay.Window]) -> Bool {
                    { windows in
                        guard let upper = windows.firstIndex(where: { $0.mapped && $0.name == top }),
                            let lower = windows.firstIndex(where: { $0.mapped && $0.name == bottom })
                        else { return false }
                        return upper > lower
                    }
                }
                _ = try await screen.until("notes is above desk") { above("Notes — gtk-notes-1", "Desk — gtk-desk-1")($0) }
                _ = try await control.focus("gtk-desk-1")
                _ = try await screen.until("desk is raised above notes") { above("Desk — gtk-desk-1", "Notes — gtk-notes-1")($0) }

                // The keyboard focus moving between the windows: each reports its phase.
                let windows = try await display.windows()
                let deskWindow = try #require(windows.shown("Desk — gtk-desk-1"))
                let notesWindow = try #require(windows.shown("Notes — gtk-notes-1"))
                func phases(_ desk: String, _ notes: String) async -> Bool {
                    await eventually {
                        let state = try? await control.state()
                        let phase = { (id: String) in state?.instances.first { $0.id == id }?.phase }
                        return phase("gtk-desk-1") == desk && phase("gtk-notes-1") == notes
                    }
                }
                try await display.focus(notesWindow)
                #expect(await phases("inactive", "active"), "desk did not report inactive, nor notes active")
                try await display.focus(deskWindow)
                #expect(await phases("active", "inactive"), "desk did not report active, nor notes inactive")

                // A window pushed from desk takes its place: desk is hidden until it goes.
                let pushed = try await control.push("gtk-notes", from: "gtk-desk-1").id
                _ = try await screen.until("the pushed window is shown and desk is hidden") {
                    $0.shown("Notes — \(pushed)") != nil && $0.shown("Desk — gtk-desk-1") == nil
                }
                _ = try await control.dismiss(instance: pushed)
                _ = try await screen.until("desk is back") { $0.shown("Desk — gtk-desk-1") != nil && $0.shown("Notes — \(pushed)") == nil }
            }
        }
    }

    /// Tiles the windows and saves a screenshot among the test artifacts
    /// (`.build/artifacts`).
    private func arrangeAndSave(_ display: VirtualDisplay, as name: String) async throws {
        let artifacts = repositoryRoot.appendingPathComponent(".build/artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        try await display.arrange()
        try await display.screenshot(to: artifacts.appendingPathComponent(name).path)
    }
}

/// Waits on what the X server shows.
struct Screen {
    let display: VirtualDisplay

    /// The windows once `condition` holds of them (within 60 s); else the test fails with
    /// what the server showed.
    func until(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: ([VirtualDisplay.Window]) -> Bool
    ) async throws -> [VirtualDisplay.Window] {
        if let windows = try await display.windows(within: .seconds(60), where: condition) { return windows }
        let now = try await display.windows().filter { $0.name != nil }
        Issue.record("not within 60 s: \(what); the windows: \(now)", sourceLocation: sourceLocation)
        throw TimedOut()
    }

    struct TimedOut: Error {}
}

extension [VirtualDisplay.Window] {
    /// The mapped window titled `name`, if there is one.
    func shown(_ name: String) -> VirtualDisplay.Window? {
        first { $0.mapped && $0.name == name }
    }
}

@Suite("Real windows from scenectl", .timeLimit(.minutes(10)))
struct WindowCommandTests {
    @Test("scenectl serve runs the GTK example's manifest: its scenes open as windows on the display in serve's environment, and go when it shuts down")
    func exampleManifest() async throws {
        try await withTemporaryFolder { folder in
            let display = try await VirtualDisplay.start(in: folder.path)
            defer { display.stop() }
            let path = folder.file("windows.sock")
            let manifest = repositoryRoot.appendingPathComponent("Examples/gtk-scene/manifest.json").path
            let serve = try ChildProcess(["serve", "--manifest", manifest, "--socket", path], environment: display.environment)
            defer { serve.kill() }
            #expect(await eventually { (try? await scenectl(["ping", "--socket", path]))?.code == 0 })
            for scene in ["main", "notes"] {
                let opened = try await scenectl(["open", scene, "--socket", path])
                #expect(opened.code == 0, "\(opened.err)")
            }
            let screen = Screen(display: display)
            _ = try await screen.until("both windows are shown") { $0.shown("Main — main-1") != nil && $0.shown("Notes — notes-1") != nil }
            #expect(try await scenectl(["shutdown", "--socket", path]).code == 0)
            #expect(await serve.wait() == 0)
            _ = try await screen.until("every window is gone") { !$0.contains { $0.mapped && $0.name != nil } }
        }
    }

    @Test("scenectl demo --windows walks the whole tour with each scene a GTK window, and says why not when there is no display")
    func demoWindows() async throws {
        try await withTemporaryFolder { folder in
            let display = try await VirtualDisplay.start(in: folder.path)
            defer { display.stop() }
            let events = try await display.events()
            defer { events.stop() }
            let mapped = Task {
                var names: Set<String> = []
                for await event in events.notifications where event.event == "map" {
                    if let name = event.name { names.insert(name) }
                }
                return names
            }
            // Its temporary folder (and so its scene processes' SCENE_SOCKET) in this test's
            // folder: the plain demo's test, running meanwhile, counts the processes of its own.
            var environment = display.environment
            environment["TMPDIR"] = folder.path
            let demo = try await scenectl(["demo", "--windows", "--pause", "0"], environment: environment)
            #expect(demo.code == 0, "\(demo.out)\(demo.err)")
            #expect(demo.out.contains("The coordinator closed every scene process"), "\(demo.out)")
            events.stop()
            let names = await mapped.value
            // Each of these scenes was a window the X server mapped (windows that stay open
            // a while: a window gone at once may be gone before its title is read).
            for name in ["Main window — main-1", "Notes — notes-1", "Document viewer — viewer-1"] {
                #expect(names.contains(name), "\(name) was never mapped: \(names.sorted())")
            }

            let headless = try await scenectl(["demo", "--windows"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
            #expect(headless.code == 1)
            #expect(headless.err.contains("there is no display"), "\(headless.err)")
        }
    }
}
