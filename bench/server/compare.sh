#!/bin/bash
# Compares two senet-server binaries, each beside the echo baseline in the same server_bench run,
# alternating them RUNS times (the machine's load changes between runs; see bench/README.md).
#   bash bench/server/compare.sh OLD_BINARY NEW_BINARY [closed|paced]
# Environment: RUNS (2), GAMES (1000), DURATION (5 s), BENCH (build/bench/server/server_bench).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bench=${BENCH:-$here/build/bench/server/server_bench}
old=$1 new=$2 mode=${3:-closed}
for i in $(seq 1 "${RUNS:-2}"); do
  for bin in "$old" "$new"; do
    echo "=== run $i: $bin ($mode), load average $(cut -d' ' -f1 /proc/loadavg)"
    "$bench" --games "${GAMES:-1000}" --seconds "${DURATION:-5}" --mode "$mode" --server "$bin" --web-root "$here/web" 2>/dev/null |
      grep -v '^bench:'
  done
done
