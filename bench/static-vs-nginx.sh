#!/usr/bin/env bash
# Static files and pages: senet-server against nginx serving the same files, side by side in
# one run, measured with wrk. Prints one table (requests/s of each, the ratio server/nginx and
# the bytes of each answer) and also writes it to $OUT when set.
#
#   bash bench/static-vs-nginx.sh                 # 5 rounds of 3 s per case and server
#   ROUNDS=5 SECONDS_PER_RUN=10 CONNECTIONS=64 bash bench/static-vs-nginx.sh
#   NICE=-10 bash bench/static-vs-nginx.sh         # (root) ahead of other work on a shared machine
#
# Needs: build/server/senet-server (bash scripts/build.sh), web/dist built with its .gz/.br
# (cd web && npm run build), nginx, libnginx-mod-http-brotli-static and wrk (Debian packages;
# scripts/setup.sh installs them). nginx runs as a foreground process with its own prefix and
# configuration in a temporary directory on a free port; the home page it serves is the
# server's own /en/ saved as a file with its .gz and .br, so both send the same bytes.
# Both get the same number of worker threads (THREADS, default 2). Each round runs every case
# on the server and right after on nginx, so that a busy machine slows both alike; the table
# gives the median requests/s of each and the median of the per-round ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

ROUNDS=${ROUNDS:-5}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
OUT=${OUT:-/dev/null}
server_bin=${SENET_SERVER:-$root/build/server/senet-server}
NICE=${NICE:-0}
run() { nice -n "$NICE" "$@"; }
# start CMD...: runs CMD in the background as a process of its own (nice execs it, so $! is the
# server's own pid, not a subshell's) and records it for cleanup.
start() {
  nice -n "$NICE" "$@" &
  pids+=($!)
}

for tool in nginx wrk curl node; do
  command -v "$tool" >/dev/null 2>&1 || { echo "static-vs-nginx: $tool not found (bash scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$server_bin" ] || { echo "static-vs-nginx: $server_bin missing (bash scripts/build.sh)" >&2; exit 1; }
[ -f web/dist/manifest.json ] || { echo "static-vs-nginx: web/dist missing (cd web && npm run build)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/senet-static-bench.XXXXXX")
pids=()
# Stops exactly what this script started, on success, failure and interruption.
cleanup() {
  trap - EXIT INT TERM
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() {
  for _ in $(seq 1 100); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "static-vs-nginx: $1 did not answer" >&2; exit 1
}

# The fingerprinted script of the play page, as the pages link it.
js=$(node -e 'const m=require("./web/dist/manifest.json"); process.stdout.write(m["play.js"])')

# senet-server on the real web root.
sport=$(free_port)
mkdir -p "$tmp/data"
start "$server_bin" --port "$sport" --data-dir "$tmp/data" --web-root "$root/web" --threads "$THREADS" \
  --max-connections-per-address 10000 >"$tmp/server.log" 2>&1
wait_http "http://127.0.0.1:$sport/healthz"

# The home page as a file for nginx, with its .gz and .br (same levels as the build's).
mkdir -p "$tmp/html/en"
curl -fs "http://127.0.0.1:$sport/en/" -o "$tmp/html/en/index.html"
node --input-type=module -e "
import { compressDir } from '$root/web/scripts/compress.mjs';
compressDir('$tmp/html');"

# nginx: its own prefix and configuration, in the foreground.
nport=$(free_port)
mkdir -p "$tmp/nginx/logs"
brotli_module=/usr/lib/nginx/modules/ngx_http_brotli_static_module.so
load_brotli="" brotli_on=""
if [ -f "$brotli_module" ]; then
  load_brotli="load_module $brotli_module;"
  brotli_on="brotli_static on;"
fi
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user root;"
cat >"$tmp/nginx/nginx.conf" <<EOF
$load_brotli
$user_line
worker_processes $THREADS;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  gzip_static on;
  gzip_vary on;
  $brotli_on
  server {
    listen 127.0.0.1:$nport;
    location /static/ {
      alias $root/web/dist/;
      add_header Cache-Control "public, max-age=31536000, immutable";
    }
    location /en/ {
      root $tmp/html;
      index index.html;
      add_header Cache-Control "no-cache";
    }
  }
}
EOF
start nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e "$tmp/nginx/logs/error.log" -g 'daemon off;'
wait_http "http://127.0.0.1:$nport/en/"

# One wrk run: prints requests/s.
rps() { # url accept-encoding
  local args=(-t1 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency)
  [ -n "$2" ] && args+=(-H "Accept-Encoding: $2")
  run wrk "${args[@]}" "$1" | awk '/^Requests\/sec:/ { print $2 }'
}
bytes() { # url accept-encoding
  curl -fs -o /dev/null -w '%{size_download}' ${2:+-H "Accept-Encoding: $2"} "$1"
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

cases=("$js|" "$js|gzip" "$js|gzip, deflate, br" "/en/|" "/en/|gzip" "/en/|gzip, deflate, br")
declare -A server_runs nginx_runs ratio_runs
for round in $(seq 1 "$ROUNDS"); do
  for c in "${cases[@]}"; do
    path=${c%%|*} enc=${c#*|}
    s=$(rps "http://127.0.0.1:$sport$path" "$enc")
    n=$(rps "http://127.0.0.1:$nport$path" "$enc")
    server_runs[$c]+="$s "
    nginx_runs[$c]+="$n "
    ratio_runs[$c]+="$(awk -v s="$s" -v n="$n" 'BEGIN { printf "%.3f", s / n }') "
  done
  echo "round $round of $ROUNDS done" >&2
done

{
  echo "| request | Accept-Encoding | senet-server req/s | nginx req/s | server / nginx (median, range) | bytes (server / nginx) |"
  echo "|---|---|---:|---:|---:|---|"
  for c in "${cases[@]}"; do
    path=${c%%|*} enc=${c#*|}
    s=$(tr ' ' '\n' <<<"${server_runs[$c]}" | grep . | median)
    n=$(tr ' ' '\n' <<<"${nginx_runs[$c]}" | grep . | median)
    ratio=$(tr ' ' '\n' <<<"${ratio_runs[$c]}" | grep . | median)
    ratio=$(awk -v r="$ratio" 'BEGIN { printf "%.2f", r }')
    range=$(tr ' ' '\n' <<<"${ratio_runs[$c]}" | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f–%.2f", lo, hi }')
    label=$path
    [ "$path" = "$js" ] && label="GET $path (play.js)" || label="GET $path (home page)"
    printf '| %s | %s | %.0f | %.0f | **%s** (%s) | %s / %s |\n' "$label" "${enc:-(none)}" "$s" "$n" "$ratio" "$range" \
      "$(bytes "http://127.0.0.1:$sport$path" "$enc")" "$(bytes "http://127.0.0.1:$nport$path" "$enc")"
  done
  echo
  echo "wrk -t1 -c$CONNECTIONS -d${SECONDS_PER_RUN}s per run, $ROUNDS rounds (server then nginx for each case); both with $THREADS worker threads;"
  echo "nice $NICE; nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') with gzip_static${brotli_on:+ and brotli_static}; $(nproc) cores; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
} | tee "$OUT"
