#!/usr/bin/env bash
# The command-line contract of `senet verify` (tampered and malformed records beyond
# contract.sh's signature and ending cases) and `senet arena` (its output lines, their values,
# determinism, bad arguments). PROTOCOL.md "Checking a record" and cli/cmd_arena.cpp.
# Usage: bash verify_arena_contract.sh PATH_TO_SENET
# Prints every failed check and exits 1 when any failed.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"
need jq

FIX=$HERE/fixtures
STD=$FIX/standard.json
KEY=$FIX/server-key.json

# tamper NAME JQ_FILTER: the fixture changed by the filter, in $TMP/NAME.json.
tamper() { jq -c "$2" "$STD" >"$TMP/$1.json" || fail "jq $2 failed"; }
NV="senet: error: not verified: "

# --- verify: a good record ----------------------------------------------------------------
checks=$((checks + 1))
run verify "$STD" --key "$KEY"
[[ $rc -eq 0 && -z $err && $out == "ok: 208 throws verified, 208 plies replayed, ending bear-off checked; signature valid (Ed25519 key "*")" ]] ||
  fail "verify of the genuine record: exit $rc, stdout '$out', stderr '$err'"

# --- verify: a member twice (read one way by one reader, another way by another) -------------
# Refused before the signature is checked, for a top-level member and one inside a ply.
sed 's/}[[:space:]]*$/,"game":"AAAAAAAAAAAAAAAAAAAAAA"}/' "$STD" >"$TMP/twice-game.json"
expect_error 1 "${NV}the record has the member \"game\" twice" verify "$TMP/twice-game.json" --key "$KEY"
sed '0,/"move":/s//"move":"1-2","move":/' "$STD" >"$TMP/twice-move.json"
expect_error 1 "${NV}the record has the member plies[0].move twice" verify "$TMP/twice-move.json"
# A NUL byte and more after the record: refused (the JSON parser would stop at the NUL and verify the part before it).
{ cat "$STD"; printf '\0,"result":"win 1"}'; } >"$TMP/nul.json"
expect_error 2 "senet: error: the record is not JSON: it holds a NUL byte (at byte $(wc -c <"$STD"))" verify "$TMP/nul.json" --key "$KEY"
# Nested 100,000 deep: refused in one line before the signature check (whose serializer recurses).
python3 -c 'import sys; t=open(sys.argv[1]).read().rstrip(); print(t[:-1] + ",\"x\":" + "["*100000 + "]"*100000 + "}")' "$STD" >"$TMP/deep.json"
expect_error 1 "${NV}the record is nested deeper than 64 levels" verify "$TMP/deep.json" --key "$KEY"

# --- verify: each kind of tampering ----------------------------------------------------------
# A throw changed: other sticks of the same count (the moves still replay; the seeds disagree).
tamper throw-sticks '.plies[0].sticks = "0110"'
expect_error 1 "${NV}ply 1 (throw index 0) is 2 (sticks 0110) but the seeds give 2 (sticks 1001)" verify "$TMP/throw-sticks.json"
# A throw changed in value: its sticks no longer count it.
tamper throw-value '.plies[5].throw = (if .plies[5].throw == 2 then 3 else 2 end)'
expect_error 1 "${NV}the record does not replay: ply 6: sticks" verify "$TMP/throw-value.json"
# A move changed to another one (the same piece can move only once per throw: the next plies break).
tamper move '.plies[0].move = "7-9"'
expect_error 1 "${NV}the record does not replay: ply 1" verify "$TMP/move.json"
# A ply's player changed.
tamper player '.plies[3].player = (3 - .plies[3].player)'
expect_error 1 "${NV}the record does not replay: ply 4: it is player 1's turn, not player 2's" verify "$TMP/player.json"
# The server seed changed (no longer the committed one), the commitment changed, a client seed changed.
tamper server-seed '.fairness.serverSeed = ("00" + .fairness.serverSeed[2:])'
expect_error 1 "${NV}SHA-256 of the server seed is 8a90f43db6b465800135fa28fd342f932a38afc87606db21e09ba4d90e511391, not the commitment 1a48a4d7" \
  verify "$TMP/server-seed.json"
