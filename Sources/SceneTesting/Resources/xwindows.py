#!/usr/bin/env python3
"""What the X server itself says about its windows, with nothing but libX11 (ctypes).

    xwindows.py list              the top-level windows, as a JSON array: id, name
                                  (_NET_WM_NAME, else WM_NAME), mapped, transientFor (a
                                  window id or null), pid (_NET_WM_PID or null), x, y,
                                  width, height
    xwindows.py close ID          asks window ID to close, as a window manager's close
                                  button does (WM_PROTOCOLS / WM_DELETE_WINDOW)
    xwindows.py focus ID          gives window ID the keyboard focus (XSetInputFocus)
    xwindows.py key ID KEY [MOD…] gives window ID the keyboard focus and presses KEY (a
                                  keysym name: Escape, Left, …) while holding each MOD
                                  (Alt_L, Control_L, …), through the XTEST extension
    xwindows.py arrange           tiles the mapped windows that are not transient, and
                                  puts each transient one over the lower part of its
                                  parent (there is no window manager to place them)
    xwindows.py screenshot FILE   writes the screen as a PNG: the part the mapped windows
                                  cover, with a margin (all of it when none is mapped)
    xwindows.py watch             one JSON line per top-level window mapped or unmapped,
                                  as the server reports it: {"event": "map"|"unmap", "id",
                                  "name"} (the title when it was mapped), flushed at once,
                                  after {"event": "ready"}; runs until it is killed

The display is $DISPLAY. Exit status 1 with a message when it cannot be opened.
"""
import ctypes
import ctypes.util
import json
import os
import select
import struct
import sys
import time
import zlib

Window = ctypes.c_ulong
Atom = ctypes.c_ulong


class XWindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
        ("border_width", ctypes.c_int), ("depth", ctypes.c_int), ("visual", ctypes.c_void_p), ("root", Window),
        ("c_class", ctypes.c_int), ("bit_gravity", ctypes.c_int), ("win_gravity", ctypes.c_int),
        ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong), ("backing_pixel", ctypes.c_ulong),
        ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
        ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long), ("your_event_mask", ctypes.c_long),
        ("do_not_propagate_mask", ctypes.c_long), ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p),
    ]


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
        ("window", Window), ("message_type", Atom), ("format", ctypes.c_int), ("data", ctypes.c_long * 5),
    ]


class XMapEvent(ctypes.Structure):
    # XMapEvent and XUnmapEvent share this layout up to `window`.
    _fields_ = [
        ("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
        ("event", Window), ("window", Window),
    ]


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("xclient", XClientMessageEvent), ("xmap", XMapEvent), ("pad", ctypes.c_long * 24)]


class XImage(ctypes.Structure):
    _fields_ = [
        ("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_ubyte)), ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
        ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int),
    ]


MAP_NOTIFY, UNMAP_NOTIFY, CLIENT_MESSAGE = 19, 18, 33
IS_VIEWABLE = 2
SUBSTRUCTURE_NOTIFY_MASK = 1 << 19
NO_EVENT_MASK = 0
Z_PIXMAP = 2
ALL_PLANES = ctypes.c_ulong(-1).value


def load():
    x = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = Window
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XInternAtom.restype = Atom
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XQueryTree.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(Window), ctypes.POINTER(Window),
                             ctypes.POINTER(ctypes.POINTER(Window)), ctypes.POINTER(ctypes.c_uint)]
    x.XGetWindowAttributes.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(XWindowAttributes)]
    x.XGetWindowProperty.argtypes = [
        ctypes.c_void_p, Window, Atom, ctypes.c_long, ctypes.c_long, ctypes.c_int, Atom, ctypes.POINTER(Atom),
        ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong),
        ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte))]
    x.XFree.argtypes = [ctypes.c_void_p]
    x.XSendEvent.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
    x.XMoveWindow.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_int]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XSelectInput.argtypes = [ctypes.c_void_p, Window, ctypes.c_long]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(XEvent)]
    x.XPending.argtypes = [ctypes.c_void_p]
    x.XConnectionNumber.argtypes = [ctypes.c_void_p]
    x.XGetImage.restype = ctypes.POINTER(XImage)
    x.XGetImage.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                            ctypes.c_ulong, ctypes.c_int]
    x.XDestroyImage.argtypes = [ctypes.POINTER(XImage)]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    # The server's errors (a window gone between two requests) are not this tool's: ignore them.
    handler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda _display, _error: 0)
    x.XSetErrorHandler.argtypes = [ctypes.c_void_p]
    x.XSetErrorHandler(handler)
    return x, handler


