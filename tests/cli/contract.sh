#!/usr/bin/env bash
# The command-line contract of RULES.md, checked against the built program.
# Usage: bash contract.sh PATH_TO_SENET
# Prints every failed check and exits 1 when any failed.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

# ok EXPECTED_STDOUT ARGS...: exit 0, exactly EXPECTED_STDOUT on stdout, nothing on stderr.
ok() {
  local expected=$1
  shift
  checks=$((checks + 1))
  run "$@"
  if [[ $rc -ne 0 ]]; then
    fail "senet $(show "$@"): exit $rc, expected 0 (stderr: $err)"
  elif [[ $out != "$expected" ]]; then
    fail "senet $(show "$@"): stdout was"$'\n'"$out"$'\n'"expected"$'\n'"$expected"
  elif [[ -n $err ]]; then
    fail "senet $(show "$@"): unexpected stderr: $err"
  fi
}

# bad ARGS...: exit 2, nothing on stdout, exactly one non-empty line on stderr.
bad() { expect_error 2 "" "$@"; }

START=standard:1212121212....................:1:0:0
JSTART=jequier:121212121.2...................:2:0:0
BSTART=bell:12121212121212121212..........:1:0:0
NL=$'\n'

# --- start --------------------------------------------------------------------------------
ok "$START" start standard
ok "$JSTART" start jequier
ok "$BSTART" start bell
bad start
bad start senet
bad start standard bell

# --- moves: the two examples of RULES.md ---------------------------------------------------
ok "9-11" moves "$START" 2
ok "1-2${NL}3-4${NL}5-6${NL}7-8${NL}9-10" moves "$START" 1

# --- moves: sorted by FROM then TO, off last; pass when nothing is legal -------------------
ok "27-28${NL}30-off" moves bell:22........................1.11:1:7:8 1
ok "26-off${NL}28-off" moves jequier:22...................1...1.1..:1:2:3 4
ok "25-28${NL}27-30" moves standard:.2......................1.1...:1:3:4 3
ok "25-29${NL}27-off" moves standard:.2......................1.1...:1:3:4 4
ok "4-10${NL}6-12${NL}8-14${NL}11-17" moves "$JSTART" 6
ok "pass" moves standard:.2...........................1:1:4:4 3
ok "pass" moves jequier:1222..........................:1:4:2 6
ok "pass" moves bell:.........................12222:1:0:0 2

# --- apply: the position, then the state; an extra throw keeps TURN ------------------------
ok "standard:12121212.21...................:2:0:0${NL}ongoing" apply "$START" 2 9-11
ok "standard:12121212.2..1.................:1:0:0${NL}ongoing" apply "$START" 4 9-13
ok "standard:2112121212....................:1:0:0${NL}ongoing" apply "$START" 1 1-2
ok "standard:.2............1...............:2:4:4${NL}ongoing" apply standard:.2......................1.....:1:4:4 3 25-28
ok "standard:.2...........................1:1:4:4${NL}ongoing" apply standard:.2...........................1:1:4:4 4 pass
ok "standard:.2...........................1:2:4:4${NL}ongoing" apply standard:.2...........................1:1:4:4 3 pass
ok "jequier:1222..........................:2:4:2${NL}ongoing" apply jequier:1222..........................:1:4:2 6 pass
ok "jequier:121212121.......2.............:2:0:0${NL}ongoing" apply "$JSTART" 6 11-17
ok "standard:.2............................:1:5:4${NL}win 1" apply standard:.2........................1...:1:4:4 4 27-off
ok "standard:1.............................:1:4:5${NL}win 2" apply standard:1............................2:2:4:4 2 30-off
ok "bell:..............................:2:3:3${NL}draw" apply bell:.............................1:1:2:3 1 30-off
ok "bell:..12..........................:2:9:8${NL}ongoing" apply bell:1.22..........................:1:9:8 2 1-3

