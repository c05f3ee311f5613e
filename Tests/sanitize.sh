#!/usr/bin/env bash
# The test suites under a sanitizer: Tests/sanitize.sh thread|address
#
# Each sanitizer builds into a folder of its own (.build/thread, .build/address), so the
# plain build is left alone. See RELIABILITY.md for what each covers here.
set -euo pipefail
cd "$(dirname "$0")/.."
source Tests/test-flags.sh
sanitizer="${1:?usage: Tests/sanitize.sh thread|address}"
case "$sanitizer" in
thread | address) ;;
*) echo "usage: Tests/sanitize.sh thread|address" >&2; exit 2 ;;
esac
# Reports are errors. For the address run, leak checking is off (the Swift runtime's
# metadata caches and the test runner's own allocations are never freed by design), and
# one Foundation bug is suppressed (Tests/asan.supp says which and why).
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=0 suppressions=$PWD/Tests/asan.supp ${ASAN_OPTIONS:-}"
run_suites ".build/logs/test-suites-$sanitizer.log" --sanitize="$sanitizer" --scratch-path ".build/$sanitizer"