tamper commitment '.fairness.commitment = ("00" + .fairness.commitment[2:])'
expect_error 1 "${NV}SHA-256 of the server seed is 1a48a4d7e6c06cc4de20b01c7f1c2ddad277fbf07f5e0541b9a79d30482a6dec, not the commitment 0048a4d7" \
  verify "$TMP/commitment.json"
tamper client-seed '.fairness.clientSeeds[1] = "other"'
expect_error 1 "${NV}ply 1 (throw index 0) is 2 (sticks 1001) but the seeds give 1 (sticks 0010)" verify "$TMP/client-seed.json"
# A throw count that does not fit.
tamper throws '.fairness.throws = 207'
expect_error 1 "${NV}fairness says 207 throws but the record has 208" verify "$TMP/throws.json"
# Plies reordered: the first two, and two in the middle.
tamper reorder-start '.plies = [.plies[1], .plies[0]] + .plies[2:]'
expect_error 1 "${NV}the record does not replay: ply 1: it is player 1's turn, not player 2's" verify "$TMP/reorder-start.json"
tamper reorder-middle '.plies = .plies[0:10] + [.plies[11], .plies[10]] + .plies[12:]'
expect_error 1 "${NV}the record does not replay: ply 11" verify "$TMP/reorder-middle.json"
# Truncated: the last ply dropped (the board is no longer over, the ending says bear-off).
tamper truncated '.plies |= .[:-1] | .fairness.throws = 207'
expect_error 1 "$NV" verify "$TMP/truncated.json"
# Another ruleset.
tamper ruleset '.ruleset = "jequier"'
expect_error 1 "${NV}the record does not replay: ply 2: throw 5 cannot be thrown in jequier" verify "$TMP/ruleset.json"
# With the key, every one of them is refused too (checked first: the signature).
for name in throw-sticks move server-seed client-seed reorder-middle truncated; do
  expect_error 1 "$NV" verify "$TMP/$name.json" --key "$KEY"
done

# A signature value of the wrong length, not hex, or missing: refused as such, before any checking.
for filter in '.signature.value |= .[2:]' '.signature.value |= . + "00"' '.signature.value |= "zz" + .[2:]' \
  '.signature.value = 7' 'del(.signature.value)'; do
  tamper sig-value "$filter"
  expect_error 1 "${NV}the signature \"value\" is not 128 hex digits" verify "$TMP/sig-value.json" --key "$KEY"
done

# --- verify: take-backs and quick phrases (PROTOCOL.md "Verifiable record") -----------------
# A record with take-back marks and phrase counts verifies as one without (the plies are the game
# as it stood at the end); the marks are signed like every member, so adding them breaks the signature.
tamper marks '. + {takebacks: [{plies: 3, undone: 2}, {plies: 1, undone: 4}], phrases: [2, 0]}'
run verify "$TMP/marks.json"
[[ $rc == 0 && $out == "ok: "*" plies replayed, ending "*"signature not checked (no --key)" ]] ||
  fail "verify of a record with take-backs and phrases: exit $rc, stdout '$out', stderr '$err'"
expect_error 1 "${NV}the signature does not match the record: the record was changed after it was signed, or another key signed it" \
  verify "$TMP/marks.json" --key "$KEY"
for bad in '[]' '[{"plies": 3}]' '[{"plies": 3, "undone": 0}]' '[{"plies": -1, "undone": 1}]' '{"plies": 3, "undone": 1}' '[3]'; do
  tamper tb-bad ". + {takebacks: $bad}"
  expect_error 2 'senet: error: "takebacks" must be a list of {"plies": N, "undone": N >= 1}' verify "$TMP/tb-bad.json"
done
for bad in '[1]' '[1, -1]' '["1", 0]' '{"0": 1}' '[1, 2, 3]'; do
  tamper ph-bad ". + {phrases: $bad}"
  expect_error 2 'senet: error: "phrases" must be two whole numbers, the phrases each seat sent' verify "$TMP/ph-bad.json"
done

