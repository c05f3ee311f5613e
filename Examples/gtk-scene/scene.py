#!/usr/bin/env python3
"""A scene process with real windows: GTK 4 through PyGObject.

Each instance is one top-level window, titled by its scene's title and its instance
("Notes — notes-1"), a page's name first when a page is pushed ("draft 7 — Notes —
notes-1"). What it shows is its instance's path, as the coordinator keeps it:

- the pushes as a stack of pages, with a Back button that pops through `flow.send`;
- a sheet or cover at the tail as a modal window transient for it, with a Done button
  that dismisses it through `flow.send`.

Changes the toolkit makes on its own are reported with `flow.reconcile` (adopt), so the
coordinator's path stays what the person sees: Escape (or the close button) on the modal
window closes it, Alt+Left goes back a page (as a swipe back would).

The window's close button asks the coordinator to dismiss the instance, unless the entry
holds text that was not saved: then the window stays and an alert (a window transient for
it, titled "Unsaved text — <instance>") says why, as `scene.close` answers `false` when
the coordinator asks. A dismissal from the coordinator closes the window; `scene.focus`
presents it (the scene subscribes to its own `scene.focused` events); a window pushed over
(phase `background`) is hidden until it comes back; the window gaining and losing focus
reports its phase (`scene.phase` `active` / `inactive`).

It answers `title`, `text`, `edit {text}` (puts text in the entry, unsaved), `save`
(marks the entry saved), `path`, `echo`, `relay` (a `scene.call` of its own), and the
typed calls `title()` and `save(draft:count:)` of the Swift `NotebookService` protocol,
so it can stand in for the headless example scene (Examples/python-scene).

A coordinator starts it with SCENE_SOCKET, SCENE_INSTANCE and SCENE_TOKEN in its
environment (see manifest.json); it exits when its connection closes. It needs a display
(DISPLAY, or WAYLAND_DISPLAY), PyGObject and GTK 4 (Debian: python3-gi, gir1.2-gtk-4.0).

Options: --title TEXT (the scene's title; default: the instance id), --quiet.
"""
import json
import os
import socket
import struct
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

MAX_FRAME = 64 << 20


def describe(route):
    """A route as a person reads it: a string as it is; an object's values, its `screen`
    first, then the others by name ({"screen": "draft", "id": 7} is "draft 7")."""
    if isinstance(route, str):
        return route
    if isinstance(route, dict):
        names = sorted(route, key=lambda name: (name != "screen", name))
        return " ".join(describe(route[name]) for name in names)
    return json.dumps(route)


class RemoteError(Exception):
    def __init__(self, error):
        super().__init__(error.get("message", "error"))
        self.error = error


