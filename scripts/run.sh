#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs Senet online on http://localhost:${SENET_PORT:-8080}
# with its SQLite database in ./data. Until the server is part of the build, it runs a
# self-play demo of the senet tool instead.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

if [ -x build/server/senet-server ]; then
  mkdir -p data
  exec build/server/senet-server --port "${SENET_PORT:-8080}" --data-dir data --web-root web
fi

echo "senet-server is not built yet; self-play demo of build/cli/senet:"
for rules in standard jequier bell; do
  build/cli/senet selfplay --rules "$rules" --games 10000 --seed 1
  echo
done
