#!/usr/bin/env bash
# Mutation testing of the C++ code (not part of scripts/test.sh): small deliberate bugs, one at a
# time, each rebuilt in build-mutation/ and run against the tests mapped to its file in
# scripts/mutation/targets.txt; the per-file table goes to bench/mutation.md.
# Usage and operators: scripts/mutation/README.md, or `scripts/mutation.sh --help`.
#   bash scripts/mutation.sh                       # every file of targets.txt, sampled (about an hour on 2 cores)
#   bash scripts/mutation.sh --file server/src/protocol.cpp --sample 0
#   bash scripts/mutation.sh --root /other/checkout --file cli/src/main.cpp --list
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$here")}"
exec python3 "$here/mutation/mutate_cpp.py" "$@"
