#!/bin/bash
# CPU time (user + system, every thread) one senet-server spends per action, which depends less
# on the machine's load than throughput does. Two runs of S1 and S2 seconds, each against a fresh
# server; (cpu2 - cpu1) / (actions2 - actions1) cancels start-up and game creation.
#   bash bench/server/cpu_per_action.sh BINARY [PORT]
# Environment: MODE (closed), GAMES (500), S1 (3), S2 (9), INTERVAL (250 ms, paced only).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bench=${BENCH:-$here/build/bench/server/server_bench}
bin=$1 port=${2:-18961}
measure() {
  local d pid acts
  d=$(mktemp -d /tmp/senet-cpu-XXXX)
  "$bin" --port "$port" --data-dir "$d" --web-root "$here/web" --rate 100000 --burst 100000 --threads 2 \
    --create-burst 1000000000 --join-burst 1000000000 --max-waiting-games 1000000000 \
    --max-connections-per-address 10000000 --max-connections 10000000 >"$d/log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
  "$bench" --games "${GAMES:-500}" --seconds "$1" --mode "${MODE:-closed}" --interval-ms "${INTERVAL:-250}" \
    --against server --port "$port" >/dev/null 2>&1
  read -r -a st <"/proc/$pid/stat"
  acts=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^senet_actions_total/ {print $2}')
  kill "$pid"; wait "$pid" 2>/dev/null
  grep 'commits' "$d/log" >&2
  rm -rf "$d"
  echo "$((st[13] + st[14])) $acts"
}
read -r c1 a1 < <(measure "${S1:-3}")
read -r c2 a2 < <(measure "${S2:-9}")
hz=$(getconf CLK_TCK)
echo "$bin: $a1 and $a2 actions -> $(python3 -c "print(round(($c2-$c1)/$hz/($a2-$a1)*1e6,1))") CPU-us per action"
