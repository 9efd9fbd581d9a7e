#!/usr/bin/env bash
# Sets up a fresh machine, builds, and runs Senet online on http://localhost:${SENET_PORT:-8080}
# with its SQLite database in ./data.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

mkdir -p data
exec build/server/senet-server --port "${SENET_PORT:-8080}" --data-dir data --web-root web
