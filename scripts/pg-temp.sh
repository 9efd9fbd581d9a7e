#!/usr/bin/env bash
# A throw-away PostgreSQL server from Debian's packages, for tests and scripts.
#
#   scripts/pg-temp.sh start [DIR]   initdb + start in DIR (made with mktemp when not given);
#                                    prints the URL of database "senet" as the LAST line of stdout
#   scripts/pg-temp.sh fresh DIR     stop and delete what a former start left in DIR, then start;
#                                    when PostgreSQL is not installed, says so and exits 0 (CTest's
#                                    fixture: the tests then skip)
#   scripts/pg-temp.sh url DIR       prints that URL again
#   scripts/pg-temp.sh stop DIR      stops the server and deletes DIR
#   scripts/pg-temp.sh down DIR      stops the server, keeping DIR (tests of a database outage)
#   scripts/pg-temp.sh up DIR        starts it again after `down`, on the same socket and port
#
# The server listens on a unix socket in DIR only (no TCP port to collide with), unless
# SENET_PG_PORT=N is set: then also on 127.0.0.1:N, and the URL names that. It runs as the
# calling user, or, when called as root (initdb refuses root), as `nobody` (setpriv). The
# superuser is "senet", trusted without a password: never use this for anything but tests.
# fsync is off (faster; a crash of the *machine* may lose data, a killed senet-server cannot);
# SENET_PG_DURABLE=1 keeps PostgreSQL's defaults. Binaries: SENET_PG_BIN, else the newest
# /usr/lib/postgresql/*/bin. Exit codes: 0 ok, 2 usage, 3 PostgreSQL is not installed, 1 else.
set -euo pipefail

die() { echo "pg-temp: $*" >&2; exit 1; }

find_bin() {
  if [ -n "${SENET_PG_BIN:-}" ]; then echo "$SENET_PG_BIN"; return; fi
  local best=""
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && best="$d"
  done
  echo "$best"
}

url_of() {
  local dir=$1
  if [ -f "$dir/port" ]; then
    echo "postgresql://senet@127.0.0.1:$(cat "$dir/port")/senet"
  else
    echo "postgresql:///senet?host=$dir&user=senet"
  fi
}

# Runs a command as the unprivileged owner of the cluster.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd "$dir" && setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env -- "$@")
  else
    (cd "$dir" && "$@")
  fi
}

cmd=${1:-}
case "$cmd" in
  start)
    bin=$(find_bin)
    [ -n "$bin" ] || { echo "pg-temp: PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; scripts/setup.sh installs it)" >&2; exit 3; }
    dir=${2:-}
    if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/senet-pg.XXXXXX); fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ ! -e "$dir/data" ] || die "$dir/data exists already"
    # The socket path must fit in 107 bytes.
    [ ${#dir} -le 90 ] || die "directory path too long for a unix socket: $dir"
    if [ "$(id -u)" -eq 0 ]; then chown nobody:nogroup "$dir"; chmod 0755 "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U senet -A trust -E UTF8 --locale=C.UTF-8 --no-sync --no-instructions \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    if [ -n "${SENET_PG_PORT:-}" ]; then
      opts="-c listen_addresses=127.0.0.1 -c port=$SENET_PG_PORT"
      echo "$SENET_PG_PORT" >"$dir/port"
    else
      opts="-c listen_addresses=''"
    fi
    opts+=" -c unix_socket_directories='$dir' -c max_connections=300 -c shared_buffers=32MB"
    opts+=" -c dynamic_shared_memory_type=mmap"
    [ "${SENET_PG_DURABLE:-0}" = 1 ] || opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    echo "$opts" >"$dir/opts"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$opts" start >/dev/null \
      || { cat "$dir/server.log" >&2 || true; die "pg_ctl start failed"; }
    if [ -f "$dir/port" ]; then sock=(-h 127.0.0.1 -p "$(cat "$dir/port")"); else sock=(-h "$dir"); fi
    as_owner "$bin/createdb" "${sock[@]}" -U senet senet || die "createdb failed"
    echo "$bin" >"$dir/bin"
    url_of "$dir"
    ;;
  fresh)
    [ -n "${2:-}" ] || { echo "usage: $0 fresh DIR" >&2; exit 2; }
    [ ! -d "$2" ] || "$0" stop "$2"
    rc=0
    "$0" start "$2" || rc=$?
    if [ "$rc" -eq 3 ]; then echo "pg-temp: PostgreSQL is not installed: the PostgreSQL tests will skip"; exit 0; fi
    exit "$rc"
    ;;
  url)
    [ -n "${2:-}" ] || { echo "usage: $0 url DIR" >&2; exit 2; }
    dir=$(cd "$2" && pwd)
    url_of "$dir"
    ;;
  stop)
    [ -n "${2:-}" ] || { echo "usage: $0 stop DIR" >&2; exit 2; }
    dir=$(cd "$2" && pwd)
    if [ -f "$dir/data/postmaster.pid" ]; then
      bin=$(cat "$dir/bin" 2>/dev/null || find_bin)
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    # Only a directory this script made a cluster in is deleted.
    if [ -f "$dir/bin" ] || [ -f "$dir/initdb.log" ]; then rm -rf "$dir"; fi
    ;;
  down|up)
    [ -n "${2:-}" ] || { echo "usage: $0 $cmd DIR" >&2; exit 2; }
    dir=$(cd "$2" && pwd)
    [ -f "$dir/opts" ] || die "$dir holds no server made by this script"
    bin=$(cat "$dir/bin")
    if [ "$cmd" = down ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null || die "pg_ctl stop failed"
    else
      as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/opts")" start >/dev/null \
        || { cat "$dir/server.log" >&2 || true; die "pg_ctl start failed"; }
    fi
    ;;
  *)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
