#!/usr/bin/env python3
"""Writes Protocols/vectors/frames.json: each vector's frame (4-byte big-endian length +
payload) as lowercase hex, with the payload text and its decoded JSON.

`expect` says what a coordinator serving the demo manifest, freshly started, answers when
the frame is written on a new connection — after a successful `hello` on that connection
when `after_hello` is true. Server-side messages (responses, events) are included as
vectors too: their `expect` is what the server answers if a client sent one to it.

Run: python3 Protocols/tools/make_frames.py && python3 Protocols/tools/check.py
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
vectors = []


def compact(value):
    """JSON as the coordinator writes it: compact, object keys sorted."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def frame(payload):
    return len(payload).to_bytes(4, "big") + payload


def add(name, payload, expect, after_hello=True, schema=None, is_json=True, setup=None):
    """`payload`: text or bytes. `is_json`: whether the protocol's parser accepts it.
    `setup`: requests ({method, params}) sent after hello, each answered with a result,
    before the frame."""
    raw = payload.encode("utf-8") if isinstance(payload, str) else payload
    vector = {"name": name, "hex": frame(raw).hex()}
    try:
        vector["payload"] = raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if is_json:
        vector["json"] = json.loads(raw)
    if schema:
        vector["schema"] = schema
    vector["after_hello"] = after_hello
    if setup:
        vector["setup"] = setup
    vector["expect"] = expect
    vectors.append(vector)


def framing(name, header, reason):
    vectors.append({"name": name, "hex": header.hex(), "after_hello": False, "expect": {"framing": reason}})


def request(id, method, params=None):
    text = '{"jsonrpc":"2.0","id":' + json.dumps(id) + ',"method":' + json.dumps(method)
    if params is not None:
        text += ',"params":' + json.dumps(params, separators=(",", ":"), ensure_ascii=False)
    return text + "}"


RESULT = {"result": True}
NONE = {"none": True}


def error(code, reason=None):
    body = {"code": code}
    if reason:
        body["reason"] = reason
    return {"error": body}


def ok(name, id, method, params=None, after_hello=True, setup=None):
    add(name, request(id, method, params), RESULT, after_hello, "request.json", setup=setup)


def refused(name, id, method, params, code, reason=None, valid=True, setup=None):
    """A request that is answered with an error; `valid`: it matches request.json."""
    add(name, request(id, method, params), error(code, reason), True, "request.json" if valid else None, setup=setup)


OPEN_MAIN = [{"method": "scene.open", "params": {"scene": "main"}}]


HELLO = {"protocol": [1], "role": "control", "client": "vectors"}
PARSE = error(-32700)

# ---------------------------------------------------------------- framing
framing("framing: length 0 is empty_frame", bytes(4), "empty_frame")
framing("framing: length 0x00100001 (1 MiB + 1) is frame_too_large", bytes.fromhex("00100001"), "frame_too_large")
framing("framing: length 0xffffffff is frame_too_large", bytes.fromhex("ffffffff"), "frame_too_large")

# ---------------------------------------------------------------- handshake
ok("hello: control, protocol [1]", 1, "hello", HELLO, after_hello=False)
ok("hello: protocol [1, 2] has 1 in common", 1, "hello", {"protocol": [1, 2], "role": "control", "client": "vectors"}, after_hello=False)
ok("hello: a control connection ignores a token", "h", "hello", dict(HELLO, token="t0k3n"), after_hello=False)
add("hello: protocol [2] is unsupported_protocol, then close",
    request(1, "hello", {"protocol": [2], "role": "control", "client": "vectors"}),
    error(-32000, "unsupported_protocol"), False, "request.json")
add("hello: role scene with a token nobody was given is bad_token, then close",
    request(1, "hello", {"protocol": [1], "role": "scene", "client": "vectors", "token": "t"}),
    error(-32000, "bad_token"), False, "request.json")
add("hello: role scene without a token is bad_token, then close",
    request(1, "hello", {"protocol": [1], "role": "scene", "client": "vectors"}),
    error(-32000, "bad_token"), False, "request.json")
add("hello: an unknown role is unsupported_role",
    request(1, "hello", {"protocol": [1], "role": "admin", "client": "vectors"}), error(-32000, "unsupported_role"), False)
add("hello: missing client is invalid params",
    request(1, "hello", {"protocol": [1], "role": "control"}), error(-32602), False)
add("hello: protocol as a number is invalid params",
    request(1, "hello", {"protocol": 1, "role": "control", "client": "vectors"}), error(-32602), False)
add("hello: without params is invalid params", request(1, "hello"), error(-32602), False)
add("hello: a second hello is already_initialized", request(2, "hello", HELLO),
    error(-32600, "already_initialized"), True, "request.json")
