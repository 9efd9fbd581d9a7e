#!/usr/bin/env bash
# Mutation testing (not part of the test command): small deliberate bugs, one at a time, and
# whether the tests catch them. Writes bench/mutation.md.
#
#   bash scripts/mutation.sh [OPTIONS]      the C++ files of scripts/mutation/targets.txt (options:
#                                           scripts/mutation/mutate_cpp.py --help), then web/src/
#                                           with Stryker (npm --prefix web run mutation)
#   bash scripts/mutation.sh --no-web ...   the C++ part only (implied by --file, --list,
#                                           --report-only and --rerun-survivors)
#   bash scripts/mutation.sh --web-only     the web/src/ part only
#
# See scripts/mutation/README.md for the operators, equivalent mutants and run times.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
web=1 cpp=1 args=()
for a in "$@"; do
  case $a in
    --no-web) web=0 ;;
    --web-only) cpp=0 ;;
    --file | --file=* | --list | --report-only | --rerun-survivors | -h | --help) web=0; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done
if ((cpp)); then python3 "$here/mutation/mutate_cpp.py" "${args[@]}"; fi
if ((web)); then
  npm --prefix "$root/web" ci --no-audit --no-fund
  npm --prefix "$root/web" run mutation
fi
