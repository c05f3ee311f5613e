# Coordinators under the C load generator, for Benchmarks/profile.sh and Benchmarks/ab.sh
# (sourced, not run): what each case serves, what its callers ask, and the processes to
# clean up. Needs $root (the package) set by the script that sources it.
#
# Cases: ping, flow-send (push/pop, a board per caller), flow-shared (push/pop, every
# caller on one board), flow-state (flow-send with --state), flow-durable (with --state
# --durable), scene-open (a focus of an open single scene), state (the demo app, five
# instances open), scene-call (relayed to the C scene), swift-scene (relayed to the Swift
# example scene).
load_cases=(ping flow-send flow-shared flow-state flow-durable scene-open state scene-call swift-scene)

hello='{"jsonrpc":"2.0","id":0,"method":"hello","params":{"protocol":[1],"role":"control","client":"load"}}'
ping='{"jsonrpc":"2.0","id":1,"method":"ping"}'
push='{"type":"push","route":{"screen":"page"}}'
pop='{"type":"pop"}'
# flow.send of intent $2 to instance $1.
flow() { printf '{"jsonrpc":"2.0","id":2,"method":"flow.send","params":{"instance":"%s","intent":%s}}' "$1" "$2"; }
# scene.open of scene $1.
open_request() { printf '{"jsonrpc":"2.0","id":3,"method":"scene.open","params":{"scene":"%s"}}' "$1"; }
# scene.call of `echo` on instance $1.
call_request() { printf '{"jsonrpc":"2.0","id":4,"method":"scene.call","params":{"to":"%s","method":"echo","params":{"n":1}}}' "$1"; }

# Makes the work folder, compiles the C load generator and scene into it, and writes the
# demo app's manifest (the library's own text, every scene virtual). $1 names the tool in
# messages.
load_init() {
    load_tool="$1"
    work="$(mktemp -d)"
    servers=()
    trap load_cleanup EXIT
    for program in loadgen scene; do
        gcc -O2 -Wall -pthread -o "$work/$program" "$root/Benchmarks/c/$program.c"
    done
    python3 - "$root/Sources/SceneCore/Manifest/Manifest+Demo.swift" > "$work/demo.json" <<'PY'
import re, sys, textwrap
text = open(sys.argv[1], encoding="utf-8").read()
print(textwrap.dedent(re.search(r'demoText = #"""\n(.*?)\n\s*"""#', text, re.S).group(1)))
PY
}

# Checks that each build ($2…: folders of release binaries) has the programs the cases run,
# and that every name in $cases is a case; no name means every case. $1 names the tool.
load_check() {
    local tool="$1" build program name
    shift
    for build in "$@"; do
        for program in scenectl swift-scene; do
            [[ -x "$build/$program" ]] || { echo "$tool: $build/$program is missing" >&2; exit 2; }
        done
    done
    [[ ${#cases[@]} -gt 0 ]] || cases=("${load_cases[@]}")
    for name in "${cases[@]}"; do
        [[ " ${load_cases[*]} " == *" $name "* ]] || { echo "$tool: no case \"$name\" (cases: ${load_cases[*]})" >&2; exit 2; }
    done
}

load_cleanup() {
    for server in "${servers[@]}"; do kill "$server" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}

# Runs the load generator: socket $1, $2 callers, $3 seconds (or xCOUNT), the requests after.
load() { "$work/loadgen" "$1" "$2" "$3" "$hello" "${@:4}"; }

# Starts `scenectl` ($1) serving on socket $2 with the arguments after; waits until it
# answers. Its pid is in $served.
serve() {
    local scenectl="$1" socket="$2"
    shift 2
    SCENE_EXIT_WITH_PARENT=1 "$scenectl" serve --socket "$socket" "$@" > "$socket.log" 2>&1 &
    served=$!
    servers+=("$served")
    for _ in $(seq 1 500); do
        load "$socket" 1 x1 "$ping" > /dev/null 2>&1 && return 0
        sleep 0.02
    done
    echo "$load_tool: the coordinator on $socket did not start: $(cat "$socket.log")" >&2
    exit 1
}

declare -A load_sockets load_pids
# The coordinator that serves case $1 for build $2 (a folder of release binaries): started
# the first time with what the case needs open, then shared by the cases of its kind. Sets
# $socket and $pid.
coordinator_for() {
    local case="$1" bin="$2" kind
    case "$case" in
        flow-state) kind=state ;;
        flow-durable) kind=durable ;;
        state) kind=demo ;;
        *) kind=main ;;
    esac
    local key="$bin/$kind"
    if [[ -z "${load_sockets[$key]:-}" ]]; then
        local name
        name="$(printf '%s' "$key" | md5sum | cut -c1-8)-$kind"
        local at="$work/$name.sock" manifest="$work/$name.json"
        cat > "$manifest" <<EOF
{"app": "load-$name",
 "scenes": [
   {"id": "board", "kind": "window"},
   {"id": "main", "kind": "window", "instances": "single"},
   {"id": "c-echo", "kind": "window", "launch": {"command": ["$work/scene"]}},
   {"id": "swift-echo", "kind": "window", "launch": {"command": ["$bin/swift-scene"]}}
 ]}