add("before hello: ping is not initialized", request(1, "ping", {}), error(-32002), False, "request.json")
add("before hello: state is not initialized", request(1, "state"), error(-32002), False, "request.json")
add("before hello: an unknown method is not initialized (not -32601)", request(1, "scene.teleport", {}), error(-32002), False)
add("before hello: a notification gets no answer", '{"jsonrpc":"2.0","method":"ping"}', NONE, False)

# ---------------------------------------------------------------- envelope
add("envelope: garbage is a parse error", "not json", PARSE, is_json=False)
add("envelope: whitespace only is a parse error", " \n", PARSE, is_json=False)
add("envelope: data after the JSON value is a parse error", '{"jsonrpc":"2.0","id":1,"method":"ping"} x', PARSE, is_json=False)
add("envelope: two objects in one frame is a parse error",
    '{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}', PARSE, is_json=False)
add("envelope: a truncated object is a parse error", '{"jsonrpc":"2.0","id":1,"method":"pi', PARSE, is_json=False)
add("envelope: a trailing comma is a parse error", '{"jsonrpc":"2.0","id":1,"method":"ping",}', PARSE, is_json=False)
add("envelope: a leading zero is a parse error", '{"jsonrpc":"2.0","id":01,"method":"ping"}', PARSE, is_json=False)
add("envelope: a raw control character in a string is a parse error",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\u0001b"}}', PARSE, is_json=False)
add("envelope: a number out of range (1e999) is a parse error",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e999}}', PARSE, is_json=False)
add("envelope: invalid UTF-8 (0xff) in a string is a parse error",
    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff"}}', PARSE, is_json=False)
add("envelope: overlong UTF-8 (0xc0 0xaf) is a parse error",
    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xc0\xaf"}}', PARSE, is_json=False)
add("envelope: a UTF-8-encoded surrogate (0xed 0xa0 0x80) is a parse error",
    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xed\xa0\x80"}}', PARSE, is_json=False)
add("envelope: a lone high surrogate escape is a parse error",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\ud800"}}', PARSE, is_json=False)
add("envelope: a lone low surrogate escape is a parse error",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\udc00"}}', PARSE, is_json=False)
add("envelope: a surrogate pair escape is valid",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\ud83d\\ude00"}}', RESULT)
add("envelope: UTF-8 text in a string is valid",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"caf\u00e9 \u2603 \U0001F600"}}', RESULT)
add("envelope: 300 nested arrays is a parse error", "[" * 300 + "]" * 300, PARSE, is_json=False)
add("envelope: nesting 257 deep (envelope included) is a parse error",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + "[" * 255 + "]" * 255 + "}}", PARSE, is_json=False)
add("envelope: nesting 256 deep (envelope included) is accepted",
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + "[" * 254 + "]" * 254 + "}}", RESULT)
add("envelope: a batch is batch_not_supported", '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    error(-32600, "batch_not_supported"))
add("envelope: an empty batch is batch_not_supported", "[]", error(-32600, "batch_not_supported"))
add("envelope: a string at top level is invalid", '"ping"', error(-32600))
add("envelope: a number at top level (a 1-byte frame) is invalid", "1", error(-32600))
add("envelope: null at top level is invalid", "null", error(-32600))
add("envelope: jsonrpc 1.0 is invalid", '{"jsonrpc":"1.0","id":1,"method":"ping"}', error(-32600))
add("envelope: jsonrpc missing is invalid", '{"id":1,"method":"ping"}', error(-32600))
add("envelope: jsonrpc as the number 2.0 is invalid", '{"jsonrpc":2.0,"id":1,"method":"ping"}', error(-32600))
add("envelope: jsonrpc 1.0 without id is invalid (answered with id null)", '{"jsonrpc":"1.0","method":"ping"}', error(-32600))
add("envelope: method missing is invalid", '{"jsonrpc":"2.0","id":1}', error(-32600))
add("envelope: method missing and no id is invalid (answered with id null)", '{"jsonrpc":"2.0"}', error(-32600))
add("envelope: an empty object is invalid (answered with id null)", "{}", error(-32600))
add("envelope: method as a number is invalid", '{"jsonrpc":"2.0","id":1,"method":5}', error(-32600))
add("envelope: id as an object is invalid (answered with id null)", '{"jsonrpc":"2.0","id":{},"method":"ping"}', error(-32600))
add("envelope: id as an array is invalid (answered with id null)", '{"jsonrpc":"2.0","id":[1],"method":"ping"}', error(-32600))
add("envelope: id true is invalid (answered with id null)", '{"jsonrpc":"2.0","id":true,"method":"ping"}', error(-32600))
add("envelope: id null is invalid (answered with id null)", '{"jsonrpc":"2.0","id":null,"method":"ping"}', error(-32600))
add("envelope: params as an array is invalid params", '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}', error(-32602))
add("envelope: params null is invalid params", '{"jsonrpc":"2.0","id":1,"method":"ping","params":null}', error(-32602))
add("envelope: params as an array without id gets no answer", '{"jsonrpc":"2.0","method":"ping","params":[1]}', NONE)
add("envelope: members in any order, unknown members ignored",
    '{"params":{},"extra":true,"method":"ping","id":7,"jsonrpc":"2.0"}', RESULT)
add("envelope: whitespace around and inside the message",
    ' \t{ "jsonrpc" : "2.0" ,\n "id" : 8 , "method" : "ping" }\r\n', RESULT, schema="request.json")
add("envelope: an unknown method is method not found", request(1, "scene.teleport", {}), error(-32601))
add("envelope: a method name differing in case is method not found", request(1, "PING", {}), error(-32601))
add("envelope: a notification of an unknown method gets no answer",
    '{"jsonrpc":"2.0","method":"scene.teleport","params":{}}', NONE)
add("envelope: a notification of a known method gets no answer (and does nothing)",
    '{"jsonrpc":"2.0","method":"scene.open","params":{"scene":"main"}}', NONE)

# ---------------------------------------------------------------- methods on a fresh demo registry
ok("ping: number id", 1, "ping", {})
ok("ping: string id", "abc-1", "ping", {})
ok("ping: fractional id", 1.5, "ping", {})
ok("ping: negative id", -3, "ping")
ok("ping: without params", 2, "ping")
ok("scene.open: main (single window)", 3, "scene.open", {"scene": "main"})
ok("scene.open: main with a value (a single scene keeps its first value)", 3, "scene.open", {"scene": "main", "value": {"x": 1}})
ok("scene.open: viewer with value 42 (perValue)", 4, "scene.open", {"scene": "viewer", "value": "42"})
ok("scene.open: notes (multiple, max 3)", 5, "scene.open", {"scene": "notes"})
ok("scene.open: globe (volume)", 6, "scene.open", {"scene": "globe"})
ok("scene.open: theatre (immersive)", 7, "scene.open", {"scene": "theatre"})
refused("scene.open: viewer without a value is value_required", 8, "scene.open", {"scene": "viewer"}, -32000, "value_required")
refused("scene.open: viewer with value null is value_required", 8, "scene.open", {"scene": "viewer", "value": None}, -32000, "value_required")
refused("scene.open: an unknown scene is unknown_scene", 9, "scene.open", {"scene": "nope"}, -32000, "unknown_scene")
refused("scene.open: scene as a number is invalid params", 10, "scene.open", {"scene": 5}, -32602, valid=False)
refused("scene.open: scene missing is invalid params", 11, "scene.open", {}, -32602, valid=False)
refused("scene.push: from an instance that is not open is not_a_window", 12, "scene.push",
        {"scene": "notes", "from": "main-1"}, -32000, "not_a_window")
refused("scene.push: from that is not an instance id is invalid params", 13, "scene.push",
        {"scene": "notes", "from": "main"}, -32602, valid=False)
refused("scene.push: from missing is invalid params", 13, "scene.push", {"scene": "notes"}, -32602, valid=False)
refused("scene.dismiss: an instance that is not open is not_open", 14, "scene.dismiss", {"instance": "main-1"}, -32000, "not_open")
refused("scene.dismiss: a scene with nothing open is not_open", 15, "scene.dismiss", {"scene": "main"}, -32000, "not_open")
refused("scene.dismiss: a scene and value with nothing open is not_open", 15, "scene.dismiss",
        {"scene": "viewer", "value": "42"}, -32000, "not_open")
refused("scene.dismiss: an unknown scene is unknown_scene", 16, "scene.dismiss", {"scene": "nope"}, -32000, "unknown_scene")
refused("scene.dismiss: both instance and scene is invalid params", 17, "scene.dismiss",
        {"instance": "main-1", "scene": "main"}, -32602, valid=False)
refused("scene.dismiss: neither instance nor scene is invalid params", 18, "scene.dismiss", {}, -32602, valid=False)
refused("immersive.dismiss: none open is nothing_to_dismiss", 19, "immersive.dismiss", {}, -32000, "nothing_to_dismiss")
refused("scene.focus: main-1 not open is not_open", 20, "scene.focus", {"instance": "main-1"}, -32000, "not_open")
refused("scene.focus: an id without a number is invalid params", 21, "scene.focus", {"instance": "main"}, -32602, valid=False)
refused("scene.focus: an id with number 0 is invalid params", 21, "scene.focus", {"instance": "main-0"}, -32602, valid=False)
refused("scene.route: from an instance that is not open is not_open", 22, "scene.route",
        {"from": "main-1", "route": {"screen": "globe"}}, -32000, "not_open")
refused("scene.route: route missing is invalid params", 23, "scene.route", {"from": "main-1"}, -32602, valid=False)
ok("scene.route: from a pushed window, the origin's scope presents it (via notes-1, main-1)", 23, "scene.route",
   {"from": "notes-1", "route": {"screen": "settings"}},
   setup=OPEN_MAIN + [{"method": "scene.push", "params": {"scene": "notes", "from": "main-1"}}])
refused("scene.route: the origin's reject rule refuses a route from a window pushed from it", 23, "scene.route",
        {"from": "notes-1", "route": {"screen": "admin"}}, -32000, "route_rejected",
        setup=OPEN_MAIN + [{"method": "scene.push", "params": {"scene": "notes", "from": "main-1"}}])
refused("scene.phase: a window covered by one pushed from it stays background: covered_by_pushed_window", 23, "scene.phase",
        {"instance": "main-1", "phase": "active"}, -32000, "covered_by_pushed_window",
        setup=OPEN_MAIN + [{"method": "scene.push", "params": {"scene": "notes", "from": "main-1"}}])
refused("scene.focus: a window covered by one pushed from it is covered_by_pushed_window", 23, "scene.focus",
        {"instance": "main-1"}, -32000, "covered_by_pushed_window",
        setup=OPEN_MAIN + [{"method": "scene.push", "params": {"scene": "notes", "from": "main-1"}}])
ok("scene.program: open main, push notes from $0, push a route in $1", 23, "scene.program", {"steps": [
    {"method": "scene.open", "params": {"scene": "main"}},
    {"method": "scene.push", "params": {"scene": "notes", "from": "$0"}},
    {"method": "flow.send", "params": {"instance": "$1", "intent": {"type": "push", "route": "a"}}}]})
refused("scene.present: from an instance that is not open is not_open", 23, "scene.present",
        {"scene": "notes", "from": "main-1"}, -32000, "not_open")
refused("scene.present: from missing is invalid params", 23, "scene.present", {"scene": "notes"}, -32602, valid=False)
refused("scene.finish: an instance nobody presented is not_presented", 23, "scene.finish",
        {"instance": "main-1", "result": {"picked": 1}}, -32000, "not_presented", setup=OPEN_MAIN)
refused("scene.finish: a control connection must name the instance", 23, "scene.finish", {"result": 1}, -32602)
refused("scene.finish: result missing is invalid params", 23, "scene.finish", {"instance": "main-1"}, -32602, valid=False)
ok("scene.status: a virtual instance has no process", 23, "scene.status", {"instance": "main-1"}, setup=OPEN_MAIN)
refused("scene.status: an instance that is not open is not_open", 23, "scene.status", {"instance": "main-1"}, -32000, "not_open")
refused("scene.status: instance missing is invalid params", 23, "scene.status", {}, -32602, valid=False)
refused("scene.restart: a virtual instance has nothing to restart: not_connected", 23, "scene.restart", {"instance": "main-1"},
        -32000, "not_connected", setup=OPEN_MAIN)
refused("scene.restart: an instance that is not open is not_open", 23, "scene.restart", {"instance": "main-1"}, -32000, "not_open")
refused("scene.restart: instance missing is invalid params", 23, "scene.restart", {}, -32602, valid=False)
refused("session.save: without a state file is no_state_file", 23, "session.save", {"name": "morning"}, -32000, "no_state_file")
refused("session.list: without a state file is no_state_file", 23, "session.list", {}, -32000, "no_state_file")
refused("session.load: a name with a slash is invalid params", 23, "session.load", {"name": "../etc"}, -32602)
refused("session.delete: name missing is invalid params", 23, "session.delete", {}, -32602, valid=False)
refused("token.issue: an undeclared scene is unknown_scene", 23, "token.issue", {"scene": "nowhere"}, -32000, "unknown_scene")
refused("token.issue: a scene no process backs (virtual) takes no attach: invalid params", 23, "token.issue", {"scene": "main"}, -32602)
refused("token.issue: a ttl of 0 is invalid params", 23, "token.issue", {"scene": "main", "ttl": 0}, -32602, valid=False)
ok("token.list: the tokens still good, none here", 23, "token.list", {})
refused("token.revoke: an id with no token is unknown_token", 23, "token.revoke", {"id": "tok-00000000"}, -32000, "unknown_token")
refused("token.revoke: id missing is invalid params", 23, "token.revoke", {}, -32602, valid=False)
ok("scene.describe: a scene's interface, kind, instances, max and activation", 23, "scene.describe", {"scene": "viewer"})
ok("scene.reopen: the last dismissed instance comes back with its path", 23, "scene.reopen", {},
   setup=OPEN_MAIN + [{"method": "flow.send", "params": {"instance": "main-1", "intent": {"type": "push", "route": "a"}}},
                      {"method": "scene.dismiss", "params": {"instance": "main-1"}}])
refused("scene.reopen: with nothing dismissed is nothing_to_reopen", 23, "scene.reopen", {}, -32000, "nothing_to_reopen")
refused("scene.reopen: an undeclared scene is unknown_scene", 23, "scene.reopen", {"scene": "nowhere"}, -32000, "unknown_scene")
refused("scene.reopen: a scene that is not a string is invalid params", 23, "scene.reopen", {"scene": 7}, -32602, valid=False)
ok("immersive.style: the open space takes a style its scene declares", 23, "immersive.style", {"style": "full"},
   setup=[{"method": "scene.open", "params": {"scene": "portal"}}])
refused("immersive.style: a style the scene does not declare is style_not_allowed", 23, "immersive.style", {"style": "mixed"},
        -32000, "style_not_allowed", setup=[{"method": "scene.open", "params": {"scene": "portal"}}])
refused("immersive.style: with no space open is not_open", 23, "immersive.style", {"style": "full"}, -32000, "not_open")
refused("immersive.style: a word that is no style is invalid params", 23, "immersive.style", {"style": "cinematic"}, -32602)
refused("scene.describe: an undeclared scene is unknown_scene", 23, "scene.describe", {"scene": "nowhere"}, -32000, "unknown_scene")
refused("scene.describe: scene missing is invalid params", 23, "scene.describe", {}, -32602, valid=False)
ok("scene.emit: a control connection emits for the instance it names", 23, "scene.emit",
   {"instance": "main-1", "signal": "saved", "payload": {"doc": "7"}}, setup=OPEN_MAIN)
refused("scene.emit: from an instance that is not open is not_open", 23, "scene.emit",
        {"instance": "main-1", "signal": "saved"}, -32000, "not_open")
refused("scene.emit: a control connection must name the instance", 23, "scene.emit", {"signal": "saved"}, -32602)
refused("scene.emit: signal missing is invalid params", 23, "scene.emit", {"instance": "main-1"}, -32602, valid=False)
ok("scene.program: no steps completes none", 23, "scene.program", {"steps": []})
refused("scene.program: the first failing step ends it with its reason (data.step, data.results)", 23, "scene.program",
        {"steps": [{"method": "scene.open", "params": {"scene": "main"}}, {"method": "scene.open", "params": {"scene": "nope"}}]},
        -32000, "unknown_scene")
refused("scene.program: a method that cannot be a step is invalid params", 23, "scene.program",
        {"steps": [{"method": "state"}]}, -32602, valid=False)
refused("scene.program: a $k naming a later step is invalid params", 23, "scene.program",
        {"steps": [{"method": "scene.focus", "params": {"instance": "$1"}}, {"method": "scene.open", "params": {"scene": "main"}}]},
        -32602)
refused("scene.program: a $k naming a step without an instance is invalid params", 23, "scene.program",
        {"steps": [{"method": "immersive.dismiss"}, {"method": "scene.focus", "params": {"instance": "$0"}}]}, -32602)
refused("scene.program: a step whose params do not fit is invalid params", 23, "scene.program",
        {"steps": [{"method": "scene.open", "params": {"scene": 5}}]}, -32602)
refused("scene.program: steps missing is invalid params", 23, "scene.program", {}, -32602, valid=False)
refused("flow.send: push to an instance that is not open is not_open", 24, "flow.send",
        {"instance": "main-1", "intent": {"type": "push", "route": {"screen": "page"}}}, -32000, "not_open")
refused("flow.send: pop with a count to an instance that is not open is not_open", 25, "flow.send",
        {"instance": "main-1", "intent": {"type": "pop", "count": 2}}, -32000, "not_open")
refused("flow.send: intent type teleport is invalid params", 26, "flow.send",
        {"instance": "main-1", "intent": {"type": "teleport", "route": "x"}}, -32602, valid=False)
refused("flow.send: push without a route is invalid params", 27, "flow.send",
        {"instance": "main-1", "intent": {"type": "push"}}, -32602, valid=False)
refused("flow.send: intent missing is invalid params", 28, "flow.send", {"instance": "main-1"}, -32602, valid=False)
refused("flow.apply: to an instance that is not open is not_open", 29, "flow.apply",
        {"instance": "main-1", "plan": [{"type": "push", "route": "a"}, {"type": "sheet", "route": "b"}]}, -32000, "not_open")
refused("flow.apply: a plan with two modals is invalid_plan too_many_modals, as a reset intent", 30, "flow.apply",
        {"instance": "main-1", "plan": [{"type": "sheet", "route": "a"}, {"type": "cover", "route": "b"}]}, -32000,
        "invalid_plan", setup=OPEN_MAIN)
refused("flow.apply: a plan with a modal before a push is invalid_plan modal_not_at_tail, as a reset intent", 31,
        "flow.apply", {"instance": "main-1", "plan": [{"type": "sheet", "route": "a"}, {"type": "push", "route": "b"}]},
        -32000, "invalid_plan", setup=OPEN_MAIN)
refused("flow.apply: a step type modal is invalid params", 32, "flow.apply",
        {"instance": "main-1", "plan": [{"type": "modal", "route": "a"}]}, -32602, valid=False)
refused("flow.batch: to an instance that is not open is not_open", 33, "flow.batch",
        {"instance": "main-1", "intents": [{"type": "push", "route": "a"}, {"type": "pop"}], "stopOnFailure": True},
        -32000, "not_open")
refused("flow.transaction: to an instance that is not open is not_open", 34, "flow.transaction",
        {"instance": "main-1", "intents": [{"type": "pushMany", "routes": ["a", "b"]}, {"type": "popToRoot"}]},
        -32000, "not_open")
refused("flow.reconcile: to an instance that is not open is not_open", 36, "flow.reconcile",
        {"instance": "main-1", "observed": [], "policy": "adopt"}, -32000, "not_open")
refused("flow.reconcile: without a policy is invalid params", 36, "flow.reconcile",
        {"instance": "main-1", "observed": []}, -32602, valid=False)
refused("flow.reconcile: policy merge is invalid params", 36, "flow.reconcile",
        {"instance": "main-1", "observed": [], "policy": "merge"}, -32602, valid=False)
ok("flow.reconcile: adopt a path the toolkit pushed itself", 36, "flow.reconcile",
   {"instance": "main-1", "observed": [{"type": "push", "route": "a"}], "policy": "adopt"}, setup=OPEN_MAIN)
refused("flow.reconcile: reject a path that differs is path_mismatch", 36, "flow.reconcile",
        {"instance": "main-1", "observed": [{"type": "push", "route": "a"}], "policy": "reject"}, -32000,
        "path_mismatch", setup=OPEN_MAIN)
refused("flow.reconcile: an observed path with two modals is invalid_plan", 36, "flow.reconcile",
        {"instance": "main-1", "observed": [{"type": "sheet", "route": "a"}, {"type": "cover", "route": "b"}],
         "policy": "adopt"}, -32000, "invalid_plan", setup=OPEN_MAIN)
ok("link.open: demo://demo.example/viewer/42 opens viewer-1", 35, "link.open", {"url": "demo://demo.example/viewer/42"})
ok("link.open: https universal link", 36, "link.open", {"url": "https://demo.example/viewer/7"})
ok("link.open: a custom scheme whose host is the route: demoapp://viewer/42", 36, "link.open",
   {"url": "demoapp://viewer/42"})
ok("link.open: the same without an authority: demoapp:viewer/42", 36, "link.open", {"url": "demoapp:viewer/42"})
refused("link.open: a web link without a host is link_rejected (host_not_allowed)", 36, "link.open",
        {"url": "https:///viewer/42"}, -32000, "link_rejected")
ok("link.open: a link whose mapping runs a program opens two viewers side by side", 36, "link.open",
   {"url": "demo://demo.example/compare/7/9"})
ok("link.open: a link that requires auth is pending", 37, "link.open", {"url": "demo://demo.example/theatre/opera"})
refused("link.open: scheme ftp is link_rejected", 38, "link.open", {"url": "ftp://demo.example/viewer/1"}, -32000, "link_rejected")
refused("link.open: another host is link_rejected", 39, "link.open", {"url": "demo://elsewhere.example/viewer/1"}, -32000, "link_rejected")
refused("link.open: user-info is link_rejected", 40, "link.open", {"url": "demo://me@demo.example/viewer/1"}, -32000, "link_rejected")
refused("link.open: not a URL is link_rejected", 41, "link.open", {"url": "viewer 42"}, -32000, "link_rejected")
refused("link.open: no pattern matches is link_unhandled", 42, "link.open", {"url": "demo://demo.example/nowhere"}, -32000, "link_unhandled")
refused("link.open: a URL over 8192 bytes is input_limit_exceeded", 43, "link.open",
        {"url": "demo://demo.example/viewer/" + "a" * 8200}, -32000, "input_limit_exceeded")
refused("link.open: url missing is invalid params", 44, "link.open", {}, -32602, valid=False)
ok("auth.set: authenticated true with nothing pending", 45, "auth.set", {"authenticated": True})
ok("auth.set: authenticated false", 46, "auth.set", {"authenticated": False})
refused("auth.set: authenticated as a string is invalid params", 47, "auth.set", {"authenticated": "yes"}, -32602, valid=False)
ok("state: with empty params", 48, "state", {})
ok("state: without params", 49, "state")
ok("subscribe: every topic", 50, "subscribe")
ok("subscribe: some topics", 51, "subscribe", {"topics": ["scene", "flow"]})
ok("subscribe: no topics", 52, "subscribe", {"topics": []})
refused("subscribe: an unknown topic is invalid params", 53, "subscribe", {"topics": ["scene", "weather"]}, -32602, valid=False)
ok("subscribe: signals of some scenes only", 55, "subscribe", {"topics": ["signal"], "scenes": ["viewer"], "signals": ["saved"]})
ok("subscribe: events about some instances, since the start", 56, "subscribe", {"instances": ["main-1"], "since": 0})
refused("subscribe: an instances filter naming no instance id is invalid params", 57, "subscribe", {"instances": ["main"]}, -32602)
refused("subscribe: a since newer than the last event is history_gone", 58, "subscribe", {"since": 99}, -32000, "history_gone")
refused("subscribe: a since numbered by another coordinator (origin) is history_gone", 59, "subscribe",
        {"since": 0, "origin": "another-run"}, -32000, "history_gone")
ok("unsubscribe: without a subscription", 54, "unsubscribe", {})

# ---------------------------------------------------------------- server messages (sent back to the server: -32600, missing method)
MAIN_1 = {"id": "main-1", "scene": "main", "kind": "window", "value": None, "phase": "active", "focused": True,
          "path": [], "queue": [], "pushedFrom": None}
NOTES_1 = {"id": "notes-1", "scene": "notes", "kind": "window", "value": None, "phase": "active", "focused": True,
           "path": [], "queue": [], "pushedFrom": "main-1"}
VIEWER_1 = {"id": "viewer-1", "scene": "viewer", "kind": "window", "value": "42", "phase": "active", "focused": True,
            "path": [{"type": "push", "route": {"screen": "page", "doc": "42"}}], "queue": [], "pushedFrom": None}
DEMO_SCENES = [
    {"id": "main", "kind": "window", "instances": "single", "restore": True},
    {"id": "viewer", "kind": "window", "instances": "perValue", "restore": True},
    {"id": "notes", "kind": "window", "instances": "multiple", "max": 3, "restore": True},
    {"id": "globe", "kind": "volume", "instances": "single", "size": [0.6, 0.6, 0.6], "restore": True},
    {"id": "theatre", "kind": "immersive", "instances": "single", "style": "full", "restore": True},
    {"id": "portal", "kind": "immersive", "instances": "single", "style": "progressive", "restore": True},
]
BACK = error(-32600)


def response(name, id, result=None, err=None):
    text = '{"jsonrpc":"2.0","id":' + compact(id)
    text += (',"result":' + compact(result)) if err is None else (',"error":' + compact(err))
    add(name, text + "}", BACK, True, "response.json")


def wire_error(code, message, data):
    return {"code": code, "message": message, "data": data}


response("response: hello result", 1, {"protocol": 1, "server": "scenectl/0.1.0", "session": "session-1"})
response("response: ping result", 2, {})
response("response: scene.open result", 3, {"instance": MAIN_1, "outcome": "opened"})
response("response: link.open handled", 35, {"outcome": "handled", "instance": VIEWER_1, "opened": True, "path": VIEWER_1["path"]})
response("response: link.open pending", 37, {"outcome": "pending"})
response("response: link.open pending, superseding another", 38,
         {"outcome": "pending", "superseded": "demo://demo.example/theatre/opera"})
response("response: auth.set with nothing replayed", 45, {"replayed": None})
response("response: auth.set with a replay that failed", 46, {"replayed": {"error": wire_error(
    -32000, "immersive space portal-1 is already open", {"reason": "immersive_space_busy", "instance": "portal-1"})}})
response("response: state of a fresh demo registry", 48, {
    "app": "demo", "scenes": DEMO_SCENES, "instances": [], "focused": None, "immersive": None, "pendingLink": None,
    "phase": "background", "seq": 0})
response("response: subscribe result", 50, {"seq": 0, "origin": "Mx0g4Zq7c1RkT2uV"})
response("response: flow.send changed", 24, {"outcome": "changed", "path": [{"type": "push", "route": {"screen": "page"}}]})
response("response: flow.batch with a rejected intent", 33, {
    "outcomes": [{"outcome": "changed"}, {"outcome": "rejected", "error": wire_error(
        -32000, "cannot pop 5 screens from a stack 1 deep",
        {"reason": "insufficient_depth", "requested": 5, "available": 1})}],
    "path": [{"type": "push", "route": "a"}]})
response("response: parse error", None, err=wire_error(-32700, "Parse error", {"detail": "invalid literal at byte 0"}))
response("response: batch_not_supported", None, err=wire_error(
    -32600, "Invalid Request", {"detail": "batches are not supported in protocol v1", "reason": "batch_not_supported"}))
response("response: frame_too_large", None, err=wire_error(
    -32600, "Invalid Request", {"detail": "a frame of 1048577 bytes is over the maximum of 1048576", "reason": "frame_too_large"}))
response("response: method not found", 1, err=wire_error(-32601, "Method not found", {"method": "scene.teleport"}))
response("response: not initialized", 1, err=wire_error(-32002, "Not initialized", {"detail": "send hello first"}))
response("response: invalid params", 10, err=wire_error(-32602, "Invalid params", {"detail": "scene: expected String, found 5"}))
response("response: not_open", 20, err=wire_error(-32000, "main-1 is not open", {"reason": "not_open", "detail": "main-1"}))
response("response: unsupported_protocol", 1, err=wire_error(
    -32000, "no common protocol version: the server speaks [1], the client [2]",
    {"reason": "unsupported_protocol", "supported": [1]}))
response("response: flow.transaction failure names the index", 34, err=wire_error(
    -32000, "intent 1 failed: cannot push while a sheet or cover is showing; dismiss it first",
    {"reason": "push_blocked_by_modal_tail", "index": 1}))
response("response: too_many_connections", None, err=wire_error(
    -32000, "the coordinator serves at most 4096 connections", {"reason": "too_many_connections"}))


def event(name, params):
    add(name, '{"jsonrpc":"2.0","method":"event","params":' + compact(params) + "}", NONE, True, "notification.json")


event("event: scene.opened", {"seq": 1, "type": "scene.opened", "instance": MAIN_1})
event("event: scene.focused", {"seq": 2, "type": "scene.focused", "instance": "main-1"})
event("event: scene.phase_changed", {"seq": 3, "type": "scene.phase_changed", "instance": "main-1", "phase": "background"})
event("event: scene.opened (a pushed window)", {"seq": 4, "type": "scene.opened", "instance": NOTES_1})
event("event: scene.finished", {"seq": 6, "type": "scene.finished", "instance": "notes-1", "result": {"picked": "blue"}})
event("event: scene.pushed", {"seq": 5, "type": "scene.pushed", "instance": "notes-1", "from": "main-1"})
event("event: flow.changed", {"seq": 7, "type": "flow.changed", "instance": "notes-1",
                              "path": [{"type": "push", "route": "a"}, {"type": "sheet", "route": {"screen": "share"}}],
                              "queue": [], "cause": {"by": "control", "intent": "sheet"}})
event("event: flow.changed by a link's plan (no single intent)", {
    "seq": 8, "type": "flow.changed", "instance": "viewer-1",
    "path": [{"type": "push", "route": {"screen": "page", "doc": "7"}}], "queue": [], "cause": {"by": "link"}})
event("event: flow.queued", {"seq": 9, "type": "flow.queued", "instance": "notes-1",
                             "step": {"type": "cover", "route": "login"}, "queue": [{"type": "cover", "route": "login"}]})
event("event: scene.dismissed", {"seq": 8, "type": "scene.dismissed", "instance": "notes-1", "reason": "requested"})
event("event: scene.dismissed (a scene it requires lost its last instance)",
      {"seq": 9, "type": "scene.dismissed", "instance": "preview-1", "reason": "requirement_dismissed"})
event("event: scene.focused (a reopen found the instance open)",
      {"seq": 10, "type": "scene.focused", "instance": "main-2", "reopened": True, "reopenedFrom": "main-1"})
event("event: link.pending", {"seq": 11, "type": "link.pending", "url": "demo://demo.example/theatre/opera"})
event("event: link.superseded", {"seq": 12, "type": "link.superseded", "url": "demo://demo.example/theatre/opera"})
event("event: link.rejected", {"seq": 14, "type": "link.rejected", "url": "ftp://demo.example/viewer/1",
                               "error": wire_error(-32000, "scheme \"ftp\" is not allowed",
                                                   {"reason": "link_rejected", "detail": "ftp"})})
event("event: request.rejected", {"seq": 15, "type": "request.rejected", "request": "scene.open",
                                  "error": wire_error(-32000, "no scene \"nope\" is declared",
                                                      {"reason": "unknown_scene", "scene": "nope"})})
event("event: link.handled", {"seq": 18, "type": "link.handled", "url": "demo://demo.example/viewer/42",
                              "instance": "viewer-1", "opened": True})

# Typed calls (section 19): a scene.call like any other, its method the function's name
# with its argument labels, its params the arguments by name.
refused("scene.call: a typed call, save(draft:count:) with its arguments by name, to an instance not open is not_open",
        61, "scene.call", {"to": "notes-1", "method": "save(draft:count:)", "params": {"draft": "hello", "count": 2}},
        -32000, "not_open")
refused("scene.call: a typed call without arguments, title(), to an undeclared scene is unknown_scene",
        62, "scene.call", {"to": {"scene": "nope"}, "method": "title()"}, -32000, "unknown_scene")

# Last: it stops the coordinator.
ok("coordinator.shutdown: answered, then the coordinator stops", 99, "coordinator.shutdown", {})

with open(os.path.join(ROOT, "vectors", "frames.json"), "w") as handle:
    handle.write('{"vectors": [\n')
    handle.write(",\n".join(json.dumps(vector, ensure_ascii=False) for vector in vectors))
    handle.write("\n]}\n")
print(f"{len(vectors)} vectors")
