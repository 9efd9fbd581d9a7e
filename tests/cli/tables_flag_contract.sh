#!/usr/bin/env bash
# The endgame tables in `senet` (--tables DIR: cli/tables_dir.cpp): `winprob` prints the exact
# value and "exact" where a table knows the position, the estimate elsewhere; `hint` lists every
# legal move best first, exact in the table; `analyse` marks exact positions and gives marks,
# luck and each player's accuracy; `arena` plays with them. Bad folders and tables exit 2 with
# one line on stderr. Uses a small standard table (at most 2 a side, 3 in all).
# Usage: bash tables_flag_contract.sh PATH_TO_SENET
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
need jq
FIX=$HERE/fixtures
expect_bad() { expect_error 2 "senet: error: " "$@"; }

DIR=$TMP/tables
mkdir -p "$DIR"
checks=$((checks + 1))
"$SENET" table build standard "$DIR/standard.sntb" --max-per-side 2 --max-total 3 >/dev/null 2>"$TMP/build.err" ||
  fail "table build: $(cat "$TMP/build.err")"

END='standard:............................21:1:4:4'  # 15/19 for player 1 to throw (tests/tables)
# --- winprob ---------------------------------------------------------------------------------
checks=$((checks + 1))
run winprob "$END" --tables "$DIR"
if [[ $rc -ne 0 || -n $err || ! $out =~ ^0\.789473684[0-9]*\ exact$ ]]; then
  fail "winprob --tables in the table: exit $rc, '$out', stderr '$err' (expected 15/19 exact)"
fi
checks=$((checks + 1))
run winprob "$END"
[[ $rc -eq 0 && $out =~ ^0\.[0-9]+$ && $out != 0.78947368* ]] || fail "winprob without --tables: '$out' (an estimate, no 'exact')"
checks=$((checks + 1))
START='standard:1212121212....................:1:0:0'
run winprob "$START" --tables "$DIR"
[[ $rc -eq 0 && $out == "$("$SENET" winprob "$START")" ]] || fail "winprob --tables outside the table: '$out' (expected the estimate)"

# --- hint ------------------------------------------------------------------------------------
checks=$((checks + 1))
# Player 1 on 20 and 24, player 2 on 29 (2 v 1): a throw of 2 moves either piece.
run hint 'standard:...................1...1....2.:1:3:4' 2 --tables "$DIR"
# Two lines, each MOVE PROBABILITY exact, best first.
if [[ $rc -ne 0 || -n $err ]] || ! awk 'BEGIN { prev = 2 } { if (NF != 3 || $3 != "exact" || $2 > prev) bad = 1; prev = $2 } END { exit bad || NR != 2 }' <<<"$out"; then
  fail "hint in the table: exit $rc, '$out', stderr '$err'"
fi
checks=$((checks + 1))
run hint "$START" 3
if [[ $rc -ne 0 || $(wc -l <<<"$out") -lt 2 ]] || ! awk 'BEGIN { prev = 2 } { if (NF != 2 || $2 > prev || $2 < 0) bad = 1; prev = $2 } END { exit bad }' <<<"$out"; then
  fail "hint at the start: exit $rc, '$out' (expected every move, best first, no 'exact')"
fi
expect_bad hint
expect_bad hint "$START"
expect_bad hint "$START" 6
expect_bad hint "$START" x
expect_bad hint 'standard:.............2................:1:5:4' 1   # over
expect_bad hint "$START" 1 --depth 9
expect_bad hint "$START" 1 --tables "$TMP/none"

# --- analyse ---------------------------------------------------------------------------------
checks=$((checks + 1))
run analyse "$FIX/standard.json" --depth 1 --tables "$DIR"
printf '%s\n' "$out" >"$TMP/a.json"
broken=$(jq -r '
  def sum(f): reduce .[] as $x (0; . + ($x | f));
  if (.exact | length) != (.winProbability | length) then "exact has \(.exact | length) entries"
  elif .exact[-1] != true then "the result is not exact"
  elif (.thresholds != {"inaccuracy":0.02,"mistake":0.05,"blunder":0.1}) then "thresholds \(.thresholds)"
  elif ([.plies[] | .mark == (if .loss >= 0.1 then "blunder" elif .loss >= 0.05 then "mistake" elif .loss >= 0.02 then "inaccuracy" else null end)] | all | not) then "a mark that does not follow the loss"
  elif ((.players | length) != 2) then "players"
  elif ([.players[] | .accuracy >= 0 and .accuracy <= 100] | all | not) then "an accuracy outside 0..100"
  elif (. as $a | [1, 2] | map(. as $p | ($a.plies | map(select(.player == $p and .legalMoves >= 2)) | length) == $a.players[$p - 1].decisions) | all | not) then "decisions do not count the choices"
  elif (. as $a | [1, 2] | map(. as $p | (($a.plies | map(select(.player == $p)) | sum(.luck)) - $a.players[$p - 1].luck | fabs) < 0.01) | all | not) then "luck does not sum"
  else empty end' "$TMP/a.json" 2>&1)
[[ $rc -eq 0 && -z $broken ]] || fail "analyse --tables: exit $rc, $broken $err"
checks=$((checks + 1))
[[ $(jq '[.exact[] | select(.)] | length' "$TMP/a.json") -ge 1 ]] || fail "analyse --tables: no exact position"
expect_bad analyse "$FIX/standard.json" --tables "$TMP/none"

# --- arena -----------------------------------------------------------------------------------
checks=$((checks + 1))
run arena --rules standard --a expert --b random --games 2 --seed 1 --nodes 1000 --tables "$DIR"
[[ $rc -eq 0 && $out == *"2 games"* ]] || fail "arena --tables: exit $rc, '$out', '$err'"

# --- bad folders and tables ------------------------------------------------------------------
expect_bad winprob "$END" --tables "$TMP/none"
mkdir -p "$TMP/empty"
expect_bad winprob "$END" --tables "$TMP/empty"
mkdir -p "$TMP/bad"
head -c 200 "$DIR/standard.sntb" >"$TMP/bad/standard.sntb"
expect_bad winprob "$END" --tables "$TMP/bad"
mkdir -p "$TMP/wrong"
cp "$DIR/standard.sntb" "$TMP/wrong/kendall.sntb"
expect_bad winprob "$END" --tables "$TMP/wrong"
expect_bad winprob "$END" --tables
expect_bad winprob "$END" --table "$DIR"
# Not a regular file where a table should be: a folder, an endless device (read nothing of it).
mkdir -p "$TMP/folder/standard.sntb"
expect_bad winprob "$END" --tables "$TMP/folder"
expect_bad hint "$END" 1 --tables "$TMP/folder"
mkdir -p "$TMP/device"
ln -s /dev/zero "$TMP/device/standard.sntb"
expect_bad winprob "$END" --tables "$TMP/device"

finish
