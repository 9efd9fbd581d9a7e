#!/usr/bin/env bash
# bench/static-vs-nginx.sh stops exactly what it started: run briefly to its end, and
# interrupted (SIGINT, SIGTERM) once its servers are up, it leaves no senet-server, nginx or wrk
# of its own behind. Usage: bash static_cleanup.sh ROOT SENET_SERVER
set -u
# Job control: a background job then gets SIGINT like a foreground one (not ignored).
set -m
root=$1
server=$2
failures=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Processes whose command line names this test's scratch folder (the benchmark's temporary
# folder is made inside it), other than this script's own.
left() { pgrep -af -- "$scratch/" | grep -v -e static_cleanup.sh -e pgrep || true; }

check_none_left() {
  local what=$1 rest
  for _ in $(seq 1 50); do
    rest=$(left)
    [ -z "$rest" ] && return 0
    sleep 0.1
  done
  echo "FAIL: after $what, still running: $rest"
  failures=$((failures + 1))
}

# 1. To its end: one short round.
if ! TMPDIR=$scratch SENET_SERVER=$server ROUNDS=1 SECONDS_PER_RUN=1 CONNECTIONS=4 \
    bash "$root/bench/static-vs-nginx.sh" >"$scratch/run.log" 2>&1; then
  echo "FAIL: the benchmark failed:"; cat "$scratch/run.log"
  failures=$((failures + 1))
fi
grep -q "server / nginx" "$scratch/run.log" || { echo "FAIL: no table printed:"; cat "$scratch/run.log"; failures=$((failures + 1)); }
check_none_left "a complete run"

# 2. Interrupted once both servers run (nginx's process names the scratch folder too).
for signal in INT TERM; do
  TMPDIR=$scratch SENET_SERVER=$server ROUNDS=50 SECONDS_PER_RUN=2 CONNECTIONS=4 \
    bash "$root/bench/static-vs-nginx.sh" >"$scratch/$signal.log" 2>&1 &
  bench=$!
  for _ in $(seq 1 300); do
    pgrep -f -- "nginx -p $scratch/" >/dev/null && pgrep -f -- "--data-dir $scratch/" >/dev/null && break
    sleep 0.1
  done
  if ! pgrep -f -- "nginx -p $scratch/" >/dev/null; then
    echo "FAIL: the benchmark never started nginx:"; cat "$scratch/$signal.log"
    failures=$((failures + 1))
  fi
  kill -"$signal" "$bench"
  wait "$bench" 2>/dev/null
  check_none_left "SIG$signal"
done

[ "$failures" -eq 0 ] && echo "static-vs-nginx.sh left no process behind (a full run, SIGINT, SIGTERM)"
exit $((failures > 0))
