#!/usr/bin/env bash
# A long fuzz campaign: every target, for SECONDS each, JOBS at a time (default: one per
# core), each from its corpus (seeded as Fuzz/run.sh seeds it), whose new inputs are then
# merged into it (libFuzzer's -merge=1 keeps the inputs that add coverage).
#
#   Fuzz/campaign.sh [--max-len BYTES] SECONDS [JOBS] [TARGET[=SECONDS]…]
#
# --max-len: the longest input libFuzzer makes (default 65536, the frame sizes a peer may
# send); longer corpus inputs are cut to it while fuzzing. libFuzzer's own default is 4096:
# small inputs cover the grammars as well and run several times faster.
# Named targets run in the order given (a job takes the next one as it finishes), each for
# its own SECONDS when it names one: `Fuzz/campaign.sh 900 2 wire=4000 intents=3300
# journal links manifest program schema session state`.
#
# Prints, and writes to .build/fuzz/campaign.md, a table per target: executions, edges
# covered (libFuzzer's cov), corpus size and crashes; exits non-zero when any target
# crashed (each crashing input is under .build/fuzz/artifacts/TARGET/, and belongs in
# Fuzz/regressions/TARGET/ with its fix). CI runs the short Fuzz/run.sh instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
max_len=65536
if [[ "${1:-}" == --max-len ]]; then
    max_len="${2:?--max-len needs a number of bytes}"
    [[ "$max_len" =~ ^[0-9]+$ ]] || { echo "campaign.sh: --max-len must be a whole number" >&2; exit 2; }
    shift 2
fi
seconds="${1:?usage: Fuzz/campaign.sh [--max-len BYTES] SECONDS [JOBS] [TARGET[=SECONDS]…]}"
jobs="${2:-$(nproc)}"
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && read -r -a targets <<< "$(cd "$root/Fuzz/targets" && ls *.swift | sed 's/\.swift$//' | tr '\n' ' ')"
# Each target's own time: NAME=SECONDS, else SECONDS.
declare -A time
names=()
for entry in "${targets[@]}"; do
    name="${entry%%=*}"
    [[ -f "$root/Fuzz/targets/$name.swift" ]] || { echo "campaign.sh: no target \"$name\"" >&2; exit 2; }
    [[ "$entry" == *=* ]] && time[$name]="${entry#*=}" || time[$name]="$seconds"
    [[ "${time[$name]}" =~ ^[0-9]+$ ]] || { echo "campaign.sh: \"$entry\": seconds must be a whole number" >&2; exit 2; }
    names+=("$name")
done
targets=("${names[@]}")
"$root/Fuzz/build.sh" "${targets[@]}"
out="$root/.build/fuzz"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)

one() {
    local target="${1%%=*}" seconds="${1#*=}"
    local corpus="$out/corpus/$target" fresh="$out/campaign/$target" artifacts="$out/artifacts/$target"
    rm -rf "$fresh" && mkdir -p "$corpus" "$fresh" "$artifacts"
    python3 "$root/Fuzz/seeds.py" "$target" "$corpus" > /dev/null
    set +e
    "$out/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="$max_len" -timeout=10 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "$fresh" "$corpus" > "$out/campaign-$target.log" 2>&1
    echo $? > "$fresh.status"
    "$out/$target" -merge=1 "$corpus" "$fresh" > "$out/campaign-$target.merge.log" 2>&1
    set -e
}
export -f one
export out root max_len
for target in "${targets[@]}"; do echo "$target=${time[$target]}"; done | xargs -P "$jobs" -I{} bash -c 'one {}'

report="$out/campaign.md"
{
    echo "Fuzz campaign from $started: $jobs target(s) at a time, on $(nproc) cores, inputs up to $max_len bytes."
    echo
    echo "| target | seconds | executions | per second | edges (cov) | corpus | crashes |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
} > "$report"
total=0
failed=0
for target in "${targets[@]}"; do
    log="$out/campaign-$target.log"
    executions=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$" || echo 0)
    coverage=$(grep -o "cov: [0-9]*" "$log" | tail -1 | grep -o "[0-9]*" || echo "?")
    status=$(cat "$out/campaign/$target.status")
    crashes=$(( status == 0 ? 0 : 1 ))
    (( failed += crashes )) || true
    (( total += executions )) || true
    echo "| $target | ${time[$target]} | $executions | $(( executions / time[$target] )) | $coverage | $(ls "$out/corpus/$target" | wc -l) | $crashes |" >> "$report"
done
echo >> "$report"
echo "In all: $total executions, $failed target(s) crashed." >> "$report"
cat "$report"
exit $(( failed > 0 ))
