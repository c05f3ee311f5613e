#!/usr/bin/env python3
"""A scene process in Python, standard library only: the proof that any language can be
a scene of a SceneCoordinator app.

A coordinator starts it (a manifest scene's "launch": {"command": ["python3", ".../scene.py"]})
with SCENE_SOCKET, SCENE_INSTANCE and SCENE_TOKEN in its environment. It says hello with
its token, logs its path changes, answers `title`, `echo`, `edit`, `save` (announced to
subscribers as the signal `saved`), `path` and `relay` (a scene.call of its own), and the
typed calls of the Swift `NotebookService` protocol (`title()`, `save(draft:count:)`),
honours close requests, vetoes an interactive close
while it has unsaved edits, and exits when its connection closes (the coordinator
restarts it).

A process started some other way attaches with an attach token in SCENE_TOKEN (no
SCENE_INSTANCE: the hello answer names its instance). When its connection drops, it
connects again with the re-attach token that answer gave, for up to --reattach SECONDS
(default 30), and takes its instance back with its path; 0 exits instead.

Options: --title TEXT, --unsaved (start with unsaved edits), --quiet, --reattach SECONDS.
"""
import json
import os
import socket
import struct
import sys
import time

MAX_FRAME = 64 << 20


class Closed(Exception):
    """The coordinator closed the connection."""


