# The flags the scripts here give `swift test` (sourced by all.sh, sanitize.sh, repeat.sh).
#
# At most 32 tests run at once. Left unbounded, Swift Testing starts all of them together:
# on a 2-core machine under ThreadSanitizer, with one core busy elsewhere, a task then
# waited up to 13 s behind the backlog before its first step (measured: the start of each
# in-process launch, 272 of them per run; p90 5.5 s), so that any wait on a real-time
# deadline in a test measured the whole suite. At 32 the longest such wait was 1.3 s and
# the run was faster (25 s against 31 s), as was the plain run (7.2 s against 8.6 s).
swift_test_flags=(--experimental-maximum-parallelization-width 32)

# run_suites LOG [ARGUMENT…]: `swift test` with these flags and the arguments given, its
# output shown as it goes and kept whole in LOG. When it fails, the lines that say which
# tests failed and why are printed again at the very end, so that the tail of a long run
# (all a CI page may show) names them: Swift Testing marks each issue and each failing test
# with ✘; a run with no closing "Test run with N tests" line was cut short (a crash, a
# sanitizer's report), and the tail of its log says how.
run_suites() {
    local log="$1"
    shift
    mkdir -p "$(dirname "$log")"
    local status=0
    swift test "${swift_test_flags[@]}" "$@" 2>&1 | tee "$log" || status=$?
    if (( status != 0 )); then
        echo
        echo "== swift test failed (exit $status); whole output in $log"
        print_failures "$log" || true
    fi
    return "$status"
}

# print_failures LOG [INDENT]: the failing tests and their issues in a failed run's log, or
# the tail of the log when the run was cut short. Returns 1 when it was cut short.
print_failures() {
    local log="$1" indent="${2:-}"
    grep -a '✘' "$log" | grep -av '✘ Suite\|✘ Test run' | sed "s/^/$indent/" || true
    if ! grep -aq 'Test run with [0-9]* tests\? in' "$log"; then
        echo "${indent}-- the run ended early (a crash or a sanitizer's report); its last lines:"
        tail -40 "$log" | sed "s/^/$indent/"
        return 1
    fi
}