# --- verify: malformed input: a clear one-line error, exit 2 (exit 1 where a check fails) ---
head -c 5000 "$STD" >"$TMP/cut.json"
expect_error 2 "senet: error: the record is not a JSON object" verify "$TMP/cut.json"
: >"$TMP/empty.json"
expect_error 2 "senet: error: the record is not a JSON object" verify "$TMP/empty.json"
echo '[]' >"$TMP/array.json"
expect_error 2 "senet: error: the record is not a JSON object" verify "$TMP/array.json"
tamper no-fairness 'del(.fairness)'
expect_error 2 'senet: error: the record has no "fairness" object' verify "$TMP/no-fairness.json"
tamper seeds-numbers '.fairness.clientSeeds = [1, 2]'
expect_error 2 'senet: error: fairness needs "clientSeeds": two strings' verify "$TMP/seeds-numbers.json"
tamper seed-not-hex '.fairness.serverSeed = "zz"'
expect_error 2 'senet: error: "serverSeed" is not hex' verify "$TMP/seed-not-hex.json"
tamper no-plies 'del(.plies)'
expect_error 1 "${NV}the record does not replay: record needs a \"plies\" array" verify "$TMP/no-plies.json"
tamper no-move 'del(.plies[3].move)'
expect_error 1 "${NV}the record does not replay: ply 4: needs a \"move\" string" verify "$TMP/no-move.json"
expect_error 2 "senet: error: unexpected argument" verify "$STD" "$STD"
expect_error 2 "senet: error: " verify "$TMP/missing.json"

# --- verify: a Piccione record (steps that spend a remainder draw no throw) -----------------------
# fixtures/piccione-signed.json: a local game played through the room (tests/server/room_steps_test.cpp)
# and signed with the key whose public half is piccione-key.hex. Of its 1663 plies 777 spend a
# remainder (no "throw"), 24 of them the automatic pass of a remainder with no step (ply 48, 156, ...).
PIC=$FIX/piccione-signed.json
PICKEY=$FIX/piccione-key.hex
checks=$((checks + 1))
run verify "$PIC" --key "$PICKEY"
[[ $rc -eq 0 && -z $err && $out == "ok: 886 throws verified, 1663 plies replayed, ending bear-off checked; signature valid (Ed25519 key $(cat "$PICKEY"))" ]] ||
  fail "verify of the Piccione record: exit $rc, stdout '$out', stderr '$err'"
# ptamper NAME JQ_FILTER: the Piccione fixture changed by the filter, in $TMP/NAME.json.
ptamper() { jq -c "$2" "$PIC" >"$TMP/$1.json" || fail "jq $2 failed"; }
# A remainder step given a throw of its own; the remainder's pass dropped, or given a throw.
ptamper pic-throw '.plies[2] += {"throw": 1, "sticks": "0010"}'
expect_error 1 "${NV}the record does not replay: ply 3: the remainder 1 of the last throw is spent next: the ply has no \"throw\"" verify "$TMP/pic-throw.json"
ptamper pic-no-pass '.plies |= (.[0:47] + .[48:])'
expect_error 1 "${NV}the record does not replay: ply 48: no step is left for the remainder, so the ply must be a pass without a throw" verify "$TMP/pic-no-pass.json"
ptamper pic-pass-throw '.plies[47] += {"throw": 1, "sticks": "0010"}'
expect_error 1 "${NV}the record does not replay: ply 48: no step is left for the remainder, so the ply must be a pass without a throw" verify "$TMP/pic-pass-throw.json"
# A remainder step longer than the remainder; the throw count of the plies instead of the throws.
ptamper pic-step '.plies[2].move = "2-4"'
expect_error 1 "${NV}the record does not replay: ply 3: illegal move: 2-4 moves 2 squares, but only 1 can be spent" verify "$TMP/pic-step.json"
ptamper pic-count '.fairness.throws = 1663'
expect_error 1 "${NV}fairness says 1663 throws but the record has 886" verify "$TMP/pic-count.json"
# With the key, a changed step is a changed record; another server's key is refused.
expect_error 1 "${NV}the signature does not match the record" verify "$TMP/pic-step.json" --key "$PICKEY"
expect_error 1 "${NV}the record says it is signed by key $(cat "$PICKEY"), not by the given key" verify "$PIC" --key "$KEY"

