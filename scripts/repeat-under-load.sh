#!/usr/bin/env bash
# Runs the whole test command (scripts/test.sh) several times in a row on a busy machine, to show
# the suite does not depend on timing: `stress` keeps CPU workers spinning beside every run.
# Not part of the test command.
#
# Usage: bash scripts/repeat-under-load.sh [RUNS] [CPU_WORKERS]   (defaults: 3 runs, 1 worker)
# Prints one line per run (exit code and minutes) and exits 1 if any run failed; each run's
# output is kept in test-artifacts/repeat-N.log.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
workers=${2:-1}
[[ $runs =~ ^[1-9][0-9]*$ && $workers =~ ^[0-9]+$ ]] || { echo "usage: $0 [RUNS>=1] [CPU_WORKERS>=0]" >&2; exit 2; }
command -v stress >/dev/null || { apt-get install -y -q stress >/dev/null || exit 1; }
mkdir -p test-artifacts
load=""
if ((workers > 0)); then
  stress --cpu "$workers" >/dev/null 2>&1 &
  load=$!
  trap 'kill "$load" 2>/dev/null' EXIT
fi
failed=0
for ((i = 1; i <= runs; i++)); do
  start=$(date +%s)
  bash scripts/test.sh >"test-artifacts/repeat-$i.log" 2>&1
  rc=$?
  printf 'run %d of %d: exit %d after %.1f min (load: %s stress workers, %s)\n' "$i" "$runs" "$rc" \
    "$(awk -v s="$(($(date +%s) - start))" 'BEGIN { print s / 60 }')" "$workers" "$(cut -d' ' -f1-3 /proc/loadavg)"
  ((rc == 0)) || failed=1
done
exit "$failed"
