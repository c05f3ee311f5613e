#!/usr/bin/env bash
# Runs one fuzz target for a while: Fuzz/run.sh TARGET SECONDS
#
# Builds it if needed (Fuzz/build.sh), seeds its corpus from the protocol's vectors, and
# runs libFuzzer on it. Exits non-zero when an input crashes it or breaks an invariant;
# the input is saved under .build/fuzz/artifacts/TARGET/, and belongs in
# Fuzz/regressions/TARGET/ with a fix (the tests replay every file there).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:?usage: Fuzz/run.sh TARGET SECONDS (TARGET: a file of Fuzz/targets)}"
seconds="${2:?usage: Fuzz/run.sh TARGET SECONDS}"
"$root/Fuzz/build.sh" "$target"
out="$root/.build/fuzz"
corpus="$out/corpus/$target"
artifacts="$out/artifacts/$target"
mkdir -p "$corpus" "$artifacts"
python3 "$root/Fuzz/seeds.py" "$target" "$corpus"
# Known crashers first: each must now pass.
if compgen -G "$root/Fuzz/regressions/$target/*" > /dev/null; then
    "$out/$target" -runs=0 "$root/Fuzz/regressions/$target"/* 2>&1 | tail -1
fi
log="$out/$target.log"
set +e
"$out/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" > "$log" 2>&1
status=$?
set -e
executions=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$" || echo "?")
coverage=$(grep -o "cov: [0-9]*" "$log" | tail -1 || true)
echo "fuzz: $target ran $seconds s, $executions executions, $coverage, corpus $(ls "$corpus" | wc -l) inputs, exit $status"
if [[ $status -ne 0 ]]; then
    grep -E "ERROR|Fatal|precondition|panic|SUMMARY" "$log" | head -20
    echo "fuzz: the crashing input is in $artifacts/; the log is $log" >&2
fi
exit $status
