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

# need TOOL...: stops the script (exit 1, before any check) unless every TOOL is installed.
need() {
  local tool
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "FAIL: $tool is needed (scripts/setup.sh installs it)"
      exit 1
    fi
  done
}

# check DESCRIPTION COMMAND...: counts a check; fails with DESCRIPTION unless COMMAND succeeds.
check() {
  local what=$1
  shift
  checks=$((checks + 1))
  "$@" || fail "$what"
}

# expect_error CODE STDERR_START ARGS...: runs the program with ARGS (see run) and counts a
# check that it exits CODE, prints nothing on stdout and exactly one non-empty line on stderr,
# starting with STDERR_START ("" for any line).
expect_error() {
  local code=$1 start=$2
  shift 2
  checks=$((checks + 1))
  run "$@"
  if [[ $rc -ne $code ]]; then
    fail "senet $(show "$@"): exit $rc, expected $code (stdout: ${out:0:200}; stderr: $err)"
  elif [[ -n $out ]]; then
    fail "senet $(show "$@"): printed to stdout: ${out:0:200}"
  elif [[ -z $err ]]; then
    fail "senet $(show "$@"): no error message on stderr"
  elif [[ $err != "$start"* || $(wc -l <"$TMP/err") -ne 1 ]]; then
    fail "senet $(show "$@"): stderr is not one line starting '$start': $err"
  fi
}

# finish: prints the counts; its status is 1 when any check failed (the script's last command).
finish() {
  echo "$checks checks, $failures failed"
  [[ $failures -eq 0 ]]
}