# --- arena ----------------------------------------------------------------------------------
# wilson COUNT N: the 95% Wilson score interval, "low% - high%" with one decimal (computed here).
wilson() {
  awk -v k="$1" -v n="$2" 'BEGIN { z = 1.959963984540054; p = k / n; d = 1 + z*z/n;
    c = (p + z*z/(2*n)) / d; h = z * sqrt(p*(1-p)/n + z*z/(4*n*n)) / d;
    lo = c - h; hi = c + h; if (lo < 0) lo = 0; if (hi > 1) hi = 1;
    printf "%.1f%% - %.1f%%", 100*lo, 100*hi }'
}
# share_line LABEL GAMES: checks the line "LABEL: K (P%, 95% CI L% - H%)" of $out; sets share.
share_line() {
  local label=$1 games=$2 line k p
  line=$(grep -F "$label: " <<<"$out")
  checks=$((checks + 1))
  if [[ ! $line =~ ^"$label: "([0-9]+)" ("([0-9.]+)"%, 95% CI "(.*)")"$ ]]; then
    fail "arena: no well-formed '$label' line in:"$'\n'"$out"
    share=-1
    return
  fi
  k=${BASH_REMATCH[1]}
  p=$(awk -v k="$k" -v n="$games" 'BEGIN { printf "%.1f", 100 * k / n }')
  [[ ${BASH_REMATCH[2]} == "$p" ]] || fail "arena '$label': $k of $games printed as ${BASH_REMATCH[2]}%, expected $p%"
  [[ ${BASH_REMATCH[3]} == "$(wilson "$k" "$games")" ]] ||
    fail "arena '$label': interval ${BASH_REMATCH[3]}, expected $(wilson "$k" "$games")"
  share=$k
}
# arena_ok RULES A B GAMES SEED [MORE...]: runs the arena and checks every line's shape and sums.
arena_ok() {
  local rules=$1 a=$2 b=$3 games=$4 seed=$5
  shift 5
  checks=$((checks + 1))
  run arena --rules "$rules" --a "$a" --b "$b" --games "$games" --seed "$seed" "$@"
  if [[ $rc -ne 0 ]]; then
    fail "senet arena --rules $rules --a $a --b $b --games $games --seed $seed $*: exit $rc ($err)"
    return
  fi
  local first
  first=$(head -n 1 <<<"$out")
  [[ $first == "arena $rules: A $a vs B $b, $games games, seed $seed, seats alternating"* ]] || fail "arena header: $first"
  [[ $err == *"seconds: "* ]] || fail "arena: no timing on stderr: $err"
  share_line "wins A $a" "$games"
  local wa=$share
  share_line "wins B $b" "$games"
  local wb=$share draws=0 unfinished=0
  if [[ $rules == bell ]] || grep -q '^draws: ' <<<"$out"; then
    share_line "draws" "$games"
    draws=$share
  fi
  if grep -q '^unfinished: ' <<<"$out"; then
    share_line "unfinished" "$games"
    unfinished=$share
  fi
  share_line "first seat wins" "$games"
  local fs=$share
  [[ $((wa + wb + draws + unfinished)) -eq $games ]] || fail "arena: $wa + $wb + $draws + $unfinished is not $games games"
  [[ $fs -le $((wa + wb)) ]] || fail "arena: first-seat wins $fs exceed the wins $((wa + wb))"
  local mean
  mean=$(sed -n 's/^mean plies per game: \([0-9]*\.[0-9]\)$/\1/p' <<<"$out")
  # A game lasts more than 5 plies (no ruleset bears off 5 pieces faster) and far fewer than 5000.
  [[ -n $mean ]] && awk -v m="$mean" 'BEGIN { exit !(m > 5 && m < 5000) }' || fail "arena: mean plies '$mean' in:"$'\n'"$out"
}

