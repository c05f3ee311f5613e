#!/usr/bin/env python3
"""Writes the seed corpus of a fuzz target into a folder, from the protocol's own test
vectors (Protocols/vectors/frames.json) and examples, and from the seeds kept in
Fuzz/corpus/TARGET (files a real coordinator wrote, hand-written documents), so the
fuzzers start from inputs the spec documents. Usage: seeds.py TARGET FOLDER"""
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def vectors():
    with open(os.path.join(ROOT, "Protocols/vectors/frames.json")) as file:
        return json.load(file)["vectors"]


def params_of(vector):
    message = vector.get("json")
    if isinstance(message, dict) and isinstance(message.get("params"), dict):
        return message["params"]
    return {}


def seeds(target):
    if target == "wire":
        # Every vector's frame, and the whole list as one stream.
        frames = [bytes.fromhex(v["hex"]) for v in vectors()]
        yield from frames
        yield b"".join(frames)
    elif target == "manifest":
        for name in sorted(os.listdir(os.path.join(ROOT, "Protocols/examples"))):
            with open(os.path.join(ROOT, "Protocols/examples", name), "rb") as file:
                yield file.read()
        with open(os.path.join(ROOT, "Examples/gtk-scene/manifest.json"), "rb") as file:
            yield file.read()
        yield from kept(target)
        yield b'{"app":"a","scenes":[{"id":"w","kind":"window","launch":{"command":["x"],"env":{"A":"b"},"timeout":2},"restart":{"policy":"permanent","maxRestarts":1,"withinSeconds":5}}]}'
        yield b'{"app":"a","links":{"origins":[{"scheme":"https","hosts":["h"]},{"scheme":"m","hostIsRoute":true}]},"scenes":[]}'
        yield b'{"app":"a","links":{"schemes":["d"],"hosts":["h"]},"scenes":[{"id":"v","kind":"volume","size":[1,2,3],"instances":{"max":2},"links":[{"pattern":"/v/:n","value":"${n:int}","plan":[{"type":"sheet","route":{"n":"${n}"}}]}]}]}'
    elif target == "links":
        for v in vectors():
            url = params_of(v).get("url")
            if isinstance(url, str):
                yield (url + "\n/viewer/:doc\n/notes/*rest\n/a/:x/c").encode()
        yield b"demo://demo.example/viewer/%2F..%2Fx?q=1&q=2\n/:a/:b\n/:c/:d"
        # Custom-scheme links whose host is the route, in their three forms.
        yield b"myapp://viewer/42\n/viewer/:doc"
        yield b"myapp:///viewer/42?x=1\n/viewer/:doc"
        yield b"myapp:viewer/42\n/viewer/:doc"
    elif target == "intents":
        for v in vectors():
            params = params_of(v)
            for key in ("intent", "intents", "plan"):
                if key in params:
                    yield json.dumps(params[key]).encode()
    elif target in ("state", "journal", "session", "schema"):
        yield from kept(target)
    elif target == "program":
        # Programs of the vectors (scene.program), and of the demo manifest's links.
        for v in vectors():
            steps = params_of(v).get("steps")
            if isinstance(steps, list):
                yield json.dumps(steps).encode()
        with open(os.path.join(ROOT, "Protocols/examples/demo.manifest.json")) as file:
            for scene in json.load(file)["scenes"]:
                for link in scene.get("links", []):
                    if "program" in link:
                        yield json.dumps(link["program"]).replace("${left}", "7").replace("${right}", "9").encode()
    else:
        raise SystemExit(f"seeds.py: no target {target}")


def kept(target):
    """The seeds kept in the repository for `target` (Fuzz/corpus/TARGET): files a real
    coordinator wrote (state files, journals, sessions), and hand-written documents."""
    folder = os.path.join(ROOT, "Fuzz/corpus", target)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name), "rb") as file:
            yield file.read()


def main():
    target, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    count = 0
    for seed in seeds(target):
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(folder, name), "wb") as file:
            file.write(seed)
        count += 1
    print(f"fuzz: {count} seeds for {target}")


if __name__ == "__main__":
    main()