class Connection:
    """Length-prefixed JSON-RPC over the scene socket, read from the GLib main loop: a
    request this side sends has a callback for its answer; whatever the coordinator sends
    goes to `on_message`, and a closed connection to `on_closed`."""

    def __init__(self, path, on_message, on_closed):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 1
        self.waiting = {}
        self.on_message = on_message
        self.on_closed = on_closed
        self.open = True
        channel = GLib.IOChannel.unix_new(self.sock.fileno())
        condition = GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR
        self.watch = GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT, condition, self.readable)

    def send(self, message):
        if not self.open:
            return
        payload = json.dumps(message, separators=(",", ":")).encode("utf-8")
        try:
            self.sock.sendall(struct.pack(">I", len(payload)) + payload)
        except OSError:
            self.close()

    def request(self, method, params, on_result=None, on_error=None):
        number = self.next_id
        self.next_id += 1
        self.waiting[number] = (on_result, on_error)
        self.send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})

    def answer(self, number, result=None, error=None):
        message = {"jsonrpc": "2.0", "id": number}
        if error is not None:
            message["error"] = error
        else:
            message["result"] = result
        self.send(message)

    def readable(self, _channel, condition):
        try:
            chunk = self.sock.recv(65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.close()
            return False
        self.buffer += chunk
        while len(self.buffer) >= 4:
            (length,) = struct.unpack(">I", self.buffer[:4])
            if length < 1 or length > MAX_FRAME:
                self.close()
                return False
            if len(self.buffer) < 4 + length:
                break
            frame, self.buffer = self.buffer[4 : 4 + length], self.buffer[4 + length :]
            self.deliver(json.loads(frame.decode("utf-8")))
            if not self.open:
                return False
        return True

    def deliver(self, message):
        if "method" in message:
            self.on_message(message)
            return
        callbacks = self.waiting.pop(message.get("id"), None)
        if callbacks is None:
            return  # an answer to nothing this side waits for
        on_result, on_error = callbacks
        if "error" in message:
            if on_error:
                on_error(message["error"])
        elif on_result:
            on_result(message.get("result"))

    def close(self):
        if not self.open:
            return
        self.open = False
        GLib.source_remove(self.watch) if self.watch else None
        self.watch = None
        self.sock.close()
        self.on_closed()


class SceneWindow:
    """One instance's window: its pages, its modal, its entry, and the protocol."""

    def __init__(self, title, quiet, loop):
        self.instance = os.environ.get("SCENE_INSTANCE", "scene")
        self.scene_title = title
        self.quiet = quiet
        self.loop = loop
        self.path = []
        self.saved_text = ""
        self.closing = False
        self.modal = None  # (step, window)
        self.alert = None
        self.pages = []
        self.phase = "active"

        self.window = Gtk.Window()
        self.window.set_default_size(520, 340)
        self.window.connect("close-request", self.close_requested)
        self.window.connect("notify::is-active", self.focus_changed)
        header = Gtk.HeaderBar()
        self.back = Gtk.Button(label="Back")
        self.back.connect("clicked", lambda _button: self.send_intent({"type": "pop"}))
        header.pack_start(self.back)
        self.window.set_titlebar(header)
        keys = Gtk.EventControllerKey()
        keys.connect("key-pressed", self.key_pressed)
        self.window.add_controller(keys)

        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
        for side in ("top", "bottom", "start", "end"):
            getattr(box, f"set_margin_{side}")(12)
        self.stack = Gtk.Stack()
        self.stack.set_transition_type(Gtk.StackTransitionType.SLIDE_LEFT_RIGHT)
        self.stack.set_vexpand(True)
        self.root_page = self.page(title, f"instance {self.instance}")
        self.stack.add_named(self.root_page, "root")
        box.append(self.stack)
        self.entry = Gtk.Entry()
        self.entry.set_placeholder_text("Notes (unsaved text keeps the window open)")
        box.append(self.entry)
        self.window.set_child(box)

        self.connection = Connection(os.environ["SCENE_SOCKET"], self.received, self.closed)

    def log(self, line):
        if not self.quiet:
            print(f"[{self.instance}] {line}", file=sys.stderr, flush=True)

    @staticmethod
    def page(heading, caption):
        page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        page.set_valign(Gtk.Align.START)
        page.set_margin_top(24)
        label = Gtk.Label()
        label.set_markup(f"<span size='xx-large' weight='bold'>{GLib.markup_escape_text(heading)}</span>")
        page.append(label)
        page.append(Gtk.Label(label=caption))
        return page

    # The handshake.

    def start(self):
        params = {"protocol": [1], "role": "scene", "client": "gtk-scene", "token": os.environ.get("SCENE_TOKEN", "")}
        self.connection.request("hello", params, self.said_hello, self.refused)

    def said_hello(self, result):
        instance = result.get("instance") or {}
        self.instance = instance.get("id", self.instance)
        self.phase = instance.get("phase", "active")
        self.log(f"hello: {self.phase}")
        # Focus given to this instance presents its window.
        self.connection.request("subscribe", {"topics": ["scene"], "instances": [self.instance]}, None, self.ignored)
        self.show(instance.get("path", []))
        if self.phase != "background":
            self.window.present()

    def refused(self, error):
        print(f"gtk-scene: refused: {json.dumps(error)}", file=sys.stderr, flush=True)
        self.loop.quit()

    def ignored(self, error):
        self.log(f"refused: {json.dumps(error)}")

    def closed(self):
        self.log("connection closed; exiting")
        self.closing = True
        self.window.destroy()
        self.loop.quit()

    # What the window shows: the path.

    def show(self, path):
        self.path = path
        pushes = [step for step in path if step.get("type") == "push"]
        modal = path[-1] if path and path[-1].get("type") in ("sheet", "cover") else None
        # Pages above what is still shown go; the rest are kept, so a pop slides back.
        keep = 0
        while keep < min(len(self.pages), len(pushes)) and self.pages[keep][0] == pushes[keep]:
            keep += 1
        for _, widget in self.pages[keep:]:
            self.stack.remove(widget)
        self.pages = self.pages[:keep]
        for index, step in enumerate(pushes[keep:], start=keep):
            widget = self.page(describe(step.get("route")), f"page {index + 1} of {len(pushes)}")
            self.stack.add_named(widget, f"page-{index}")
            self.pages.append((step, widget))
        self.stack.set_visible_child(self.pages[-1][1] if self.pages else self.root_page)
        self.back.set_sensitive(bool(pushes) and modal is None)
        self.update_title()
        self.show_modal(modal)

    def update_title(self):
        parts = [self.scene_title, self.instance]
        if self.pages:
            parts.insert(0, describe(self.pages[-1][0].get("route")))
        self.window.set_title(" — ".join(parts))

    def show_modal(self, step):
        if self.modal is not None and self.modal[0] == step:
            return
        if self.modal is not None:
            _, old = self.modal
            self.modal = None
            old.destroy()
        if step is None:
            return
        kind, name = step.get("type"), describe(step.get("route"))
        window = Gtk.Window(transient_for=self.window, modal=True)
        window.set_titlebar(Gtk.HeaderBar())
        window.set_title(f"{kind}: {name} — {self.instance}")
        window.set_default_size(360, 200 if kind == "sheet" else 260)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
        for side in ("top", "bottom", "start", "end"):
            getattr(box, f"set_margin_{side}")(12)
        box.append(self.page(name, f"a {kind} over {self.instance}: Escape closes it"))
        done = Gtk.Button(label="Done")
        done.connect("clicked", lambda _button: self.send_intent({"type": "dismiss"}))
        box.append(done)
        window.set_child(box)
        keys = Gtk.EventControllerKey()
        keys.connect("key-pressed", self.modal_key_pressed)
        window.add_controller(keys)
        window.connect("close-request", self.modal_close_requested)
        self.modal = (step, window)
        window.present()

    # What the person does.

    def send_intent(self, intent):
        self.connection.request("flow.send", {"intent": intent}, lambda result: self.show(result["path"]), self.ignored)

    def reconcile(self, observed):
        """The toolkit changed what it shows by itself: the coordinator adopts it."""
        self.log(f"reconcile: {len(observed)} steps")
        self.connection.request(
            "flow.reconcile",
            {"observed": observed, "policy": "adopt"},
            lambda result: self.show(result["path"]),
            lambda error: (self.ignored(error), self.show(self.path)))

    def key_pressed(self, _controller, keyval, _keycode, state):
        back = keyval == Gdk.KEY_Left and state & Gdk.ModifierType.ALT_MASK
        if not back or self.modal is not None or not self.pages:
            return False
        # The toolkit goes back a page itself, then says so.
        observed = [step for step, _ in self.pages[:-1]]
        self.show(observed)
        self.reconcile(observed)
        return True

    def modal_key_pressed(self, _controller, keyval, _keycode, _state):
        if keyval != Gdk.KEY_Escape:
            return False
        self.modal_closed_by_toolkit()
        return True

    def modal_close_requested(self, _window):
        if self.modal is not None:
            self.modal_closed_by_toolkit()
        return False

    def modal_closed_by_toolkit(self):
        if self.modal is None:
            return
        _, window = self.modal
        self.modal = None
        window.destroy()
        observed = [step for step in self.path if step.get("type") == "push"]
        self.reconcile(observed)

    @property
    def unsaved(self):
        return self.entry.get_text() != self.saved_text

    def close_requested(self, _window):
        if self.closing:
            return False
        if self.unsaved:
            self.log("close refused: unsaved text")
            self.show_alert()
            return True
        # Asks the coordinator: it closes this window (scene.close) once it is dismissed.
        self.connection.request("scene.dismiss", {}, None, self.ignored)
        return True

    def show_alert(self):
        if self.alert is not None:
            self.alert.present()
            return
        alert = Gtk.Window(transient_for=self.window, modal=True)
        alert.set_titlebar(Gtk.HeaderBar())
        alert.set_title(f"Unsaved text — {self.instance}")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
        for side in ("top", "bottom", "start", "end"):
            getattr(box, f"set_margin_{side}")(12)
        box.append(Gtk.Label(label="This window has text that is not saved.\nSave it, or clear it, to close the window."))
        keep = Gtk.Button(label="Keep editing")
        keep.connect("clicked", lambda _button: alert.close())
        box.append(keep)
        alert.set_child(box)
        alert.connect("close-request", self.alert_closed)
        self.alert = alert
        alert.present()

    def alert_closed(self, _window):
        self.alert = None
        return False

    def focus_changed(self, window, _param):
        if self.closing or not window.get_visible() or self.phase == "background":
            return
        phase = "active" if window.is_active() else "inactive"
        if phase != self.phase:
            self.phase = phase
            self.connection.request("scene.phase", {"phase": phase}, None, self.ignored)

    # What the coordinator sends.

    def received(self, message):
        method, params, number = message["method"], message.get("params") or {}, message.get("id")
        try:
            result = self.handle(method, params, number)
        except RemoteError as error:
            if number is not None:
                self.connection.answer(number, error=error.error)
            return
        if number is not None and result is not Deferred:
            self.connection.answer(number, result)

    def handle(self, method, params, number):
        if method == "scene.ping":
            return {}
        if method == "scene.close":
            if self.unsaved and not params.get("force", False):
                self.log("close refused: unsaved text")
                self.show_alert()
                return {"accepted": False}
            self.closing = True
            self.window.set_visible(False)
            return {"accepted": True}
        if method == "flow.changed":
            self.show(params.get("path", []))
            return None
        if method == "scene.phase_changed":
            self.phase = params.get("phase", self.phase)
            # A window pushed over is hidden until it comes back, as visionOS does.
            if self.phase == "background":
                self.window.set_visible(False)
            elif not self.closing:
                self.window.set_visible(True)
            return None
        if method == "event":
            if params.get("type") == "scene.focused" and params.get("instance") == self.instance and not self.closing:
                self.window.present()
            return None
        if method in ("title", "title()"):
            return {"title": self.scene_title} if method == "title" else self.scene_title
        if method == "text":
            return {"text": self.entry.get_text(), "unsaved": self.unsaved}
        if method == "edit":
            text = params.get("text")
            if not isinstance(text, str):
                raise RemoteError({"code": -32602, "message": "Invalid params", "data": {"detail": "text: string"}})
            self.entry.set_text(text)
            return {"unsaved": self.unsaved}
        if method == "save":
            self.saved_text = self.entry.get_text()
            return {"unsaved": False}
        if method == "save(draft:count:)":
            draft, count = params.get("draft"), params.get("count")
            if not isinstance(draft, str) or not isinstance(count, int):
                raise RemoteError({"code": -32602, "message": "Invalid params", "data": {"detail": "draft: string, count: integer"}})
            return len(draft) * count
        if method == "path":
            return {"path": self.path}
        if method == "echo":
            return params
        if method == "relay":
            call = {"to": params.get("to"), "method": params.get("method")}
            if "params" in params:
                call["params"] = params["params"]
            if number is None:
                return None
            self.connection.request(
                "scene.call", call,
                lambda result: self.connection.answer(number, result),
                lambda error: self.connection.answer(number, error=error))
            return Deferred
        raise RemoteError({"code": -32601, "message": "Method not found", "data": {"method": method}})


Deferred = object()  # an answer sent later


def main(arguments):
    title, quiet = None, False
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--title" and index + 1 < len(arguments):
            title = arguments[index + 1]
            index += 1
        elif argument == "--quiet":
            quiet = True
        else:
            print(f"gtk-scene: unknown argument {argument}", file=sys.stderr)
            return 2
        index += 1
    if "SCENE_SOCKET" not in os.environ or "SCENE_TOKEN" not in os.environ:
        print("gtk-scene: SCENE_SOCKET and SCENE_TOKEN are not set: a coordinator starts scene processes", file=sys.stderr)
        return 3
    if not Gtk.init_check():
        print("gtk-scene: cannot open a display (DISPLAY or WAYLAND_DISPLAY)", file=sys.stderr)
        return 4
    loop = GLib.MainLoop()
    scene = SceneWindow(title or os.environ.get("SCENE_INSTANCE", "scene"), quiet, loop)
    scene.start()
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
