#!/usr/bin/env bash
# Every check the project runs (what CI runs, from a clean checkout):
#   1. the test suites (swift test);
#   2. each fuzz target for FUZZ_SECONDS (default 30; 9 targets, 4.5 minutes in all);
#   3. a one-minute soak (RSS after warm-up must not grow more than 5%);
#   4. the test suites under ThreadSanitizer, then AddressSanitizer;
#   5. the documentation: every module's DocC catalog builds with no warnings, and every
#      public symbol has a doc comment (Tests/docs.sh; the site is left in .build/docs).
# About 18 minutes (1072 s measured) from a clean checkout on the 2-core development machine; RELIABILITY.md
# has the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
source Tests/test-flags.sh
started=$SECONDS
step() { echo; echo "== $1 ($(( SECONDS - started )) s so far)"; }

step "test suites"
run_suites .build/logs/test-suites.log

step "fuzzing, ${FUZZ_SECONDS:-30} s per target"
for target in $(cd Fuzz/targets && ls *.swift | sed 's/\.swift$//'); do
    Fuzz/run.sh "$target" "${FUZZ_SECONDS:-30}"
done

step "soak, 1 minute"
Benchmarks/soak.sh 1

step "test suites under ThreadSanitizer"
Tests/sanitize.sh thread

step "test suites under AddressSanitizer"
Tests/sanitize.sh address

step "documentation"
Tests/docs.sh

echo
echo "== all checks passed in $(( SECONDS - started )) s"
