# Shared by the CLI contract scripts (source it after `set -u`): checks the program given as
# the script's first argument, makes a scratch folder, and gives the helpers below.
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
# Sets SENET (the program), TMP (removed at exit), HERE (this folder), checks and failures.

SENET=${1:?usage: $(basename "$0") PATH_TO_SENET}
if [[ ! -x $SENET ]]; then
  echo "FAIL: $SENET is not an executable program"
  exit 1
fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

# fail MESSAGE...: prints the failed check and counts it.
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run ARGS...: runs the program; sets rc, out (stdout) and err (stderr).
run() {
  "$SENET" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  rc=$?
  out=$(cat "$TMP/out")
  err=$(cat "$TMP/err")
}

# show ARGS...: the arguments quoted as a shell would need them (for messages).
show() { printf '%q ' "$@"; }

# finish: prints the counts; its status is 1 when any check failed (the script's last command).
finish() {
  echo "$checks checks, $failures failed"
  [[ $failures -eq 0 ]]
}
