#!/usr/bin/env bash
# The command-line contract of `senet analyse` (cli/cmd_analyse.cpp): one line of JSON with a
# win probability per position (plies + 1, each in [0, 1], the last the result), one entry per
# ply with the best move and the loss; the same answer every time and from standard input;
# bad arguments and records exit 2 with one line on stderr.
# Usage: bash analyse_contract.sh PATH_TO_SENET
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
need jq
FIX=$HERE/fixtures

# expect_bad ARGS...: exit 2, nothing on stdout, one line on stderr starting "senet: error: ".
expect_bad() { expect_error 2 "senet: error: " "$@"; }

# check_analysis FILE RECORD LAST RESULT: the analysis in FILE fits RECORD and ends at LAST.
check_analysis() {
  local file=$1 record=$2 last=$3 result=$4 plies
  plies=$(jq '.plies | length' "$record")
  checks=$((checks + 1))
  # Every rule of the format, as one jq program that prints the first broken rule (or nothing).
  local broken
  broken=$(jq -r --argjson n "$plies" --argjson last "$last" --arg result "$result" '
    def within: . >= 0 and . <= 1;
    if (.winProbability | length) != $n + 1 then "winProbability has \(.winProbability | length) values, expected \($n + 1)"
    elif (.plies | length) != $n then "plies has \(.plies | length) entries, expected \($n)"
    elif ([.winProbability[] | within] | all | not) then "a win probability outside [0, 1]"
    elif .winProbability[-1] != $last then "last win probability \(.winProbability[-1]), expected \($last)"
    elif .result != $result then "result \(.result), expected \($result)"
    elif ([.plies | to_entries[] | .value.ply == .key + 1] | all | not) then "ply numbers are not 1..N"
    elif ([.plies[] | (.best == null) == (.legalMoves < 2)] | all | not) then "best is not null exactly when there was no choice"
    elif ([.plies[] | .loss >= 0 and (.bestWinProbability | within)] | all | not) then "a negative loss or a best probability outside [0, 1]"
    elif ([.plies[] | select(.best == null) | .loss == 0] | all | not) then "a loss without a choice"
    elif ([.plies[] | select(.best != null and .best == .move) | .loss == 0] | all | not) then "a loss for the best move"
    elif ([.plies[] | select(.loss > 0) | .best != .move] | all | not) then "a loss where the best move was played"
    else (. as $a | [range(0; $n - 1) | $a.plies[.] as $p |
           # the loss is the drop of the mover'"'"'s win probability against the best move (rounding: 1e-4 each)
           (if $p.player == 1 then $p.bestWinProbability - $a.winProbability[. + 1]
            else $a.winProbability[. + 1] - $p.bestWinProbability end) as $d |
           select(($d - $p.loss) | fabs > 0.00021) | "ply \($p.ply): loss \($p.loss) but the drop is \($d)"] | first // empty)
    end' "$file" 2>&1)
  [[ -n $broken ]] && fail "analyse $(basename "$record"): $broken"
}

# --- a finished game (won by player 2 on the board) ----------------------------------------
checks=$((checks + 1))
run analyse "$FIX/standard.json"
if [[ $rc -ne 0 || -n $err || $(wc -l <"$TMP/out") -ne 1 ]]; then
  fail "senet analyse standard.json: exit $rc, stderr '$err', expected one line of JSON"
else
  cp "$TMP/out" "$TMP/standard.out"
  check_analysis "$TMP/standard.out" "$FIX/standard.json" 0 "win 2"
  # The same moves and throws as the record, in order.
  checks=$((checks + 1))
  [[ $(jq -c '[.plies[] | [.player, .throw, .move]]' "$TMP/standard.out") == "$(jq -c '[.plies[] | [.player, .throw, .move]]' "$FIX/standard.json")" ]] ||
    fail "analyse standard.json: the plies' player, throw and move differ from the record"
  checks=$((checks + 1))
  [[ $(jq .depth "$TMP/standard.out") =~ ^[1-4]$ && $(jq -r .ruleset "$TMP/standard.out") == standard ]] ||
    fail "analyse standard.json: depth or ruleset missing"
  # Reproducible, and the same from standard input.
  checks=$((checks + 1))
  again=$("$SENET" analyse - <"$FIX/standard.json" 2>&1)
  [[ $again == "$(cat "$TMP/standard.out")" ]] || fail "analyse - (standard input) differs from analyse FILE"
fi

# --- Jéquier (the opening throws come before position 0) -------------------------------------
run analyse "$FIX/jequier.json" --depth 2
printf '%s\n' "$out" >"$TMP/jequier.out"
checks=$((checks + 1))
[[ $rc -eq 0 ]] || fail "analyse jequier.json --depth 2: exit $rc ($err)"
check_analysis "$TMP/jequier.out" "$FIX/jequier.json" "$(jq '.result | if . == "win 1" then 1 elif . == "win 2" then 0 else 0.5 end' "$FIX/jequier.json")" \
  "$(jq -r .result "$FIX/jequier.json")"
checks=$((checks + 1))
[[ $(jq .depth "$TMP/jequier.out") == 2 ]] || fail "analyse --depth 2 did not search at depth 2"

# --- Kendall and Piccione (random games made by the built tool; a Piccione step that spends a
# remainder has no "throw", in the record and in the analysis) -------------------------------
for rules in kendall piccione; do
  run analyse "$FIX/$rules.json" --depth 1
  printf '%s\n' "$out" >"$TMP/$rules.out"
  checks=$((checks + 1))
  [[ $rc -eq 0 && $(jq -r .ruleset "$TMP/$rules.out") == "$rules" ]] || fail "analyse $rules.json --depth 1: exit $rc ($err)"
  check_analysis "$TMP/$rules.out" "$FIX/$rules.json" "$(jq '.result | if . == "win 1" then 1 elif . == "win 2" then 0 else 0.5 end' "$FIX/$rules.json")" \
    "$(jq -r .result "$FIX/$rules.json")"
  checks=$((checks + 1))
  [[ $(jq -c '[.plies[] | [.player, .throw, .move]]' "$TMP/$rules.out") == "$(jq -c '[.plies[] | [.player, .throw, .move]]' "$FIX/$rules.json")" ]] ||
    fail "analyse $rules.json: the plies' player, throw and move differ from the record"
done
checks=$((checks + 1))
[[ $(jq '[.plies[] | select(has("throw") | not)] | length' "$TMP/piccione.out") -gt 0 ]] ||
  fail "analyse piccione.json: no step without a throw (the fixture spends remainders)"

# --- a resignation: the last entry is the winner of the ending, not the board ----------------
run analyse "$FIX/resigned.json"
printf '%s\n' "$out" >"$TMP/resigned.out"
checks=$((checks + 1))
[[ $rc -eq 0 ]] || fail "analyse resigned.json: exit $rc ($err)"
check_analysis "$TMP/resigned.out" "$FIX/resigned.json" 1 "win 1"

# --- an unfinished record: the last entry is the search's value, the result null -------------
jq -c '{ruleset, plies: .plies[0:10]}' "$FIX/standard.json" >"$TMP/part.json"
run analyse "$TMP/part.json"
printf '%s\n' "$out" >"$TMP/part.out"
checks=$((checks + 1))
[[ $rc -eq 0 && $(jq .result "$TMP/part.out") == null && $(jq '.winProbability | length' "$TMP/part.out") == 11 ]] ||
  fail "analyse of 10 plies: exit $rc, expected 11 values and a null result ($out $err)"

# --- bad arguments and records --------------------------------------------------------------
expect_bad analyse
expect_bad analyse "$TMP/no-such-file.json"
expect_bad analyse "$FIX/standard.json" --depth 0
expect_bad analyse "$FIX/standard.json" --depth 5
expect_bad analyse "$FIX/standard.json" --depth x
expect_bad analyse "$FIX/standard.json" --depth
expect_bad analyse "$FIX/standard.json" --fast 1
expect_bad analyse "$FIX/standard.json" extra
expect_bad analyse --depth 2
printf 'not json' >"$TMP/garbage.json"
expect_bad analyse "$TMP/garbage.json"
jq -c '.plies[3].move = "1-30"' "$FIX/standard.json" >"$TMP/illegal.json"
expect_bad analyse "$TMP/illegal.json"
checks=$((checks + 1))
[[ $err == *"ply 4"* ]] || fail "analyse of an illegal move: the error does not name ply 4: $err"

finish
