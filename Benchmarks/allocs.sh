#!/usr/bin/env bash
# Heap allocations per request: how many times the coordinator calls malloc for each
# request of a case, counted exactly, where ab.sh's rates and CPU times move with the
# machine's noise. A change that allocates less shows here at once, whatever the load.
#
#   Benchmarks/allocs.sh A [B] [--requests N] [CASE…]
#
# A (and B) are folders of release binaries, as for ab.sh. Cases are Benchmarks/load.sh's
# (all of them by default). Each case's coordinator answers 200 requests per caller first
# (the warm-up: connections, tables and buffers at their size), then N more per caller
# (default 2,000; 16 callers) while a uprobe on libc's malloc counts the calls in the
# process (the coordinator's, or for swift-scene the Swift scene process's). Prints malloc
# and free calls per request, and with B, B's change. Needs perf (`linux-perf`) and root
# (a uprobe); the probe is removed afterwards unless it was there before.
set -euo pipefail
usage="usage: Benchmarks/allocs.sh A [B] [--requests N] [CASE…]"
[[ $# -ge 1 ]] || { echo "$usage" >&2; exit 2; }
builds=("$(cd "$1" && pwd)")
shift
if [[ $# -gt 0 && $1 != -* && -d $1 ]]; then
    builds+=("$(cd "$1" && pwd)")
    shift
fi
cd "$(dirname "$0")/.."
root="$PWD"
per_caller=2000
callers=16
cases=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --requests) per_caller="$2"; shift ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) cases+=("$1") ;;
    esac
    shift
done
command -v perf > /dev/null || { echo "allocs.sh: needs perf (linux-perf)" >&2; exit 2; }
source Benchmarks/load.sh
load_check allocs.sh "${builds[@]}"
load_init allocs.sh

# The probes on the libc the coordinator runs with.
libc="$(ldd "${builds[0]}/scenectl" | awk '$1 ~ /^libc\.so/ {print $3}')"
[[ -n $libc ]] || { echo "allocs.sh: cannot find the libc scenectl links" >&2; exit 2; }
added=()
for function in malloc free; do
    if ! perf probe -l 2> /dev/null | grep -q "probe_libc:$function "; then
        perf probe -q -x "$libc" -a "$function" > /dev/null 2>&1 ||
            { echo "allocs.sh: cannot add a uprobe on $function (root is needed)" >&2; exit 2; }
        added+=("probe_libc:$function")
    fi
done
remove_probes() {
    for probe in "${added[@]}"; do perf probe -q -d "$probe" > /dev/null 2>&1 || true; done
    load_cleanup
}
trap remove_probes EXIT

results="$work/results.tsv"
total=$((callers * per_caller))
for name in "${cases[@]}"; do
    for index in "${!builds[@]}"; do
        build="${builds[$index]}"
        coordinator_for "$name" "$build"
        requests_for "$name" "$build"
        before_run "$name"
        target="$pid"
        [[ $name == swift-scene ]] && target="$scene_pid"
        load "$socket" "$callers" x200 "${requests[@]}" > /dev/null
        before_run "$name"
        perf stat -x, -e probe_libc:malloc,probe_libc:free -p "$target" -o "$work/stat" -- \
            "$work/loadgen" "$socket" "$callers" "x$per_caller" "$hello" "${requests[@]}" > /dev/null
        mallocs="$(awk -F, '$3 == "probe_libc:malloc" {print $1}' "$work/stat")"
        frees="$(awk -F, '$3 == "probe_libc:free" {print $1}' "$work/stat")"
        echo "$name $index $mallocs $frees" >> "$results"
    done
done

python3 - "$results" "$total" "$callers" "$per_caller" "${builds[@]}" <<'PY'
import sys
path, total, callers, per_caller, *builds = sys.argv[1:]
total = int(total)
rows = {}
order = []
for line in open(path):
    name, index, mallocs, frees = line.split()
    if name not in order:
        order.append(name)
    rows[name, int(index)] = (int(mallocs) / total, int(frees) / total)
for index, build in enumerate(builds):
    print(f"{'AB'[index]} = {build}")
print(f"{callers} callers x {per_caller} requests after a warm-up; calls per request\n")
header = f"{'case':<14}{'A malloc':>10}{'A free':>10}"
if len(builds) == 2:
    header += f"{'B malloc':>10}{'B free':>10}{'B - A':>8}"
print(header)
for name in order:
    a = rows[name, 0]
    line = f"{name:<14}{a[0]:>10.2f}{a[1]:>10.2f}"
    if len(builds) == 2:
        b = rows[name, 1]
        line += f"{b[0]:>10.2f}{b[1]:>10.2f}{b[0] - a[0]:>+8.2f}"
    print(line)
PY
