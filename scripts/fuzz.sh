#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan) into build-fuzz/ and runs each
# for a bounded time from its seed corpus in fuzz/corpus/<target>/. Fails on any crash, leak,
# undefined behaviour, timeout or broken invariant; prints the executions of every target.
#
#   scripts/fuzz.sh                 every target, FUZZ_SECONDS (default 18) each
#   scripts/fuzz.sh room router     only these targets
#   FUZZ_SECONDS=300 scripts/fuzz.sh notation   a longer run of one target
#
# New interesting inputs go to build-fuzz/corpus/<target>/ (not into the repository); a failing
# input is saved as build-fuzz/artifacts/<target>-crash-* (fuzz/README.md: reproducing).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-18}"
all=(protocol room lobby notation record router static framing catalog template engine_protocol table)
targets=("$@")
((${#targets[@]})) || targets=("${all[@]}")

cxx="${FUZZ_CXX:-}"
if [ -z "$cxx" ]; then
  for c in clang++-14 clang++; do
    if command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
  done
fi
[ -n "$cxx" ] || { echo "fuzz.sh: clang++ not found (scripts/setup.sh installs clang and libclang-rt-14-dev)" >&2; exit 1; }

launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -DSENET_FUZZ=ON -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"
mkdir -p build-fuzz/artifacts build-fuzz/logs

failed=()
summary=()
for t in "${targets[@]}"; do
  bin="build-fuzz/fuzz/fuzz_$t"
  work="build-fuzz/corpus/$t"
  mkdir -p "$work"
  args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -max_len=4096 -print_final_stats=1
        -artifact_prefix="build-fuzz/artifacts/$t-" -close_fd_mask=1)
  [ -f "fuzz/dict/$t.dict" ] && args+=(-dict="fuzz/dict/$t.dict")
  log="build-fuzz/logs/$t.log"
  echo "fuzz.sh: $t for ${seconds}s"
  status=0
  "$bin" "${args[@]}" "$work" "fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  line=$(printf '%-10s %10s executions  peak RSS %5s MB' "$t" "${execs:-?}" "${rss:-?}")
  if [ "$status" -ne 0 ]; then
    line+="  FAILED (exit $status)"
    failed+=("$t")
    echo "---- $log (last 60 lines)" >&2
    tail -n 60 "$log" >&2
  fi
  summary+=("$line")
done

echo "fuzz.sh: executions per target (${seconds}s each)"
printf '  %s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz.sh: FAILED: ${failed[*]} (inputs in build-fuzz/artifacts/, logs in build-fuzz/logs/)" >&2
  exit 1
fi
echo "fuzz.sh: no crash, leak or undefined behaviour"