# --- malformed positions (moves and apply) -------------------------------------------------
for cmd in moves apply; do
  extra=()
  [[ $cmd == apply ]] && extra=(9-11)
  bad $cmd standard:1212121212....................:1:0 2 "${extra[@]}"          # 4 fields
  bad $cmd standard:1212121212....................:1:0:0:0 2 "${extra[@]}"      # 6 fields
  bad $cmd senet:1212121212....................:1:0:0 2 "${extra[@]}"           # unknown ruleset
  bad $cmd standard:1212121212...................:1:0:0 2 "${extra[@]}"         # 29 squares
  bad $cmd standard:1212121212.....................:1:0:0 2 "${extra[@]}"       # 31 squares
  bad $cmd standard:1212121212x...................:1:0:0 2 "${extra[@]}"        # unknown character
  bad $cmd standard:1212121212.1..................:1:0:0 2 "${extra[@]}"        # six pieces
  bad $cmd bell:121212121212121212121.........:1:0:0 2 "${extra[@]}"            # eleven pieces
  bad $cmd standard:1212121212....................:1:1:0 2 "${extra[@]}"        # 5 + 1 borne off
  bad $cmd standard:121212121.....................:1:0:0 2 "${extra[@]}"        # 4 + 0
  bad $cmd bell:12121212121212121212..........:1:1:0 2 "${extra[@]}"            # 10 + 1
  bad $cmd standard:1212121212....................:3:0:0 2 "${extra[@]}"        # bad turn
  bad $cmd standard:1212121212....................:x:0:0 2 "${extra[@]}"
  bad $cmd standard:1212121212....................:1:a:0 2 "${extra[@]}"
  bad $cmd standard:12121212.2.................1..:1:0:0 2 "${extra[@]}"        # on the House of Water
  bad $cmd jequier:12121212..2...............1...:2:0:0 2 "${extra[@]}"         # on the House of Water
  bad $cmd jequier:12121212..2..................1:2:0:0 2 "${extra[@]}"         # on Jéquier's 30
  bad $cmd "" 2 "${extra[@]}"
done

# --- throws the ruleset cannot produce ------------------------------------------------------
for t in 6 0 -1 abc "" 1.5 " 2" 7; do bad moves "$START" "$t"; done
for t in 5 0 7; do bad moves "$JSTART" "$t"; done
for t in 5 6 0; do bad moves "$BSTART" "$t"; done
bad apply "$START" 6 9-15
bad apply "$JSTART" 5 11-16
bad apply "$BSTART" 5 19-24

# --- moves in a wrong format, and moves that are not legal ----------------------------------
for m in 9_11 9- -11 9-11-13 "9 11" "" x 9-OFF 9-x off 9-31; do bad apply "$START" 2 "$m"; done
bad apply "$START" 2 1-3                                   # onto its own piece
bad apply "$START" 2 9-12                                  # the wrong distance
bad apply "$START" 2 2-4                                   # not the mover's piece
bad apply "$START" 2 pass                                  # a move exists
bad apply standard:.2...........................1:1:4:4 3 30-off   # only a 2 bears off from 30
bad apply standard:.2.......................1....:1:4:4 5 26-off   # never from 26
bad apply bell:.2.........................1..:1:0:0 4 28-off       # Bell: exact throws only
bad apply jequier:22.................1.....1....:1:3:3 4 26-off    # not all home

# --- a finished game ------------------------------------------------------------------------
bad moves standard:.2.2.2.2.2....................:1:5:0 2
bad apply standard:.2.2.2.2.2....................:1:5:0 2 pass
bad moves bell:..............................:1:3:3 1

# --- missing and extra arguments, unknown commands ------------------------------------------
bad moves
bad moves "$START"
bad moves "$START" 2 9-11
bad apply
bad apply "$START" 2
bad apply "$START" 2 9-11 extra
bad frobnicate
bad MOVES "$START" 2
# An unknown command is named in the error, cut at 40 characters.
long=$(printf 'x%.0s' {1..50})
bad "$long"
checks=$((checks + 1))
[[ $err == "senet: error: unknown command '${long:0:40}' (try 'senet help')" ]] || fail "senet <50 x>: stderr $err"
# help, --help and -h: the usage on stdout, exit 0.
for h in help --help -h; do
  checks=$((checks + 1))
  run $h
  [[ $rc -eq 0 && -z $err && $out == "usage: senet COMMAND ARGS..."$'\n'* ]] || fail "senet $h: exit $rc, stdout '${out:0:60}', stderr '$err'"
done
checks=$((checks + 1))
run
[[ $rc -eq 2 && -z $out ]] || fail "senet without arguments: exit $rc (expected 2) or output on stdout: $out"

# --- perft ----------------------------------------------------------------------------------
ok "18" perft "$START" 1
ok "273" perft "$START" 2
ok "18" perft "$JSTART" 1
ok "283" perft "$JSTART" 2
ok "23" perft "$BSTART" 1
ok "519" perft "$BSTART" 2
bad perft "$START"
bad perft "$START" -1
bad perft "$START" abc
bad perft senet:1212121212....................:1:0:0 1

