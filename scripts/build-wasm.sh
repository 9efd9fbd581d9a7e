#!/usr/bin/env bash
# Builds the engine for the browser: engine/ (the rules), the expert's evaluation from
# engine/ai and the bindings engine/wasm/bindings.cpp compiled by Debian's emscripten
# (scripts/setup.sh installs it) into build-wasm/engine.wasm, a standalone module with no JS
# glue (web/src/engine/wasm.ts instantiates it). The web build (web/scripts/build.mjs) runs
# this and fingerprints the result into web/dist. Does nothing when the module is newer than
# every source; --force rebuilds anyway. Prints the raw, gzip and brotli sizes.
set -euo pipefail
cd "$(dirname "$0")/.."

out=build-wasm
wasm=$out/engine.wasm
sources=(
  engine/src/ruleset.cpp engine/src/position.cpp engine/src/movegen.cpp engine/src/game.cpp
  engine/src/record.cpp engine/src/record_positions.cpp engine/src/json_members.cpp
  engine/ai/src/evaluation.cpp engine/ai/src/learned.cpp engine/ai/src/features.cpp
  engine/ai/src/search.cpp engine/ai/src/win_probability.cpp
  engine/wasm/bindings.cpp
)
exports=senet_alloc,senet_free,senet_result_ptr,senet_result_len,senet_moves,senet_apply,senet_throw_odds,senet_win_probability,senet_replay

if ! command -v em++ >/dev/null 2>&1; then
  echo "build-wasm: em++ not found; install Debian's emscripten (scripts/setup.sh)" >&2
  exit 1
fi

if [ "${1:-}" != "--force" ] && [ -f "$wasm" ] &&
   [ -z "$(find engine/include engine/src engine/ai/include engine/ai/src engine/wasm "$0" -newer "$wasm" -type f -print -quit)" ]; then
  exit 0
fi

mkdir -p "$out/include"
# nlohmann-json (header only) from Debian's package, without the rest of /usr/include.
ln -sfn /usr/include/nlohmann "$out/include/nlohmann"

# -Oz and no exceptions/RTTI for size; STANDALONE_WASM without a main makes a reactor module
# whose only imports are never called by valid use (wasm.ts traps them); the heap may grow.
em++ -std=c++20 -Oz -flto -fno-exceptions -fno-rtti -DNDEBUG \
  -Iengine/include -Iengine/ai/include -isystem "$out/include" \
  "${sources[@]}" \
  --no-entry -sSTANDALONE_WASM=1 -sFILESYSTEM=0 -sALLOW_MEMORY_GROWTH=1 -sMALLOC=emmalloc \
  -sINITIAL_MEMORY=2MB -sTOTAL_STACK=512KB -sEXPORTED_FUNCTIONS="$(sed 's/\([a-z_]*\)/_\1/g' <<<"$exports")" \
  -o "$wasm.tmp.wasm"
mv "$wasm.tmp.wasm" "$wasm"

raw=$(stat -c %s "$wasm")
gz=$(gzip -9c "$wasm" | wc -c)
br=$(command -v brotli >/dev/null 2>&1 && brotli -c -q 11 "$wasm" | wc -c || node -e 'const z=require("zlib");process.stdout.write(String(z.brotliCompressSync(require("fs").readFileSync(process.argv[1]),{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length))' "$wasm")
echo "build-wasm: $wasm $raw B, $gz B gzip, $br B brotli"
