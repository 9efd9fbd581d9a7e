#!/usr/bin/env bash
# The cluster test (deploy/README.md): PostgreSQL, several senet-server instances and nginx in
# front of them, all on free ports in a temporary directory; plays many games (friend and
# computer) through nginx, SIGKILLs one instance in the middle, lets every game finish, then
# checks every game's record against the actions the client saw acknowledged and with
# `senet verify`; then the lobby across instances (scripts/cluster_lobby.py): seekers of every
# pair of instances paired and playing through nginx, seekers through nginx paired at once, and
# the seekers of an instance killed meanwhile paired again after their reconnect. The LAST line is
#   games finished N/N, acknowledged actions lost 0, duplicated 0, records verified N/N, takeover p99 X ms
# and the exit status is 0 only when all of it holds.
#
#   scripts/cluster-test.sh [--games N] [--instances K] [--lease-ttl MS] [--build DIR] [--keep]
#
# Needs PostgreSQL's server binaries and nginx (scripts/setup.sh installs both); builds
# senet-server, senet and cluster_client into DIR (default build/) when they are missing. Exit
# code 77 when nginx or PostgreSQL is not installed (CTest counts it as skipped). Works as root
# (PostgreSQL then runs as nobody) and as an unprivileged user.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

games=300
instances=3
lease_ttl=3000
build=build
keep=0
usage() { echo "usage: $0 [--games N] [--instances K] [--lease-ttl MS] [--build DIR] [--keep]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --games|--instances|--lease-ttl|--build) [ $# -ge 2 ] || usage ;;
  esac
  case "$1" in
    --games) games=$2; shift 2 ;;
    --instances) instances=$2; shift 2 ;;
    --lease-ttl) lease_ttl=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: $0 [--games N] [--instances K] [--lease-ttl MS] [--build DIR] [--keep]" >&2; exit 2 ;;
  esac
done
number() { [[ "$2" =~ ^[0-9]{1,6}$ ]] && [ "$2" -ge "$3" ] || { echo "cluster-test: $1 must be a whole number of at least $3" >&2; exit 2; }; }
number --games "$games" 1
number --instances "$instances" 2
number --lease-ttl "$lease_ttl" 300
[ "$instances" -ge 2 ] || { echo "cluster-test: --instances must be at least 2 (one is killed)" >&2; exit 2; }

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "cluster-test: nginx is not installed (scripts/setup.sh installs it); skipped"; exit 77; }
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [ -n "${SENET_PG_BIN:-}" ] ||
  { echo "cluster-test: PostgreSQL is not installed (scripts/setup.sh installs it); skipped"; exit 77; }

server=$build/server/senet-server
client=$build/bench/server/cluster_client
cli=$build/cli/senet
if [ ! -x "$server" ] || [ ! -x "$client" ] || [ ! -x "$cli" ]; then
  echo "cluster-test: building senet-server, senet and cluster_client in $build"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j2 --target senet-server senet cluster_client >/dev/null
fi