# --- selfplay -------------------------------------------------------------------------------
for rules in standard jequier bell; do
  checks=$((checks + 1))
  run selfplay --rules $rules --games 20 --seed 11
  first=$out
  if [[ $rc -ne 0 || -z $first ]]; then
    fail "senet selfplay --rules $rules --games 20 --seed 11: exit $rc, stdout '$first', stderr $err"
  fi
  run selfplay --seed 11 --games 20 --rules $rules
  [[ $rc -eq 0 && $out == "$first" ]] || fail "selfplay $rules seed 11 twice: stdout differs"$'\n'"$first"$'\n'"---"$'\n'"$out"
  # Its figures add up: every game counted once, the mean plies within (0, max], and an opening
  # decided by throwing (Jéquier) takes one throw at least.
  checks=$((checks + 1))
  awk -v games=20 -v rules=$rules '
    /^wins player [12]: / || /^draws: / || /^unfinished: / { n += $NF }
    /^mean plies: / { mean = $NF }
    /^max plies: / { max = $NF }
    /^mean opening throws: / { op = $NF; hasop = 1 }
    END { exit !(n == games && mean > 0 && mean <= max && hasop == (rules == "jequier") && (!hasop || op >= 1)) }' <<<"$first" ||
    fail "selfplay $rules: the figures do not add up:"$'\n'"$first"