arena_ok standard random beginner 20 5
# The exact figures of this run (the games depend only on the arguments).
checks=$((checks + 1))
[[ $out == "arena standard: A random vs B beginner, 20 games, seed 5, seats alternating
wins A random: 5 (25.0%, 95% CI 11.2% - 46.9%)
wins B beginner: 15 (75.0%, 95% CI 53.1% - 88.8%)
first seat wins: 13 (65.0%, 95% CI 43.3% - 81.9%)
mean plies per game: 166.1" ]] || fail "arena standard random/beginner 20 games seed 5 changed:"$'\n'"$out"
std5=$out
arena_ok jequier beginner intermediate 6 9
arena_ok bell intermediate expert 4 3 --nodes 2000
checks=$((checks + 1))
[[ $(head -n 1 <<<"$out") == *", expert capped at 2000 nodes per decision" ]] || fail "arena: the node cap is not named: $out"
bell3=$out
# Determinism: the same arguments (in another order) give the same output; another seed differs.
run arena --seed 5 --games 20 --b beginner --a random --rules standard
checks=$((checks + 1))
[[ $rc -eq 0 && $out == "$std5" ]] || fail "arena seed 5 twice: outputs differ"$'\n'"$std5"$'\n'"---"$'\n'"$out"
run arena --rules bell --a intermediate --b expert --games 4 --seed 3 --nodes 2000
checks=$((checks + 1))
[[ $rc -eq 0 && $out == "$bell3" ]] || fail "arena bell expert with a node cap twice: outputs differ"
run arena --rules standard --a random --b beginner --games 20 --seed 6
checks=$((checks + 1))
[[ $rc -eq 0 && $(tail -n +2 <<<"$out") != "$(tail -n +2 <<<"$std5")" ]] || fail "arena seeds 5 and 6 give the same games"
# A level against itself, seats alternating: each side wins some of 40 games.
arena_ok standard intermediate intermediate 40 2
# Bad arguments: a clear one-line error and exit 2.
E="senet: error: "
expect_error 2 "${E}unknown level 'grandmaster' for --b (expected random, beginner, intermediate or expert)" \
  arena --rules standard --a random --b grandmaster --games 2 --seed 1
expect_error 2 "${E}unknown level 'strong' for --a" arena --rules standard --a strong --b random --games 2 --seed 1
expect_error 2 "${E}--games must be a whole number from 1 to 100000000, got '0'" arena --rules standard --a random --b beginner --games 0 --seed 1
expect_error 2 "$E" arena --rules standard --a random --b beginner --games x --seed 1
expect_error 2 "$E" arena --rules standard --a random --b beginner --games 2 --seed -1
expect_error 2 "$E" arena --rules senet --a random --b beginner --games 2 --seed 1
expect_error 2 "$E" arena --rules standard --a random --b beginner --games 2 --seed 1 --ms 0
expect_error 2 "$E" arena --rules standard --a random --b expert --games 2 --seed 1 --nodes 10
expect_error 2 "$E" arena --rules standard --a random --b expert --games 2 --seed 1 --depth 13
expect_error 2 "${E}unexpected argument 'stray'" arena --rules standard --a random --b beginner --games 2 --seed 1 stray
expect_error 2 "$E" arena --rules standard --a random --b beginner --games 2 --seed 1 --seed 2
# Every number's bounds, both ends: the last value allowed runs, the next one is refused with
# the range in its message.
arena_ok standard random random 2 0 --ms 60000 --nodes 1000000000 --depth 12
arena_ok standard random random 2 1 --ms 1 --nodes 1000 --depth 1
NUM="arena --rules standard --a random --b random --games 2"
expect_error 2 "${E}--games must be a whole number from 1 to 100000000, got '100000001'" \
  arena --rules standard --a random --b random --games 100000001 --seed 1
expect_error 2 "${E}--seed must be a whole number from 0 to 9223372036854775807, got '-1'" $NUM --seed -1
expect_error 2 "${E}--ms must be a whole number from 1 to 60000, got '0'" $NUM --seed 1 --ms 0
expect_error 2 "${E}--ms must be a whole number from 1 to 60000, got '60001'" $NUM --seed 1 --ms 60001
expect_error 2 "${E}--nodes must be a whole number from 1000 to 1000000000, got '999'" $NUM --seed 1 --nodes 999
expect_error 2 "${E}--nodes must be a whole number from 1000 to 1000000000, got '1000000001'" $NUM --seed 1 --nodes 1000000001
expect_error 2 "${E}--depth must be a whole number from 1 to 12, got '0'" $NUM --seed 1 --depth 0
expect_error 2 "${E}--depth must be a whole number from 1 to 12, got '13'" $NUM --seed 1 --depth 13
for missing in rules a b games seed; do
  args=()
  for pair in "rules standard" "a random" "b beginner" "games 2" "seed 1"; do
    [[ ${pair%% *} == "$missing" ]] || args+=("--${pair%% *}" "${pair#* }")
  done
  expect_error 2 "${E}arena needs --$missing" arena "${args[@]}"
done

finish
