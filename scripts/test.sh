#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs every test: the C++ suites through CTest (engine
# rules, CLI contract, computer opponent, server over real sockets), the fuzz targets for a
# bounded time (scripts/fuzz.sh) and, when present, the browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

ctest --test-dir build --output-on-failure -j"$(nproc)"

# The fuzz targets (fuzz/README.md), each for a bounded time: fails on any crash, leak or UB.
bash scripts/fuzz.sh

if [ -f web/package.json ] && grep -q '"test"' web/package.json; then
  SENET_SERVER="$PWD/build/server/senet-server" npm --prefix web test
fi
