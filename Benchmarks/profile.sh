#!/usr/bin/env bash
# Profiles what the performance aims measure, one flame graph per case, into
# Benchmarks/profiles/ (CASE.svg, and an index, README.md, with each case's load, its rate
# while profiled and the ten frames with the most samples of their own).
#
#   Benchmarks/profile.sh [--seconds S] [--no-build] [CASE…]
#
# Cases (all of them by default):
#   coordinator, the release `scenectl serve` under the C load generator, 16 callers:
#     ping            the reference every coordinator ratio is taken against
#     flow-send       flow.send push/pop, each caller on its own instance
#     flow-shared     flow.send push/pop, all 16 on one instance (paths up to 16 deep)
#     flow-state      flow-send against a coordinator serving with --state
#     flow-durable    flow-send against one serving with --state --durable
#     scene-open      scene.open of a single scene that is open (a focus)
#     state           `state` of the demo app, five instances open
#     scene-call      scene.call relayed to the C scene (the coordinator profiled)
#     swift-scene     scene.call relayed to the Swift example scene (the scene profiled)
#   in process:
#     flow-subscriber flow-bench, no middleware, one subscriber
#     registry        registry-bench: open + focus + dismiss, and deep links
#     typed-calls     behavior-bench: typed calls between in-process scenes, on one core
#     in-process-call behavior-bench: scene.call from 16 connections to an in-process
#                     scene on the coordinator's loop
#     typed-scene     wire-bench: typed calls from 16 SceneClient callers to the Swift
#                     example scene as a distributed actor (the scene process profiled)
#
# `perf record -e cpu-clock -F 2000 -g` on the process the case measures, for S seconds
# (default 3) of steady load. Needs gcc and perf (installs linux-perf from the OS
# packages when perf is missing). Rates under perf are lower than without it: the figures
# are RESULTS.md's, from Benchmarks/run.sh; these say where the time goes.
# --no-build profiles the release build as it is; PROFILE_KEEP=DIR keeps each case's
# perf data there (DIR/CASE.data, for `perf report -i`).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
seconds=3
build=1
cases=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift ;;
        --no-build) build=0 ;;
        -*) echo "usage: Benchmarks/profile.sh [--seconds S] [--no-build] [CASE…]" >&2; exit 2 ;;
        *) cases+=("$1") ;;
    esac
    shift
