#!/usr/bin/env bash
# Runs every benchmark of the package (release builds) and writes Benchmarks/RESULTS.md
# (machine, date, every figure, every ratio) and Benchmarks/results.svg (throughput and
# latency against callers: the coordinator, D-Bus and the C echo limit).
#
#   Benchmarks/run.sh [--with-dbus] [--rounds N] [--seconds S]
#
# --with-dbus  also measures D-Bus: installs dbus-daemon and libdbus-1-dev (and
#              pkg-config) from the OS packages if they are missing. Without it the D-Bus
#              rows are skipped, and RESULTS.md says so.
# --rounds N   rounds of the comparison (default 5); --seconds S per case and round
#              (default 2).
# Needs gcc (the C endpoints are built from Benchmarks/c). Takes about 6 minutes, plus the
# release build, on 2 cores. CI does not run it.
set -euo pipefail
cd "$(dirname "$0")/.."
with_dbus=0
rounds=5
seconds=2
while [[ $# -gt 0 ]]; do
    case "$1" in
        --with-dbus) with_dbus=1 ;;
        --rounds) rounds="$2"; shift ;;
        --seconds) seconds="$2"; shift ;;
        *) echo "usage: Benchmarks/run.sh [--with-dbus] [--rounds N] [--seconds S]" >&2; exit 2 ;;
    esac
    shift
done

dbus=()
if [[ $with_dbus == 1 ]]; then
    missing=()
    command -v dbus-daemon >/dev/null || missing+=(dbus-daemon)
    command -v pkg-config >/dev/null || missing+=(pkg-config)
    pkg-config --exists dbus-1 2>/dev/null || missing+=(libdbus-1-dev)
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "run.sh: installing ${missing[*]}"
        sudo=()
        [[ $(id -u) == 0 ]] || sudo=(sudo)
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    fi
    dbus=(--dbus)
else
    echo "run.sh: D-Bus is skipped (Benchmarks/run.sh --with-dbus installs and measures it)"
fi

swift build -c release
bin="$(swift build -c release --show-bin-path)"
# The build's own writes reach the disk now, not under the first benchmark.
sync
appendix="$(mktemp -d)"
trap 'rm -rf "$appendix"' EXIT
for bench in flow-bench link-bench registry-bench scene-bench attach-bench window-bench fairness-bench behavior-bench; do
    echo "== $bench"
    "$bin/$bench" | tee "$appendix/$bench.txt"
done
echo "== soak (1 minute)"
"$bin/soak" --minutes 1 --scenectl "$bin/scenectl" | tee "$appendix/soak.txt"
echo "== wire-bench"
"$bin/wire-bench" --rounds "$rounds" --seconds "$seconds" "${dbus[@]}" --out Benchmarks --appendix "$appendix"
