# The flags the scripts here give `swift test` (sourced by all.sh, sanitize.sh, repeat.sh).
#
# At most 32 tests run at once. Left unbounded, Swift Testing starts all of them together:
# on a 2-core machine under ThreadSanitizer, with one core busy elsewhere, a task then
# waited up to 13 s behind the backlog before its first step (measured: the start of each
# in-process launch, 272 of them per run; p90 5.5 s), so that any wait on a real-time
# deadline in a test measured the whole suite. At 32 the longest such wait was 1.3 s and
# the run was faster (25 s against 31 s), as was the plain run (7.2 s against 8.6 s).
swift_test_flags=(--experimental-maximum-parallelization-width 32)
