#!/usr/bin/env bash
# Installs every build and test dependency of Senet online from Debian's packages.
# Safe to run again: packages already present are skipped by apt-get.
set -euo pipefail

packages=(
  build-essential cmake g++ pkg-config ccache
  clang libclang-rt-14-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev
  libboost-dev libboost-system-dev
  libsqlite3-dev libssl-dev zlib1g-dev libbrotli-dev
  libpqxx-dev postgresql
  libjemalloc-dev
  libicu-dev
  gettext jq python3
  nginx curl
  chromium
  emscripten
  # The web build's display typeface (web/scripts/fonts.mjs): Cardo (Latin) and Amiri (Arabic),
  # both under the SIL Open Font License, subset to the catalogs' letters as woff2 by fontTools
  python3-fonttools python3-brotli fonts-cardo fonts-hosny-amiri
  # bench/static-vs-nginx.sh and scripts/cluster-test.sh: nginx with its brotli_static module, wrk, curl
  nginx libnginx-mod-http-brotli-static wrk curl
)

# The web build needs Node.js and npm; the machines this runs on bring Node 20. On a bare
# bookworm, Debian's own nodejs and npm are the fallback.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -q
  $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
