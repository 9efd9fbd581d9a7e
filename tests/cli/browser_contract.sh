#!/usr/bin/env bash
# The commands the WebAssembly build is compared with (engine/wasm, web/test/wasm-engine.test.mjs):
# `senet replay --positions`, `senet winprob` and `senet query`, checked against the built program.
# Usage: bash browser_contract.sh PATH_TO_SENET
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

START=standard:1212121212....................:1:0:0
JSTART=jequier:121212121.2...................:2:0:0
BSTART=bell:12121212121212121212..........:1:0:0
KSTART=kendall:1212121212....................:1:0:0
PSTART=piccione:..............................:1:0:0:0:-:0:0
# Piccione with a remainder of 2 to spend (RULES.md "Piccione", worked example 2)
PREM=piccione:.21.........1......2..........:1:0:0:2:f:0:0
NL=$'\n'

# --- replay --positions ------------------------------------------------------------------------
cat >"$TMP/good.json" <<'JSON'
{"ruleset":"standard","plies":[{"player":1,"throw":2,"sticks":"1100","move":"9-11"},{"player":2,"throw":3,"sticks":"1110","move":"10-13"}],"result":"ongoing"}
JSON
run replay --positions "$TMP/good.json"
check "replay --positions exits 0 (rc $rc, stderr: $err)" test "$rc" -eq 0
check "replay --positions of two plies prints the start and both positions, got:$NL$out" \
  test "$out" = "$START${NL}standard:12121212.21...................:2:0:0${NL}standard:12121212..1.2.................:1:0:0"
# the flag may also come after the file; standard input works as for replay
run replay "$TMP/good.json" --positions
check "replay FILE --positions prints the same, got:$NL$out" test "$(printf '%s\n' "$out" | wc -l)" -eq 3
"$SENET" replay --positions - <"$TMP/good.json" >"$TMP/stdin-out" 2>&1
check "replay --positions - reads standard input" test "$(cat "$TMP/stdin-out")" = "$out"

# A Jéquier record as the server serves it: the first line is the position after the opening,
# one line per ply follows, and the last is what plain `senet replay` prints.
run replay --positions "$HERE/fixtures/jequier.json"
check "replay --positions of the Jéquier fixture exits 0 (stderr: $err)" test "$rc" -eq 0
check "the Jéquier positions start after the opening, got: ${out%%$NL*}" test "${out%%$NL*}" = "$JSTART"
check "the Jéquier fixture's 236 plies give 237 positions" test "$(printf '%s\n' "$out" | wc -l)" -eq 237
last=$(printf '%s\n' "$out" | tail -n 1)
run replay "$HERE/fixtures/jequier.json"
check "the last position is the one senet replay prints ($last)" test "$last" = "${out%%$NL*}"

for args in "--positions" "--positions $TMP/good.json extra" "--position $TMP/good.json" "--positions $TMP/missing.json"; do
  # shellcheck disable=SC2086
  expect_error 2 "" replay $args
done

# --- winprob -----------------------------------------------------------------------------------
in_unit() { awk -v v="$1" 'BEGIN { exit !(v + 0 >= 0 && v + 0 <= 1 && v ~ /^[0-9.e-]+$/) }'; }
for p in "$START" "$JSTART" "$BSTART" "$KSTART" "$PSTART" "$PREM"; do
  run winprob "$p"
  check "winprob $p is a probability (rc $rc, out '$out', err '$err')" test "$rc" -eq 0
  check "winprob $p lies in [0, 1]: '$out'" in_unit "$out"
done
# a clear lead: player 1 has borne off 4 pieces, player 2 none and is far back
run winprob standard:2.2.2.2.2...................1.:1:4:0
check "player 1 far ahead has a chance above 0.9: $out" awk -v v="$out" 'BEGIN { exit !(v > 0.9) }'
run winprob standard:2.2.2.2.2...................1.:2:4:0
check "player 1 far ahead, player 2 to throw: still above 0.9: $out" awk -v v="$out" 'BEGIN { exit !(v > 0.9) }'
run winprob bell:..............................:2:3:3
check "a drawn Bell game is 0.5: $out" test "$out" = "0.5"
run winprob standard:22222.........................:2:5:0
check "a game player 1 won is 1: $out" test "$out" = "1"
run winprob jequier:1111.1........................:1:0:5
check "a game player 2 won is 0: '$out' ($err)" test "$out" = "0"
for args in "" "nonsense" "$START extra"; do
  # shellcheck disable=SC2086
  run winprob $args
  check "winprob $args is rejected with exit 2 (rc $rc)" test "$rc" -eq 2 -a -z "$out"
done

# --- query: many moves/apply/winprob questions on standard input, one answer line each -----------
printf '%s\n' \
  "moves $START 1" \
  "moves $START 4" \
  "apply $START 2 9-11" \
  "apply bell:.............................1:1:2:3 1 30-off" \
  "winprob $START" \
  "moves $START 9" \
  "apply $START 2 1-3" \
  "bogus" \
  "" \
  "moves ${START/1212/xx}" \
  "moves $PREM -" \
  "apply $PREM - 13-15" \
  "moves $PREM 2" \
  "winprob $PREM" \
  "moves $KSTART 4" >"$TMP/queries"
"$SENET" query <"$TMP/queries" >"$TMP/answers" 2>"$TMP/query-err"
rc=$?
mapfile -t a <"$TMP/answers"
run winprob "$START"
check "query exits 0 (rc $rc, stderr $(cat "$TMP/query-err"))" test "$rc" -eq 0
check "query answers each of 15 lines, got ${#a[@]}" test "${#a[@]}" -eq 15
check "query moves: '${a[0]:-}'" test "${a[0]:-}" = "1-2 3-4 5-6 7-8 9-10"
check "query moves: '${a[1]:-}'" test "${a[1]:-}" = "7-11 9-13"
check "query apply: '${a[2]:-}'" test "${a[2]:-}" = "standard:12121212.21...................:2:0:0 ongoing"
check "query apply to a draw: '${a[3]:-}'" test "${a[3]:-}" = "bell:..............................:2:3:3 draw"
check "query winprob equals winprob: '${a[4]:-}' vs '$out'" test "${a[4]:-}" = "$out"
for i in 5 6 7 8 9; do
  v=${a[$i]:-}
  check "query line $((i + 1)) is an error: '$v'" test "${v:0:7}" = "error: "
done

check "query moves with a remainder (THROW -): '${a[10]:-}'" test "${a[10]:-}" = "3-4 3-5 13-14 13-15"
check "query apply of a remainder step: '${a[11]:-}'" test "${a[11]:-}" = "piccione:.21...........1....2..........:1:0:0:0:f:1:0 ongoing"
check "query moves with a throw where a remainder is due is an error: '${a[12]:-}'" test "${a[12]:0:7}" = "error: "
run winprob "$PREM"
check "query winprob of a remainder position equals winprob: '${a[13]:-}' vs '$out'" test "${a[13]:-}" = "$out"
check "query moves in Kendall: '${a[14]:-}'" test -n "${a[14]:-}" -a "${a[14]:0:7}" != "error: "

finish
