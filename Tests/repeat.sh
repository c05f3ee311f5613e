#!/usr/bin/env bash
# Runs the test suites several times in a row and reports every failure, to tell a rule
# that breaks from a test that fails by chance:
#
#   Tests/repeat.sh [--sanitize=thread|address] N [FILTER]
#
#   N           how many runs (each a whole `swift test` of the suites FILTER selects)
#   FILTER      a `swift test --filter` expression (a suite or test name, a regular
#               expression); all suites when left out
#   --sanitize  runs them under ThreadSanitizer or AddressSanitizer, built apart in
#               .build/<sanitizer> as Tests/sanitize.sh builds them
#
# The suites are built once, then run N times. Each run's whole output is kept in
# .build/repeat/run-K.log; for each failing run the script prints the failing tests with
# the issues they recorded (file:line and the expectation), and at the end how many runs
# failed and which tests failed how often. Exits 1 when any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
source Tests/test-flags.sh

sanitizer=""
arguments=()
for argument in "$@"; do
    case "$argument" in
    --sanitize=thread | --sanitize=address) sanitizer="${argument#--sanitize=}" ;;
    --sanitize=*) echo "repeat: unknown sanitizer in $argument (thread or address)" >&2; exit 2 ;;
    *) arguments+=("$argument") ;;
    esac
done
runs="${arguments[0]:-}"
filter="${arguments[1]:-}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]] || (( ${#arguments[@]} > 2 )); then
    echo "usage: Tests/repeat.sh [--sanitize=thread|address] N [FILTER]" >&2
    exit 2
fi

build=(swift build --build-tests)
test=(swift test --skip-build "${swift_test_flags[@]}")
if [[ -n "$sanitizer" ]]; then
    # The same options as Tests/sanitize.sh: a report is an error.
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
    export ASAN_OPTIONS="detect_leaks=0 suppressions=$PWD/Tests/asan.supp ${ASAN_OPTIONS:-}"
    build+=(--sanitize="$sanitizer" --scratch-path ".build/$sanitizer")
    test+=(--sanitize="$sanitizer" --scratch-path ".build/$sanitizer")
fi
[[ -n "$filter" ]] && test+=(--filter "$filter")

logs=.build/repeat
rm -rf "$logs"
mkdir -p "$logs"
echo "repeat: building${sanitizer:+ under the ${sanitizer} sanitizer}"
if ! "${build[@]}" >"$logs/build.log" 2>&1; then
    tail -40 "$logs/build.log"
    echo "repeat: the build failed (whole output: $logs/build.log)"
    exit 1
fi
failed_runs=0
declare -A failures=()
for (( run = 1; run <= runs; run++ )); do
    log="$logs/run-$run.log"
    started=$SECONDS
    if "${test[@]}" >"$log" 2>&1; then
        echo "run $run of $runs: passed in $(( SECONDS - started )) s"
        continue
    fi
    failed_runs=$(( failed_runs + 1 ))
    echo "run $run of $runs: FAILED in $(( SECONDS - started )) s (whole output: $log)"
    # Swift Testing marks each issue and each failing test with ✘, and ends a run that it
    # finished with "Test run with N tests …". A run without that line was cut short (a
    # sanitizer's report, a crash), and its log's tail says how.
    finished=true
    print_failures "$log" "    " || finished=false
    names=$(grep '✘ Test .* failed after' "$log" | sed -E 's/^✘ Test //; s/ failed after .*$//; s/ with [0-9]+ test cases?$//' || true)
    while IFS= read -r name; do
        [[ -n "$name" ]] && failures["$name"]=$(( ${failures["$name"]:-0} + 1 ))
    done <<<"$names"
    if ! $finished; then
        early="(the run ended early: a crash or a sanitizer's report, see its log)"
        failures["$early"]=$(( ${failures["$early"]:-0} + 1 ))
    elif [[ -z "$names" ]]; then
        tail -20 "$log" | sed 's/^/    /'
        other="(no test failed, yet the run did: see its log)"
        failures["$other"]=$(( ${failures["$other"]:-0} + 1 ))
    fi
done

echo
echo "repeat: $(( runs - failed_runs )) of $runs runs passed${sanitizer:+ under the ${sanitizer} sanitizer}${filter:+ (filter: $filter)}"
if (( failed_runs > 0 )); then
    echo "failures, by test:"
    for name in "${!failures[@]}"; do echo "  ${failures[$name]}x  $name"; done | sort -rn
    exit 1
fi