EOF
        case "$kind" in
            main) serve "$bin/scenectl" "$at" --manifest "$manifest" ;;
            state) serve "$bin/scenectl" "$at" --manifest "$manifest" --state "$work/$name.state" ;;
            durable) serve "$bin/scenectl" "$at" --manifest "$manifest" --state "$work/$name.state" --durable ;;
            demo) serve "$bin/scenectl" "$at" --manifest "$work/demo.json" ;;
        esac
        case "$kind" in
            demo)
                load "$at" 1 x5 "$(open_request main)" "$(open_request notes)" "$(open_request globe)" \
                    "$(open_request theatre)" '{"jsonrpc":"2.0","id":3,"method":"scene.open","params":{"scene":"viewer","value":"42"}}' > /dev/null ;;
            main)
                # A board per caller (board-1 … board-16), board-17 for the shared case, main,
                # and the two echo scenes (their processes spawned).
                load "$at" 1 x17 "$(open_request board)" > /dev/null
                load "$at" 1 x3 "$(open_request main)" "$(open_request c-echo)" "$(open_request swift-echo)" > /dev/null ;;
            *)
                load "$at" 1 x16 "$(open_request board)" > /dev/null ;;
        esac
        load_sockets[$key]="$at"
        load_pids[$key]="$served"
    fi
    socket="${load_sockets[$key]}"
    pid="${load_pids[$key]}"
}

# The requests case $1's callers cycle through, in $requests; for swift-scene, the pid of
# the Swift scene process of build $2 in $scene_pid.
requests_for() {
    case "$1" in
        ping) requests=("$ping") ;;
        flow-send | flow-state | flow-durable) requests=("$(flow 'board-%d' "$push")" "$(flow 'board-%d' "$pop")") ;;
        flow-shared) requests=("$(flow board-17 "$push")" "$(flow board-17 "$pop")") ;;
        scene-open) requests=("$(open_request main)") ;;
        state) requests=('{"jsonrpc":"2.0","id":6,"method":"state"}') ;;
        scene-call) requests=("$(call_request c-echo-1)") ;;
        swift-scene)
            requests=("$(call_request swift-echo-1)")
            scene_pid="$(pgrep -n -f "^$2/swift-scene")" ;;
        *) echo "$load_tool: no case \"$1\" (cases: ${load_cases[*]})" >&2; exit 2 ;;
    esac
}

# Before a run of case $1 on $socket: the shared board back at its root (a caller stopped
# between its push and its pop leaves a page, and its paths would grow run after run).
before_run() {
    [[ $1 == flow-shared ]] || return 0
    load "$socket" 1 x1 "$(flow board-17 '{"type":"reset","steps":[]}')" > /dev/null
}

# The CPU time of process $1 so far, in clock ticks (utime + stime).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