class Scene:
    def __init__(self, title, unsaved, quiet, reattach_seconds):
        self.instance = os.environ.get("SCENE_INSTANCE", "scene")
        self.title = title or self.instance
        self.unsaved = unsaved
        self.quiet = quiet
        self.reattach_seconds = reattach_seconds
        self.path = []
        self.next_id = 1
        self.connect()

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(os.environ["SCENE_SOCKET"])
        self.buffer = b""

    def log(self, line):
        if not self.quiet:
            print(f"[{self.instance}] {line}", file=sys.stderr, flush=True)

    # Framing: a 4-byte big-endian length, then that many bytes of JSON.

    def send(self, message):
        payload = json.dumps(message, separators=(",", ":")).encode("utf-8")
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)

    def read_exactly(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Closed()
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        (length,) = struct.unpack(">I", self.read_exactly(4))
        if length < 1 or length > MAX_FRAME:
            raise Closed()
        return json.loads(self.read_exactly(length).decode("utf-8"))

    # Requests this side sends; other messages that arrive meanwhile are handled.

    def call(self, method, params):
        number = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        while True:
            message = self.receive()
            if "method" not in message and message.get("id") == number:
                if "error" in message:
                    raise RemoteError(message["error"])
                return message.get("result")
            self.dispatch(message)

    # What the coordinator sends.

    def dispatch(self, message):
        method = message.get("method")
        if method is None:
            return  # an answer to nothing this side waits for
        params = message.get("params") or {}
        try:
            result = self.handle(method, params)
            answer = {"result": result}
        except RemoteError as error:
            answer = {"error": error.error}
        if "id" in message:
            self.send(dict({"jsonrpc": "2.0", "id": message["id"]}, **answer))

    def handle(self, method, params):
        if method == "scene.ping":
            return {}
        if method == "scene.close":
            if self.unsaved and not params.get("force", False):
                self.log("close refused: unsaved edits")
                return {"accepted": False}
            self.log("closing (forced)" if params.get("force") else "closing")
            return {"accepted": True}
        if method == "flow.changed":
            self.path = params.get("path", [])
            self.log(f"path: {describe(self.path)}")
            return None
        if method == "scene.phase_changed":
            self.log(f"phase: {params.get('phase')}")
            return None
        if method == "title":
            return {"title": self.title}
        if method == "echo":
            return params
        if method == "edit":
            self.unsaved = True
            return {"unsaved": True}
        if method == "save":
            self.unsaved = False
            # Whoever subscribed to topic `signal` hears that this document was saved.
            self.call("scene.emit", {"signal": "saved", "payload": {"title": self.title}})
            return {"unsaved": False}
        if method == "path":
            return {"path": self.path}
        # A Swift caller's typed calls (NotebookService): the function's name with its
        # argument labels, and its arguments as members of those names.
        if method == "title()":
            return self.title
        if method == "save(draft:count:)":
            draft, count = params.get("draft"), params.get("count")
            if not isinstance(draft, str) or not isinstance(count, int):
                raise RemoteError({"code": -32602, "message": "Invalid params", "data": {"detail": "draft: string, count: integer"}})
            return len(draft) * count
        if method == "relay":
            call = {"to": params.get("to"), "method": params.get("method")}
            if "params" in params:
                call["params"] = params["params"]
            self.log(f"relay → {json.dumps(call['to'])}: {call['method']}")
            answer = self.call("scene.call", call)
            self.log(f"relay ← {json.dumps(call['to'])}: {json.dumps(answer)}")
            return answer
        raise RemoteError({"code": -32601, "message": "Method not found", "data": {"method": method}})

    def hello(self, token):
        hello = self.call("hello", {"protocol": [1], "role": "scene", "client": "python-scene", "token": token})
        instance = hello.get("instance") or {}
        self.instance = instance.get("id", self.instance)
        self.path = instance.get("path", [])
        self.log(f"hello: {instance.get('phase')}, path {describe(self.path)}")
        return hello.get("reattach")

    def reconnect(self, token):
        """Connects again until the socket answers (a forward may take a while to come
        back), for up to --reattach seconds, and says hello with the re-attach token. A
        hello that gets no answer within 2 s (a forward that accepted but reaches nothing
        yet) is dropped and tried again."""
        deadline = time.monotonic() + self.reattach_seconds
        while True:
            try:
                self.connect()
                self.log("connected again; re-attaching")
                self.sock.settimeout(2)
                reattach = self.hello(token)
                self.sock.settimeout(None)
                return reattach
            except (OSError, Closed):
                self.sock.close()
                if time.monotonic() >= deadline:
                    raise Closed()
                time.sleep(0.1)

    def run(self):
        reattach = self.hello(os.environ.get("SCENE_TOKEN", ""))
        while True:
            try:
                while True:
                    self.dispatch(self.receive())
            except (Closed, ConnectionError):
                self.sock.close()
                # A spawned process exits (the coordinator restarts it); an attached one
                # comes back with its re-attach token, if it may.
                if not reattach or self.reattach_seconds <= 0:
                    self.log("connection closed; exiting")
                    return
                self.log("connection lost")
                reattach = self.reconnect(reattach)


class RemoteError(Exception):
    def __init__(self, error):
        super().__init__(error.get("message", "error"))
        self.error = error


def describe(path):
    if not path:
        return "(root)"
    return " > ".join(f"{step.get('type')} {json.dumps(step.get('route'))}" for step in path)


def main(arguments):
    title, unsaved, quiet, reattach_seconds = None, False, False, 30.0
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--title" and index + 1 < len(arguments):
            title = arguments[index + 1]
            index += 1
        elif argument == "--unsaved":
            unsaved = True
        elif argument == "--quiet":
            quiet = True
        elif argument == "--reattach" and index + 1 < len(arguments):
            reattach_seconds = float(arguments[index + 1])
            index += 1
        else:
            print(f"scene.py: unknown argument {argument}", file=sys.stderr)
            return 2
        index += 1
    if "SCENE_SOCKET" not in os.environ or "SCENE_TOKEN" not in os.environ:
        print("scene.py: SCENE_SOCKET and SCENE_TOKEN are not set: a coordinator starts scene processes", file=sys.stderr)
        return 3
    try:
        Scene(title, unsaved, quiet, reattach_seconds).run()
    except (Closed, ConnectionError):
        pass
    except RemoteError as error:
        print(f"scene.py: refused: {error.error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