class Server:
    def __init__(self):
        self.x, self._handler = load()
        self.display = self.x.XOpenDisplay(None)
        if not self.display:
            raise SystemExit(f"xwindows: cannot open display {os.environ.get('DISPLAY', '(DISPLAY is not set)')}")
        self.root = self.x.XDefaultRootWindow(self.display)

    def atom(self, name):
        return self.x.XInternAtom(self.display, name.encode(), 0)

    def children(self, window):
        root, parent, children, count = Window(), Window(), ctypes.POINTER(Window)(), ctypes.c_uint()
        if not self.x.XQueryTree(self.display, window, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(children),
                                 ctypes.byref(count)):
            return []
        found = [children[index] for index in range(count.value)]
        if children:
            self.x.XFree(children)
        return found

    def property(self, window, name, kind):
        actual, form, items, after = Atom(), ctypes.c_int(), ctypes.c_ulong(), ctypes.c_ulong()
        data = ctypes.POINTER(ctypes.c_ubyte)()
        status = self.x.XGetWindowProperty(self.display, window, self.atom(name), 0, 1 << 16, 0, kind, ctypes.byref(actual),
                                           ctypes.byref(form), ctypes.byref(items), ctypes.byref(after), ctypes.byref(data))
        if status != 0 or not data or actual.value == 0:
            return None
        try:
            if form.value == 8:
                return bytes(data[index] for index in range(items.value))
            if form.value == 32:
                longs = ctypes.cast(data, ctypes.POINTER(ctypes.c_ulong))
                return [longs[index] for index in range(items.value)]
            return None
        finally:
            self.x.XFree(data)

    def name(self, window):
        text = self.property(window, "_NET_WM_NAME", self.atom("UTF8_STRING"))
        if text is None:
            text = self.property(window, "WM_NAME", 0)  # AnyPropertyType
        return text.decode("utf-8", "replace") if isinstance(text, bytes) else None

    def describe(self, window):
        attributes = XWindowAttributes()
        if not self.x.XGetWindowAttributes(self.display, window, ctypes.byref(attributes)):
            return None
        transient = self.property(window, "WM_TRANSIENT_FOR", 33)  # XA_WINDOW
        pid = self.property(window, "_NET_WM_PID", 6)  # XA_CARDINAL
        return {
            "id": window, "name": self.name(window), "mapped": attributes.map_state == IS_VIEWABLE,
            "transientFor": transient[0] if transient else None, "pid": pid[0] if pid else None,
            "x": attributes.x, "y": attributes.y, "width": attributes.width, "height": attributes.height,
        }

    def windows(self):
        """The root's children, and below a child that has no name (a window manager's
        frame) the named windows inside it."""
        found = []
        for window in self.children(self.root):
            described = self.describe(window)
            if described is None:
                continue
            if described["name"] is None:
                inner = [self.describe(child) for child in self.children(window)]
                named = [child for child in inner if child and child["name"] is not None]
                if named:
                    found.extend(named)
                    continue
            found.append(described)
        return found

    def close(self, window):
        event = XEvent()
        event.xclient.type = CLIENT_MESSAGE
        event.xclient.window = window
        event.xclient.message_type = self.atom("WM_PROTOCOLS")
        event.xclient.format = 32
        event.xclient.data[0] = self.atom("WM_DELETE_WINDOW")
        event.xclient.data[1] = 0  # CurrentTime
        self.x.XSendEvent(self.display, window, 0, NO_EVENT_MASK, ctypes.byref(event))
        self.x.XSync(self.display, 0)

    def focus(self, window):
        self.x.XSetInputFocus.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_ulong]
        self.x.XSetInputFocus(self.display, window, 2, 0)  # RevertToParent, CurrentTime
        self.x.XSync(self.display, 0)

    def key(self, window, name, modifiers):
        xtest = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        xtest.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.x.XStringToKeysym.restype = ctypes.c_ulong
        self.x.XStringToKeysym.argtypes = [ctypes.c_char_p]
        self.x.XKeysymToKeycode.restype = ctypes.c_ubyte
        self.x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.x.XSetInputFocus.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_ulong]
        codes = []
        for key in modifiers + [name]:
            code = self.x.XKeysymToKeycode(self.display, self.x.XStringToKeysym(key.encode()))
            if code == 0:
                raise SystemExit(f"xwindows: no key {key} on this keyboard")
            codes.append(code)
        self.x.XSetInputFocus(self.display, window, 2, 0)  # RevertToParent, CurrentTime
        for code in codes:
            xtest.XTestFakeKeyEvent(self.display, code, 1, 0)
        for code in reversed(codes):
            xtest.XTestFakeKeyEvent(self.display, code, 0, 0)
        self.x.XSync(self.display, 0)

    def arrange(self):
        shown = [window for window in self.windows() if window["mapped"] and window["name"]]
        placed, column, top, row_height = {}, 16, 16, 0
        for window in sorted((w for w in shown if w["transientFor"] is None), key=lambda w: w["name"]):
            if column + window["width"] > 1280 and column > 16:
                column, top, row_height = 16, top + row_height + 16, 0
            placed[window["id"]] = (column, top, window["width"], window["height"])
            self.x.XMoveWindow(self.display, window["id"], column, top)
            column += window["width"] + 16
            row_height = max(row_height, window["height"])
        for window in (w for w in shown if w["transientFor"] is not None):
            parent = placed.get(window["transientFor"])
            if parent:
                # Centred across, in the lower part: the parent's heading stays in sight.
                x = parent[0] + max(0, (parent[2] - window["width"]) // 2)
                y = parent[1] + max(0, parent[3] - window["height"] - 24)
                self.x.XMoveWindow(self.display, window["id"], x, y)
        self.x.XSync(self.display, 0)

    def screenshot(self, path):
        """The screen once it is still: windows just moved or mapped are repainted by their
        own processes, so the image is taken every 100 ms until two in a row are the same
        (at most 5 s)."""
        attributes = XWindowAttributes()
        self.x.XGetWindowAttributes(self.display, self.root, ctypes.byref(attributes))
        width, height = attributes.width, attributes.height
        previous, deadline = None, time.monotonic() + 5
        while True:
            self.x.XSync(self.display, 0)
            pointer = self.x.XGetImage(self.display, self.root, 0, 0, width, height, ALL_PLANES, Z_PIXMAP)
            if not pointer:
                raise SystemExit("xwindows: the server gave no image of the screen")
            image = pointer.contents
            bits, stride = image.bits_per_pixel, image.bytes_per_line
            raw = ctypes.string_at(image.data, stride * height)
            self.x.XDestroyImage(pointer)
            if bits != 32:
                raise SystemExit(f"xwindows: a {bits}-bit screen is not supported (24-bit colour is)")
            if raw == previous or time.monotonic() > deadline:
                break
            previous = raw
            time.sleep(0.1)
        shown = [w for w in self.windows() if w["mapped"] and w["name"]]
        left, top, right, bottom = 0, 0, width, height
        if shown:
            left = max(0, min(w["x"] for w in shown) - 16)
            top = max(0, min(w["y"] for w in shown) - 16)
            right = min(width, max(w["x"] + w["width"] for w in shown) + 16)
            bottom = min(height, max(w["y"] + w["height"] for w in shown) + 16)
        stride = image.bytes_per_line
        rows = bytearray()
        for y in range(top, bottom):
            line = raw[y * stride + left * 4 : y * stride + right * 4]
            rgb = bytearray((right - left) * 3)
            # Little-endian 32-bit pixels: blue, green, red, unused.
            rgb[0::3], rgb[1::3], rgb[2::3] = line[2::4], line[1::4], line[0::4]
            rows += b"\x00" + rgb
        write_png(path, right - left, bottom - top, bytes(rows))

    def watch(self):
        self.x.XSelectInput(self.display, self.root, SUBSTRUCTURE_NOTIFY_MASK)
        self.x.XSync(self.display, 0)
        print(json.dumps({"event": "ready"}), flush=True)
        connection = self.x.XConnectionNumber(self.display)
        event = XEvent()
        # A window's title when it was mapped: an unmap reports that one (by then the
        # window may have another, or be gone).
        names = {}
        while True:
            while self.x.XPending(self.display):
                self.x.XNextEvent(self.display, ctypes.byref(event))
                if event.type == MAP_NOTIFY:
                    window = event.xmap.window
                    names[window] = self.name(window)
                    print(json.dumps({"event": "map", "id": window, "name": names[window]}), flush=True)
                elif event.type == UNMAP_NOTIFY:
                    window = event.xmap.window
                    print(json.dumps({"event": "unmap", "id": window, "name": names.pop(window, None)}), flush=True)
            select.select([connection], [], [])


def write_png(path, width, height, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    with open(path + ".partial", "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    os.replace(path + ".partial", path)


def main(arguments):
    if not arguments or arguments[0] not in ("list", "close", "focus", "key", "arrange", "screenshot", "watch"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    server = Server()
    command = arguments[0]
    if command == "list":
        print(json.dumps(server.windows()))
    elif command == "close" and len(arguments) == 2:
        server.close(int(arguments[1], 0))
    elif command == "focus" and len(arguments) == 2:
        server.focus(int(arguments[1], 0))
    elif command == "key" and len(arguments) >= 3:
        server.key(int(arguments[1], 0), arguments[2], arguments[3:])
    elif command == "arrange":
        server.arrange()
    elif command == "screenshot" and len(arguments) == 2:
        server.screenshot(arguments[1])
    elif command == "watch":
        server.watch()
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    server.x.XCloseDisplay(server.display)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