tmp=$(mktemp -d /tmp/senet-cluster.XXXXXX)
chmod 0755 "$tmp"
pids=()
nginx_pid=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}" $nginx_pid; do wait "$p" 2>/dev/null || true; done
  bash "$root/scripts/pg-temp.sh" stop "$tmp/pg" >/dev/null 2>&1 || true
  if [ "$keep" = 1 ]; then echo "cluster-test: kept $tmp" >&2; else rm -rf "$tmp"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free TCP port on 127.0.0.1 (the kernel picks it; nothing else binds it in the instant after).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Waits until FILE has a line matching PATTERN (a process's start line), at most 30 s.
wait_for_line() {
  local file=$1 pattern=$2 pid=$3
  for _ in $(seq 300); do
    grep -q "$pattern" "$file" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || { echo "cluster-test: process $pid died:" >&2; cat "$file" >&2; return 1; }
    sleep 0.1
  done
  echo "cluster-test: timed out waiting for '$pattern' in $file" >&2
  return 1
}

echo "cluster-test: PostgreSQL in $tmp/pg"
url=$(bash scripts/pg-temp.sh start "$tmp/pg" | tail -n 1)

# The instances share one record signing key: a record verifies with the same key wherever it
# is served. The first instance makes it; the others get a copy before they start.
start_instance() {
  local n=$1
  local dir=$tmp/s$n
  mkdir -p "$dir"
  [ "$n" = 1 ] || cp "$tmp/s1/signing-key.pem" "$dir/signing-key.pem"
  # Its own web root, as after a rolling upgrade each instance serves the web build it started
  # with: the repository's web/ plus a static file that only this instance has.
  local web=$tmp/web$n
  mkdir -p "$web"
  for f in "$root"/web/*; do [ "$(basename "$f")" = dist ] || ln -sfn "$f" "$web/"; done
  [ -d "$web/dist" ] || { if [ -d "$root/web/dist" ]; then cp -r "$root/web/dist" "$web/dist"; else mkdir "$web/dist"; fi; }
  echo "build of s$n" >"$web/dist/only-on-s$n.txt"
  "$server" --port 0 --data-dir "$dir" --web-root "$web" --database "$url" --instance "s$n" \
    --lease-ttl "$lease_ttl" --threads 2 --trusted-proxy 127.0.0.1 \
    --rate 100000 --burst 100000 --create-burst 1000000000 --join-burst 1000000000 \
    --max-waiting-games 1000000000 --max-connections-per-address 10000000 \
    --computer-delay-ms 20 --ai-budget-ms 5 >"$dir/log" 2>&1 &
  pids+=($!)
  wait_for_line "$dir/log" "listening on" $!
  grep -o '127.0.0.1:[0-9]*' "$dir/log" | head -n 1 | cut -d: -f2 >"$dir/port"
}
for n in $(seq "$instances"); do start_instance "$n"; done
echo "cluster-test: $instances instances on ports $(cat "$tmp"/s*/port | tr '\n' ' ')"

# nginx: the deploy/ routing with this run's upstream servers, as a foreground process with its
# own prefix (logs, pid and temp files in $tmp/nginx).
ngx=$tmp/nginx
mkdir -p "$ngx/logs"
nginx_port=$(free_port)
cp deploy/nginx-senet.conf deploy/nginx-senet-server.conf "$ngx/"
{
  [ "$(id -u)" -ne 0 ] || echo "user root;"
  echo "worker_processes 1;"
  echo "worker_rlimit_nofile 16384;"
  echo "pid $ngx/nginx.pid;"
  echo "error_log $ngx/logs/error.log warn;"
  echo "events { worker_connections 8192; }"
  echo "http {"
  echo "  access_log off;"
  for d in client_body proxy fastcgi uwsgi scgi; do echo "  ${d}_temp_path $ngx/$d;"; done
  echo "  include $ngx/nginx-senet.conf;"
  echo "  upstream senet {"
  echo "    hash \$senet_game_id consistent;"
  for n in $(seq "$instances"); do echo "    server 127.0.0.1:$(cat "$tmp/s$n/port") max_fails=1 fail_timeout=5s;"; done
  echo "    keepalive 64;"
  echo "  }"
  echo "  server {"
  echo "    listen 127.0.0.1:$nginx_port;"
  echo "    include $ngx/nginx-senet-server.conf;"
  echo "  }"
  echo "}"
} >"$ngx/nginx.conf"
ulimit -n 16384 2>/dev/null || true
"$nginx_bin" -p "$ngx" -c "$ngx/nginx.conf" -g 'daemon off;' >"$ngx/logs/stdout.log" 2>&1 &
nginx_pid=$!
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$nginx_port/healthz" >/dev/null 2>&1 && break
  kill -0 "$nginx_pid" 2>/dev/null || { cat "$ngx/logs/"* >&2; exit 1; }
  sleep 0.1
done
echo "cluster-test: nginx on port $nginx_port"

# The shipped nginx routing keeps /metrics to the instances (deploy/README.md, "Metrics"): through
# nginx it is 404, however the path is spelled, while /healthz and the API still pass.
routing_ok=1
status() { curl -s -o /dev/null -w '%{http_code}' --path-as-is "http://127.0.0.1:$nginx_port$1"; }
for p in /metrics '/metrics?format=text' //metrics /%6Detrics /./metrics; do
  s=$(status "$p")
  [ "$s" = 404 ] || { echo "cluster-test: GET $p through nginx answered $s, expected 404" >&2; routing_ok=0; }
done
for p in /healthz /api/key; do
  s=$(status "$p")
  [ "$s" = 200 ] || { echo "cluster-test: GET $p through nginx answered $s, expected 200" >&2; routing_ok=0; }
done
# A static file only one instance has (a build another lacks, as in a rolling upgrade) is found
# through nginx every time: a 404 is retried on the next instance.
for n in $(seq "$instances"); do
  for _ in $(seq $((2 * instances))); do
    s=$(status "/static/only-on-s$n.txt")
    [ "$s" = 200 ] || { echo "cluster-test: GET /static/only-on-s$n.txt through nginx answered $s, expected 200" >&2; routing_ok=0; break; }
  done
done
s=$(status /static/on-no-instance.txt)
[ "$s" = 404 ] || { echo "cluster-test: GET /static/on-no-instance.txt through nginx answered $s, expected 404" >&2; routing_ok=0; }
s=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$(cat "$tmp/s1/port")/metrics")
[ "$s" = 200 ] || { echo "cluster-test: GET /metrics on instance s1 itself answered $s, expected 200" >&2; routing_ok=0; }
echo "cluster-test: /metrics through nginx refused, /healthz passes, static files of every build found: $([ "$routing_ok" = 1 ] && echo yes || echo NO)"

# The instance killed in the middle: the second one. "The middle": when about as many actions
# have been acknowledged as half the games' usual length (about 170 acknowledged a game).
victim=${pids[1]}
kill_after=$((games * 80))
set +e
"$client" --port "$nginx_port" --games "$games" --kill "$victim" --kill-after-acks "$kill_after" \
  --records "$tmp/records" --think-ms 30 --timeout-s 600 >"$tmp/client.out" 2>"$tmp/client.err"
client_rc=$?
set -e
tail -n 20 "$tmp/client.err" >&2 || true
result=$(grep '^RESULT ' "$tmp/client.out" | tail -n 1 || true)
[ -n "$result" ] || { echo "cluster-test: the client gave no result (exit $client_rc)" >&2; exit 1; }
field() { echo "$result" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
finished=$(field finished)
lost=$(field lost)
duplicated=$(field duplicated)
p99=$(field takeover_p99_ms)

# Every record with `senet verify`, against the key the instances sign with.
curl -fsS "http://127.0.0.1:$nginx_port/api/key" >"$tmp/key.json"
verified=0
for f in "$tmp"/records/*.json; do
  [ -e "$f" ] || continue
  if "$cli" verify "$f" --key "$tmp/key.json" >/dev/null 2>>"$tmp/verify.err"; then verified=$((verified + 1)); fi
done
[ ! -s "$tmp/verify.err" ] || head -n 5 "$tmp/verify.err" >&2

# What the survivors' /metrics say about the takeover.
for n in $(seq "$instances"); do
  [ "$n" = 2 ] && continue
  m=$(curl -fsS "http://127.0.0.1:$(cat "$tmp/s$n/port")/metrics" || true)
  echo "cluster-test: s$n: $(echo "$m" | grep -E '^senet_(lease_[a-z_]+|leases_lost_total|moved_closes_total|games_created_total) ' | tr '\n' ' ')"
done
echo "cluster-test: client: $result"

# One live process per instance name: a second s1 is refused with exit status 3 (the one the
# systemd unit does not restart on, server/README.md), naming the instance, and the killed s2
# starts again at once under its own name.
names_ok=1
set +e
dup_out=$(timeout 30 "$server" --port 0 --data-dir "$tmp/dup" --web-root "$root/web" --database "$url" --instance s1 2>&1)
dup_rc=$?
set -e
if [ "$dup_rc" != 3 ] || ! grep -q 'instance "s1" is already running' <<<"$dup_out"; then
  echo "cluster-test: a second s1 was not refused (exit $dup_rc): $dup_out" >&2
  names_ok=0
fi
# The systemd unit must not restart on that status (a restart cannot free the name).
if ! grep -Eq "^RestartPreventExitStatus=([0-9 ]* )?$dup_rc( |\$)" deploy/senet-server@.service; then
  echo "cluster-test: deploy/senet-server@.service does not list exit status $dup_rc in RestartPreventExitStatus=" >&2
  names_ok=0
fi
restart_start=$(date +%s%N)
start_instance 2 || names_ok=0
echo "cluster-test: a second s1 refused (exit $dup_rc); s2 listening again $(( ($(date +%s%N) - restart_start) / 1000000 )) ms after its restart"

# The lobby across instances (server/README.md): the restarted s2 (not in nginx's ring: it has a
# new port) is the instance killed while it holds open seeks.
lobby_ok=1
live_ports=$(for n in $(seq "$instances"); do cat "$tmp/s$n/port"; done | paste -sd, -)
set +e
python3 scripts/cluster_lobby.py --nginx "$nginx_port" --instances "$live_ports" --victim-pid "${pids[${#pids[@]}-1]}" \
  --victim-port "$(cat "$tmp/s2/port")" >"$tmp/lobby.out" 2>"$tmp/lobby.err"
lobby_rc=$?
set -e
tail -n 5 "$tmp/lobby.err" >&2 || true
echo "cluster-test: $(tail -n 1 "$tmp/lobby.out")"
[ "$lobby_rc" = 0 ] || lobby_ok=0

ok=1
[ "$lobby_ok" = 1 ] || ok=0
[ "$names_ok" = 1 ] || ok=0
[ "$routing_ok" = 1 ] || ok=0
[ "$finished" = "$games" ] || ok=0
[ "$lost" = 0 ] || ok=0
[ "$duplicated" = 0 ] || ok=0
[ "$verified" = "$games" ] || ok=0
[ "$client_rc" = 0 ] || ok=0
echo "games finished $finished/$games, acknowledged actions lost $lost, duplicated $duplicated, records verified $verified/$games, takeover p99 $p99 ms"
[ "$ok" = 1 ]