done
# The exact figures of one run (the games depend only on the arguments).
run selfplay --rules jequier --games 20 --seed 11
checks=$((checks + 1))
[[ $out == "ruleset jequier, 20 games, seed 11
wins player 1: 10
wins player 2: 10
draws: 0
mean plies: 638.00
max plies: 1884
mean opening throws: 4.70" ]] || fail "selfplay jequier 20 games seed 11 changed:"$'\n'"$out"
bad selfplay
bad selfplay --rules standard --games 5
bad selfplay --rules standard --seed 1
bad selfplay --games 5 --seed 1
bad selfplay --rules senet --games 5 --seed 1
bad selfplay --rules standard --games 0 --seed 1
bad selfplay --rules standard --games -3 --seed 1
bad selfplay --rules standard --games abc --seed 1
bad selfplay --rules standard --games 5 --seed x
bad selfplay --rules standard --games 5 --seed -1
bad selfplay --rules standard --games 5 --seed 1 --speed 9
bad selfplay --rules standard --games 5 --seed
bad selfplay --rules standard --games 5 --seed 1 --seed 2
bad selfplay --rules standard --games 5 --seed 1 stray
bad selfplay --rules standard --games --seed 1
checks=$((checks + 1))
[[ $err == *"'--games' needs a value"* ]] || fail "a value missing before the next option is not named: $err"

# --- replay ---------------------------------------------------------------------------------
cat >"$TMP/good.json" <<'JSON'
{"ruleset":"standard","plies":[{"player":1,"throw":2,"sticks":"1100","move":"9-11"},{"player":2,"throw":3,"sticks":"1110","move":"10-13"}],"result":"ongoing"}
JSON
cat >"$TMP/illegal.json" <<'JSON'
{"ruleset":"standard","plies":[{"player":1,"throw":2,"sticks":"1100","move":"9-11"},{"player":2,"throw":3,"sticks":"1110","move":"10-13"},{"player":1,"throw":2,"sticks":"0110","move":"1-3"}]}
JSON
printf '{"ruleset":"standard","plies":[' >"$TMP/broken.json"
ok "standard:12121212..1.2.................:1:0:0${NL}ongoing" replay "$TMP/good.json"
bad replay "$TMP/illegal.json"
checks=$((checks + 1))
[[ $err == *"ply 3"* ]] || fail "replay of an illegal ply 3 does not name ply 3: $err"
bad replay "$TMP/broken.json"
bad replay "$TMP/does-not-exist.json"
bad replay

# --- kendall and piccione: RULES.md's starting positions, Piccione's worked examples ----------
PSTART=piccione:..............................:1:0:0:0:-:0:0
ok "kendall:1212121212....................:1:0:0" start kendall
ok "$PSTART" start piccione
ok "in-1" moves "$PSTART" 1
ok "piccione:1.............................:1:0:0:0:f:0:1${NL}ongoing" apply "$PSTART" 1 in-1
ok "pass" moves "$PSTART" 3
ok "piccione:..............................:2:0:0:0:-:0:0${NL}ongoing" apply "$PSTART" 3 pass
ok "1-3${NL}1-4${NL}1-5" moves "piccione:12..........1......2..........:1:0:0:0:f:0:1" 4
ok "3-4${NL}3-5${NL}13-14${NL}13-15" moves "piccione:.21.........1......2..........:1:0:0:2:f:0:0" -
ok "piccione:.21...........1....2..........:1:0:0:0:f:1:0${NL}ongoing" \
  apply "piccione:.21.........1......2..........:1:0:0:2:f:0:0" - 13-15
ok "piccione:...222.............2..........:2:2:1:0:-:0:0${NL}ongoing" apply "piccione:1..222.............2..........:1:2:1:1:b:0:0" - pass
# THROW is `-` exactly when a remainder is spent; the wrong kind is a malformed argument.
bad moves "piccione:.21.........1......2..........:1:0:0:2:f:0:0" 2
bad moves "$PSTART" -
bad moves "$START" -
bad apply "$PSTART" 1 in-2
bad apply "$PSTART" 2 in-1
bad moves "piccione:..............................:1:0:0:0:-:0:0:0" 1
bad moves "piccione:1.............................:1:0:0:0:f:0:0" 1
# Kendall: the House of Beauty stops every piece; the final houses need their own throw.
ok "24-21" moves "kendall:....................2..1......:1:4:4" 3
ok "28-off" moves "kendall:2..........................111:1:2:4" 3
bad apply "kendall:2..........................111:1:2:4" 1 28-29
ok "piccione:.................11...........:2:1:5:0:-:0:0${NL}win 2" replay "$HERE/fixtures/piccione.json"
ok "kendall:...........................1..:2:4:5${NL}win 2" replay "$HERE/fixtures/kendall.json"

# --- verify: records a real senet-server signed, and tampered copies ---------------------------
# fixtures/: standard.json (a bear-off), jequier.json (seat 0 threw the first 1, so it plays
# player 2), resigned.json (resigned after a throw whose move was never made), all from one
# server whose GET /api/key answer is server-key.json; other-key.hex is another server's key.
FIX=$HERE/fixtures
if ! command -v jq >/dev/null 2>&1; then
  fail "jq is needed for the verify checks (scripts/setup.sh installs it)"
else
  KEY=$FIX/server-key.json
  KEYHEX=$(jq -r .publicKey "$KEY")
  jq -r .pem "$KEY" >"$TMP/key.pem"
  OTHER=$(cat "$FIX/other-key.hex")
  STD=$FIX/standard.json
  JEQ=$FIX/jequier.json

  # refused ARGS...: exit 1, nothing on stdout, one line "senet: error: not verified: ..." on stderr.
  refused() {
    checks=$((checks + 1))
    run "$@"
    if [[ $rc -ne 1 ]]; then
      fail "senet $(show "$@"): exit $rc, expected 1 (stdout: $out; stderr: $err)"
    elif [[ -n $out ]]; then
      fail "senet $(show "$@"): printed to stdout: $out"
    elif [[ $err != "senet: error: not verified: "* || $(wc -l <"$TMP/err") -ne 1 ]]; then
      fail "senet $(show "$@"): stderr is not one 'not verified' line: $err"
    fi
  }
  # verified ARGS...: exit 0, one line "ok: ..." on stdout, nothing on stderr.
  verified() {
    checks=$((checks + 1))
    run "$@"
    if [[ $rc -ne 0 || $out != "ok: "* || -n $err ]]; then
      fail "senet $(show "$@"): exit $rc, stdout '$out', stderr '$err' (expected ok)"
    fi
  }
  # tamper FILE NAME JQ_FILTER: writes the changed record to $TMP/NAME.json.
  tamper() { jq -c "$3" "$1" >"$TMP/$2.json" || fail "jq $3 failed"; }

  # Genuine records verify, with the key in each of its forms.
  ok "ok: 208 throws verified, 208 plies replayed, ending bear-off checked; signature valid (Ed25519 key $KEYHEX)" \
    verify "$STD" --key "$KEY"
  ok "ok: 208 throws verified, 208 plies replayed, ending bear-off checked; signature not checked (no --key)" verify "$STD"
  verified verify "$STD" --key "$KEYHEX"
  verified verify --key "$TMP/key.pem" "$STD"
  verified verify "$JEQ" --key "$KEY"
  # 21 throws drawn, 20 in the plies: the last one's move was never made (resigned instead).
  ok "ok: 20 throws verified, 20 plies replayed, ending resign checked; signature valid (Ed25519 key $KEYHEX)" \
    verify "$FIX/resigned.json" --key "$KEY"
  # The layout of the file does not matter, only its values: pretty-printed, it still verifies.
  jq . "$STD" >"$TMP/pretty.json"
  verified verify "$TMP/pretty.json" --key "$KEY"

  # A move replaced by another legal move that breaks the later plies: replay finds it.
  tamper "$STD" move-breaks '.plies[1].move = "2-7"'
  refused verify "$TMP/move-breaks.json"
  checks=$((checks + 1))
  [[ $err == *"ply 3"* || $err == *"ply 2"* ]] || fail "a replaced move: the error names no ply: $err"
  # A move replaced by another legal move that leaves a consistent game (ply 205: 27-28 for
  # 15-16 changes nothing later): only the signature can tell.
  tamper "$STD" move-fits '.plies[204].move = "27-28"'
  verified verify "$TMP/move-fits.json"
  refused verify "$TMP/move-fits.json" --key "$KEY"

  # A rewritten ending: a resignation on a board that is over, the win given to the loser, the result.
  tamper "$STD" ending-resign '.ending.reason = "resign"'
  refused verify "$TMP/ending-resign.json"
  tamper "$STD" ending-winner '.ending.winner = 0 | .ending.player = 1'
  refused verify "$TMP/ending-winner.json"
  tamper "$STD" ending-draw '.ending = {"reason": "draw", "winner": null, "player": null}'
  refused verify "$TMP/ending-draw.json"
  tamper "$STD" result '.result = "win 1"'
  refused verify "$TMP/result.json"
  # Jéquier: seat 0 plays player 2, so seat 0 winning as player 1 does not fit.
  tamper "$JEQ" seat-mapping '.ending.player = 1'
  refused verify "$TMP/seat-mapping.json"
  tamper "$JEQ" seat-swapped '.ending.winner = 1'
  refused verify "$TMP/seat-swapped.json"

  # Cut short: with its bear-off ending it fails; ended by a resignation it is a consistent game
  # (only the signature tells), unless the winner's player does not fit its seat.
  tamper "$STD" short-bearoff '.plies |= .[:100] | .result = "ongoing" | .fairness.throws = 100'
  refused verify "$TMP/short-bearoff.json"
  tamper "$STD" short-resign '.plies |= .[:100] | .result = "ongoing" | .fairness.throws = 100
    | .ending = {"reason": "resign", "winner": 0, "player": 1}'
  verified verify "$TMP/short-resign.json"
  refused verify "$TMP/short-resign.json" --key "$KEY"
  tamper "$JEQ" short-resign-j '.plies |= .[:50] | .result = "ongoing" | .fairness.throws = 61
    | .ending = {"reason": "resign", "winner": 0, "player": 1}'
  refused verify "$TMP/short-resign-j.json"
  tamper "$STD" short-claim '.plies |= .[:100] | .result = "ongoing" | .fairness.throws = 100
    | .ending = {"reason": "claim", "winner": null, "player": null}'
  refused verify "$TMP/short-claim.json"
  tamper "$STD" short-count '.plies |= .[:100] | .result = "ongoing" | .fairness.throws = 150
    | .ending = {"reason": "resign", "winner": 0, "player": 1}'
  refused verify "$TMP/short-count.json"

  # Another game id: only the signature can tell.
  tamper "$STD" game-id '.game = "AAAAAAAAAAAAAAAAAAAAAA"'
  verified verify "$TMP/game-id.json"
  refused verify "$TMP/game-id.json" --key "$KEY"

  # A bad signature, a missing one, a wrong key.
  tamper "$STD" bad-sig '.signature.value |= (if startswith("0") then "1" else "0" end) + .[1:]'
  refused verify "$TMP/bad-sig.json" --key "$KEY"
  tamper "$STD" no-sig 'del(.signature)'
  verified verify "$TMP/no-sig.json"
  refused verify "$TMP/no-sig.json" --key "$KEY"
  refused verify "$STD" --key "$OTHER"
  # The reason names both keys (the signature check alone would refuse it too, without saying why).
  checks=$((checks + 1))
  [[ $err == *"the record says it is signed by key $KEYHEX, not by the given key $OTHER"* ]] ||
    fail "senet verify with another key: the reason does not name both keys: $err"
  tamper "$STD" other-signer '.signature.publicKey = "'"$OTHER"'"'
  refused verify "$TMP/other-signer.json" --key "$OTHER"
  tamper "$STD" sig-malformed '.signature.value = "abc"'
  refused verify "$TMP/sig-malformed.json" --key "$KEY"

  # Malformed commands and keys.
  bad verify
  bad verify "$STD" extra
  bad verify "$STD" --key
  bad verify "$STD" --key "$KEY" --key "$KEY"
  bad verify "$STD" --keys "$KEY"
  bad verify "$STD" --key "$TMP/does-not-exist.pem"
  bad verify "$STD" --key "${KEYHEX:2}"
  bad verify "$STD" --key "$STD"
  bad verify "$TMP/does-not-exist.json"
  bad verify "$TMP/broken.json"
fi

finish
