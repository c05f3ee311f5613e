#!/usr/bin/env bash
# A/B: two builds of the coordinator under the same load, in one run, their rounds
# alternating, so that a change is judged against the build without it on the same
# machine at the same time.
#
#   Benchmarks/ab.sh A B [--rounds N] [--seconds S] [--callers C] [CASE…]
#
# A and B are folders of release binaries (`swift build -c release --show-bin-path` of two
# checkouts; each needs scenectl and swift-scene). Cases are Benchmarks/load.sh's (ping,
# flow-send, flow-shared, flow-state, flow-durable, scene-open, state, scene-call,
# swift-scene; all of them by default). Each round runs every case once on each build, A
# first in odd rounds and B first in even ones; default 5 rounds of 2 s, 16 callers.
# Prints, per case, the median requests/s of each build and B/A, the coordinator's CPU per
# request (µs, from /proc/PID/stat; the scene process's for swift-scene), and, when ping
# is among the cases, each case's median against the same build's ping: the ratio the
# performance aims are stated in.
set -euo pipefail
usage="usage: Benchmarks/ab.sh A B [--rounds N] [--seconds S] [--callers C] [CASE…]"
[[ $# -ge 2 ]] || { echo "$usage" >&2; exit 2; }
a="$(cd "$1" && pwd)"
b="$(cd "$2" && pwd)"
shift 2
cd "$(dirname "$0")/.."
root="$PWD"
rounds=5
seconds=2
callers=16
cases=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift ;;
        --seconds) seconds="$2"; shift ;;
        --callers) callers="$2"; shift ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) cases+=("$1") ;;
    esac
    shift
done
source Benchmarks/load.sh
load_check ab.sh "$a" "$b"
load_init ab.sh
ticks="$(getconf CLK_TCK)"
results="$work/results.tsv"

for round in $(seq 1 "$rounds"); do
    order=(A B)
    (( round % 2 == 1 )) || order=(B A)
    for name in "${cases[@]}"; do
        for label in "${order[@]}"; do
            build="$a"
            [[ $label == B ]] && build="$b"
            coordinator_for "$name" "$build"
            requests_for "$name" "$build"
            before_run "$name"
            target="$pid"
            [[ $name == swift-scene ]] && target="$scene_pid"
            before="$(cpu_ticks "$target")"
            line="$(load "$socket" "$callers" "$seconds" "${requests[@]}")"
            after="$(cpu_ticks "$target")"
            # case, build, calls, requests/s, CPU seconds
            echo "$name $label $(awk '{print $1, $3}' <<< "$line") $(( after - before ))" >> "$results"
        done
    done
    echo "ab.sh: round $round of $rounds done" >&2
done

python3 - "$results" "$ticks" "$a" "$b" "$rounds" "$seconds" "$callers" <<'PY'
import collections, statistics, sys
path, ticks, a, b, rounds, seconds, callers = sys.argv[1:]
ticks = float(ticks)
rates = collections.defaultdict(list)
cpu = collections.defaultdict(list)
order = []
for line in open(path):
    name, build, calls, rate, used = line.split()
    if name not in order:
        order.append(name)
    rates[name, build].append(float(rate))
    cpu[name, build].append(1e6 * int(used) / ticks / float(calls))
median = lambda values: statistics.median(values)
print(f"A = {a}\nB = {b}\n{rounds} rounds of {seconds} s, {callers} callers, alternating; medians (min–max)\n")
print(f"{'case':<14}{'A requests/s':>24}{'B requests/s':>24}{'B/A':>7}{'A µs CPU':>10}{'B µs CPU':>10}")
for name in order:
    ra, rb = rates[name, "A"], rates[name, "B"]
    print(f"{name:<14}{median(ra):>10.0f} ({min(ra):.0f}–{max(ra):.0f}){median(rb):>10.0f} ({min(rb):.0f}–{max(rb):.0f})"
          f"{median(rb) / median(ra):>7.2f}{median(cpu[name, 'A']):>10.1f}{median(cpu[name, 'B']):>10.1f}")
if "ping" in order:
    print("\nagainst the same build's ping (ratio of medians):")
    for name in order:
        if name == "ping":
            continue
        pa = median(rates[name, "A"]) / median(rates["ping", "A"])
        pb = median(rates[name, "B"]) / median(rates["ping", "B"])
        print(f"{name:<14}A {pa:.2f}x   B {pb:.2f}x")
PY
