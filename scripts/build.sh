#!/usr/bin/env bash
# Builds everything into build/: the C++ tree (engine, senet tool, server, tests, benchmarks)
# and, when web/ has a package.json, the browser bundle (web/dist/).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -f web/package.json ]; then
  # The engine for the browser first (build-wasm/engine.wasm); the web build fingerprints it.
  scripts/build-wasm.sh
  (cd web && npm ci --no-audit --no-fund && npm run build)
fi
launcher=()
# ccache (when present) makes rebuilds cheap; paths relative to the checkout so clones share it.
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) && export CCACHE_BASEDIR="$PWD"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
cmake --build build -j"$(nproc)"