done
source Benchmarks/load.sh
all=("${load_cases[@]}" flow-subscriber registry typed-calls in-process-call typed-scene)
[[ ${#cases[@]} -gt 0 ]] || cases=("${all[@]}")
for name in "${cases[@]}"; do
    [[ " ${all[*]} " == *" $name "* ]] || { echo "profile.sh: no case \"$name\" (cases: ${all[*]})" >&2; exit 2; }
done

if ! command -v perf >/dev/null; then
    echo "profile.sh: installing linux-perf"
    sudo=()
    [[ $(id -u) == 0 ]] || sudo=(sudo)
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-perf
fi

[[ $build == 0 ]] || swift build -c release
bin="$(swift build -c release --show-bin-path)"
out="$root/Benchmarks/profiles"
mkdir -p "$out"
load_init profile.sh

index="$work/index.md"
# Records $pid for $seconds while `load` (the rest of the arguments) runs, then writes the
# flame graph of case $name and its entry in the index. $what says what was measured.
record() {
    local name="$1" pid="$2" what="$3"; shift 3
    "$@" > "$work/$name.load" 2>&1 &
    local load=$!
    sleep 0.5  # the callers connect and settle
    perf record -q -e cpu-clock -F 2000 -g -p "$pid" -o "$work/$name.data" -- sleep "$seconds" 2> /dev/null
    wait "$load" || { echo "profile.sh: the load of $name failed: $(cat "$work/$name.load")" >&2; exit 1; }
    summarize "$name" "$what" "$(awk '{printf "%s requests/s while profiled (p50 %s µs)", $3, $4}' "$work/$name.load")"
}

# The flame graph of $work/$1.data, and its entry in the index.
summarize() {
    local name="$1" what="$2" rate="$3"
    # The coordinator's cases are also told by layer (the kernel by its call, the program
    # by what it was doing: reading params, the registry, the answer...).
    local layers=()
    [[ " ${load_cases[*]} " == *" $name "* && $name != swift-scene ]] && layers=(--layers)
    perf script -i "$work/$name.data" 2> /dev/null |
        python3 Benchmarks/flamegraph.py --title "$name: $what" --out "$out/$name" "${layers[@]}" \
            --skip-comm loadgen,gcc,cc1,as,collect2,ld,taskset > "$work/$name.top"
    {
        echo "## $name"
        echo
        echo "$what. $rate. [Flame graph]($name.svg)."
        echo
        echo "Frames with the most samples of their own:"
        echo
        echo "| own | frame |"
        echo "|---:|---|"
        sed -nE 's/^own +([0-9.]+%) +(.*)$/| \1 | `\2` |/p' "$work/$name.top"
        echo
        echo "The program's frames with the most samples under them:"
        echo
        echo "| under it | frame |"
        echo "|---:|---|"
        sed -nE 's/^all +([0-9.]+%) +(.*)$/| \1 | `\2` |/p' "$work/$name.top"
        echo
        if [[ ${#layers[@]} -gt 0 ]]; then
            echo "By layer (the kernel by the call it was in; the program by the first layer that names a frame of the sample, from the leaf down):"
            echo
            echo "| share | layer |"
            echo "|---:|---|"
            sed -nE 's/^layer +([0-9.]+%) +(.*)$/| \1 | \2 |/p' "$work/$name.top"
            echo
        fi
        [[ -z "${PROFILE_KEEP:-}" ]] || cp "$work/$name.data" "$PROFILE_KEEP/$name.data"
    } >> "$index"
    echo "profile.sh: $name done"
}

declare -A what=(
    [ping]="ping, 16 callers"
    [flow-send]="flow.send push/pop, 16 callers, one instance each"
    [flow-shared]="flow.send push/pop, 16 callers on one instance"
    [flow-state]="flow.send push/pop, 16 callers, one instance each, with --state"
    [flow-durable]="flow.send push/pop, 16 callers, one instance each, with --state --durable"
    [scene-open]="scene.open of an open single scene (a focus), 16 callers"
    [state]="state of the demo app, five instances open, 16 callers"
    [scene-call]="scene.call relayed to the C scene, 16 callers (the coordinator)"
    [swift-scene]="scene.call relayed to the Swift example scene, 16 callers (the scene process)"
)
for name in "${cases[@]}"; do
    [[ " ${load_cases[*]} " == *" $name "* ]] || continue
    coordinator_for "$name" "$bin"
    requests_for "$name" "$bin"
    before_run "$name"
    target="$pid"
    [[ $name == swift-scene ]] && target="$scene_pid"
    record "$name" "$target" "${what[$name]}" load "$socket" 16 "$((seconds + 1))" "${requests[@]}"
done
needs() { for name in "${cases[@]}"; do [[ " $* " == *" $name "* ]] && return 0; done; return 1; }
in_process() {  # name, what, program and arguments: the whole run profiled
    local name="$1" what="$2"; shift 2
    perf record -q -e cpu-clock -F 2000 -g -o "$work/$name.data" -- "$@" > "$work/$name.out" 2> /dev/null
    local figures
    figures="$( (grep -E '^aim' "$work/$name.out" || true) | sed 's/^aim: //' | tr '\n' ';' | sed 's/;$//')"
    [[ -n "$figures" ]] || figures="$(tail -1 "$work/$name.out" | awk '{for (i = 1; i <= NF; i++) $i = ($i ~ /^[0-9.]+$/) ? sprintf("%.0f", $i) : $i; print}')"
    summarize "$name" "$what" "Its own figures while profiled: $figures"
}
needs flow-subscriber && in_process flow-subscriber "flow-bench, no middleware, one subscriber" \
    "$bin/flow-bench" --seconds "$seconds" --rounds 1 --only "0 middleware, 1 subscriber"
# At 100,000 live instances, where the aims take their lowest median (the opening of the
# 100,000 is in the profile too, under registry-bench's measure).
needs registry && in_process registry "registry-bench, open + focus + dismiss and deep links, 100,000 live instances" \
    "$bin/registry-bench" --seconds "$seconds" --rounds 1 --live 100000
needs typed-calls && in_process typed-calls \
    "behavior-bench, typed calls between in-process scenes, one core (its figures: typed calls/s, plain actor calls/s, distributed calls/s, LocalTestingDistributedActorSystem calls/s, the bare hand-off between two tasks calls/s)" \
    taskset -c 0 "$bin/behavior-bench" --typed-only --calls 300000 --rounds 1
needs in-process-call && in_process in-process-call \
    "behavior-bench, scene.call from 16 connections to an in-process scene on the loop (the coordinator in the bench; its figures: calls/s, p50 µs, CPU µs per call)" \
    "$bin/behavior-bench" --seconds "$seconds" --only loop

# The process running `$1` (a command line), once it has been busy for a quarter of a second
# (a fifth of a core or more): its load is under way. Gives up after a minute.
busy_process() {
    local pattern="$1" found="" before after
    for _ in $(seq 1 240); do
        found="$(pgrep -n -f "$pattern" || true)"
        if [[ -n "$found" ]]; then
            before="$(awk '{print $14 + $15}' "/proc/$found/stat" 2> /dev/null || echo 0)"
            sleep 0.25
            after="$(awk '{print $14 + $15}' "/proc/$found/stat" 2> /dev/null || echo 0)"
            (( after - before >= 5 )) && { echo "$found"; return 0; }
        else
            sleep 0.25
        fi
    done
    echo "profile.sh: no busy process running \"$pattern\" within a minute" >&2
    return 1
}
# The typed-call aim's scene process, under wire-bench's own coordinator and callers; the
# run lasts long enough for the recording to fall inside its measurement.
if needs typed-scene; then
    "$bin/wire-bench" --only typed --callers 16 --seconds "$((seconds + 6))" --rounds 1 > "$work/typed-scene.out" 2>&1 &
    bench=$!
    scene="$(busy_process "$bin/swift-scene --distributed")" || { kill "$bench"; exit 1; }
    perf record -q -e cpu-clock -F 2000 -g -p "$scene" -o "$work/typed-scene.data" -- sleep "$seconds" 2> /dev/null
    wait "$bench" || { echo "profile.sh: wire-bench failed: $(cat "$work/typed-scene.out")" >&2; exit 1; }
    summarize typed-scene \
        "typed calls to the Swift example scene as a distributed actor (\`swift-scene --distributed\`), 16 SceneClient callers in wire-bench (the scene process)" \
        "$(sed -nE 's/^typed call.*16 callers: ([0-9]+)\/s \(p50 ([0-9.]+) µs.*scene CPU ([0-9.]+) µs.*$/\1 calls\/s over its whole run (p50 \2 µs; the scene process'"'"'s CPU per call \3 µs)/p' "$work/typed-scene.out")"
fi

{
    echo "# Profiles"
    echo
    echo "Written by \`Benchmarks/profile.sh\` on $(date -u +%Y-%m-%dT%H:%M:%SZ): \`perf record -e cpu-clock -F 2000 -g\` on the process each case measures, $seconds s of steady load, release builds, $(nproc) cores. Each flame graph shows a frame's share of the samples as its width, its callers below it; hover a frame for its name and share. The rates are lower under perf than without it: the figures are [RESULTS.md](../RESULTS.md)'s."
    echo
    cat "$index"
} > "$out/README.md"
echo "profile.sh: wrote $out/README.md"
