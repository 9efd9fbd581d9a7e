#!/usr/bin/env bash
# The command-line contract of `senet table` (cli/cmd_table.cpp): `build` writes a table and
# prints one line per layer and a total; `value` prints the exact win probability of the player
# to throw; a bad argument, a position outside the table, a missing or damaged file exit 2 with
# one line on stderr. Builds a small table (at most 2 per side, 3 in all) of each ruleset with
# tables (standard, jequier, kendall) to stay quick.
# Usage: bash table_contract.sh PATH_TO_SENET
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# expect_bad ARGS...: exit 2, nothing on stdout, one line on stderr starting "senet: error: ".
expect_bad() { expect_error 2 "senet: error: " "$@"; }

TABLE=$TMP/small.sntb
checks=$((checks + 1))
run table build standard "$TABLE" --max-per-side 2 --max-total 3
if [[ $rc -ne 0 || -n $err ]]; then
  fail "table build: exit $rc, stderr '$err'"
else
  # A heading, the layers 1 v 1, 2 v 1, 1 v 2, and the total.
  [[ $(grep -c '^[0-9] v [0-9] ' <<<"$out") -eq 3 ]] || fail "table build: expected 3 layer lines: $out"
  grep -q '^1 v 1 *812 ' <<<"$out" || fail "table build: layer 1 v 1 should have 812 entries: $out"
  grep -q '^total  22736 entries' <<<"$out" || fail "table build: expected 22736 entries in all: $out"
  [[ -s $TABLE ]] || fail "table build: no file written"
fi

# build_small RULESET FILE LAYER11 TOTAL: a table of at most 2 per side, 3 in all, whose 1 v 1
# layer has LAYER11 entries and which has TOTAL in all.
build_small() {
  checks=$((checks + 1))
  run table build "$1" "$2" --max-per-side 2 --max-total 3
  if [[ $rc -ne 0 || -n $err ]]; then
    fail "table build $1: exit $rc, stderr '$err'"
  else
    [[ $(grep -c '^[0-9] v [0-9] ' <<<"$out") -eq 3 ]] || fail "table build $1: expected 3 layer lines: $out"
    grep -q "^1 v 1 *$3 " <<<"$out" || fail "table build $1: layer 1 v 1 should have $3 entries: $out"
    grep -q "^total  $4 entries" <<<"$out" || fail "table build $1: expected $4 entries in all: $out"
    [[ -s $2 ]] || fail "table build $1: no file written"
  fi
}
# Jéquier: 28 standing squares (never 27, the water, nor 30); Kendall: 29 (never 27).
JTABLE=$TMP/jequier.sntb
KTABLE=$TMP/kendall.sntb
build_small jequier "$JTABLE" 756 20412
build_small kendall "$KTABLE" 812 22736

# value EXPECTED POSITION [FILE]: the table's value of POSITION is one line with ten decimals,
# within 1e-9 of EXPECTED (values are stored to 1.2e-10), exit 0, nothing on stderr.
value() {
  checks=$((checks + 1))
  run table value "${3:-$TABLE}" "$2"
  if [[ $rc -ne 0 || -n $err || ! $out =~ ^[01]\.[0-9]{10}$ ]] ||
    ! awk -v a="$out" -v b="$1" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'; then
    fail "table value $2: exit $rc, '$out' (expected $1), stderr '$err'"
  fi
}
# Player 1 alone on 30, player 2 alone on 29: 15/19 and 10/19 (tests/tables, HandDerivedValues).
value 0.78947368421053 'standard:............................21:1:4:4'
value 0.52631578947368 'standard:............................21:2:4:4'
value 0.78947368421053 'standard:............................12:2:4:4'
# A finished game: worth 1 to the winner, 0 to the other.
value 1 'standard:.............................1:2:4:5'
value 0 'standard:.............................1:1:4:5'
# Kendall: player 1 on 30 (needs a 1), player 2 on 29 (needs a 2); a throw without a move ends
# the turn: 8/17 and 12/17 (tests/tables, KendallHandDerived).
value 0.47058823529412 'kendall:............................21:1:4:4' "$KTABLE"
value 0.70588235294118 'kendall:............................21:2:4:4' "$KTABLE"
value 0.47058823529412 'kendall:............................12:2:4:4' "$KTABLE"
# Jéquier: player 1 alone on 29 bears off with any throw.
value 1 'jequier:2...........................1.:1:4:4' "$JTABLE"
value 1 'jequier:...........................12.:2:4:4' "$JTABLE"

expect_bad table
expect_bad table build
expect_bad table build standard
expect_bad table build bell "$TMP/k.sntb"
expect_bad table build piccione "$TMP/k.sntb" --max-per-side 1 --max-total 2
expect_bad table build jequier
expect_bad table build kendall "$TMP/x.sntb" --max-total 11
expect_bad table build jequier "$TMP/x.sntb" --max-per-side 0
expect_bad table build nonsense "$TMP/k.sntb"
expect_bad table build standard "$TMP/x.sntb" --max-per-side 9
expect_bad table build standard "$TMP/x.sntb" --depth 2
expect_bad table build standard "$TMP/no/such/folder/x.sntb" --max-per-side 1 --max-total 2
expect_bad table value "$TABLE"
expect_bad table value "$TABLE" 'standard:1212121212....................:1:0:0'   # outside the table
expect_bad table value "$TABLE" 'standard:..................11.22.......:1:3:3'     # 2 v 2: outside this one
expect_bad table value "$TABLE" 'standard:not-a-position'
expect_bad table value "$TABLE" 'kendall:............................21:1:4:4'
expect_bad table value "$KTABLE" 'standard:............................21:1:4:4'    # another ruleset's table
expect_bad table value "$KTABLE" 'jequier:...........................12.:2:4:4'
expect_bad table value "$JTABLE" 'kendall:............................21:1:4:4'
expect_bad table value "$JTABLE" 'jequier:1212121212....................:2:0:0'    # the opening board
expect_bad table value "$JTABLE" 'jequier:............................21:1:4:4'    # a piece on 30
expect_bad table value "$KTABLE" 'kendall:..........................12..:1:4:4'    # a piece on 27
expect_bad table value "$JTABLE" 'jequier:..................11.22.......:1:3:3'     # 2 v 2: outside this one
expect_bad table value "$TMP/missing.sntb" 'standard:............................21:1:4:4'
head -c 100 "$TABLE" >"$TMP/short.sntb"
expect_bad table value "$TMP/short.sntb" 'standard:............................21:1:4:4'
cp "$TABLE" "$TMP/damaged.sntb"
printf '\x77' | dd of="$TMP/damaged.sntb" bs=1 seek=5000 conv=notrunc status=none
expect_bad table value "$TMP/damaged.sntb" 'standard:............................21:1:4:4'
printf 'hello' >"$TMP/text.sntb"
expect_bad table value "$TMP/text.sntb" 'standard:............................21:1:4:4'
expect_bad table frobnicate

finish
