#!/usr/bin/env bash
# A bounded soak: Benchmarks/soak.sh MINUTES [--release]
#
# Runs `scenectl serve` under mixed traffic (flow changes, opens and dismisses, deep
# links, state reads, subscriptions, relayed calls, connections coming and going) and
# scene churn (process scenes opened, called, dismissed), sampling its RSS every 5 s.
# Fails when RSS after the warm-up (the first fifth) grows more than 5%, or when a
# connection is lost. Debug build by default (what the tests build); --release for figures.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:?usage: Benchmarks/soak.sh MINUTES [--release]}"
configuration=debug
[[ "${2:-}" == "--release" ]] && configuration=release
swift build -c "$configuration" --product scenectl >/dev/null
swift build -c "$configuration" --product soak >/dev/null
bin="$(swift build -c "$configuration" --show-bin-path)"
"$bin/soak" --minutes "$minutes" --scenectl "$bin/scenectl"
