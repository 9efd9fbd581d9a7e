#!/usr/bin/env bash
# `senet arena --a-engine / --b-engine` (cli/cmd_arena.cpp, engine/protocol/PROTOCOL.md): an arena
# whose sides are `senet engine` processes, asked over the engine protocol at the same node
# budget, plays exactly the games of the same arena in process (the same wins, first-seat wins
# and mean plies) in every ruleset: the expert through the protocol against an in-process
# level, an in-process random side against the expert through the protocol, and both sides
# through it. An engine that fails (ends, never finishes its handshake, falls silent, answers
# an illegal move) stops the arena with exit 1 and one line naming it.
# Usage: bash arena_engine_contract.sh PATH_TO_SENET
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" "$@"

ENGINE="$SENET engine"
# results ARGS...: the arena's stdout without its first line (which names the engines).
results() { "$SENET" arena "$@" 2>/dev/null </dev/null | tail -n +2; }

for rules in standard jequier bell kendall piccione; do
  common=(--rules "$rules" --games 6 --seed 11 --nodes 2000)
  inproc=$(results "${common[@]}" --a expert --b intermediate)
  check "$rules: the in-process arena printed its results" [ "$(echo "$inproc" | grep -c '^wins ')" -eq 2 ]
  through=$(results "${common[@]}" --a expert --b intermediate --a-engine "$ENGINE")
  check "$rules: expert through the protocol vs intermediate: $through / in process: $inproc" [ "$through" = "$inproc" ]
  inproc=$(results "${common[@]}" --a random --b expert)
  through=$(results "${common[@]}" --a random --b expert --b-engine "$ENGINE")
  check "$rules: random vs expert through the protocol: $through / in process: $inproc" [ "$through" = "$inproc" ]
  inproc=$(results "${common[@]}" --a expert --b expert --depth 3)
  through=$(results "${common[@]}" --a expert --b expert --depth 3 --a-engine "$ENGINE" --b-engine "$ENGINE")
  check "$rules: both sides through the protocol: $through / in process: $inproc" [ "$through" = "$inproc" ]
done

# The first line names the engine.
run arena --rules bell --games 1 --seed 1 --a expert --b random --a-engine "$ENGINE"
check "the first line names the engine: $out" [ "${out%%$'\n'*}" = "arena bell: A expert (engine: $ENGINE) vs B random, 1 games, seed 1, seats alternating, expert capped at 20000 nodes per decision" ]

# Engines that fail: one line, exit 1, nothing on stdout.
E="senet: error: engine "
base=(arena --rules standard --games 1 --seed 1 --a expert --b random)
# 'false' ends at once: the arena meets its closed output, or (on a loaded machine, where it has
# ended before the handshake is written) a write that fails; both are one line naming it.
expect_error 1 "${E}'false'" "${base[@]}" --a-engine false
ended() { [[ $err == *"closed its output"* || $err == *"cannot write to it"* ]]; }
check "an engine that ended at once is named as such: $err" ended
expect_error 1 "${E}'yes 2>/dev/null': no 'ok' in the first 100 lines of its handshake" "${base[@]}" --a-engine "yes 2>/dev/null"
illegal="read x; echo protocol 1; echo ok; while read l; do case \$l in go*) echo bestmove 29-off;; esac; done"
expect_error 1 "${E}'$illegal' chose '29-off': illegal move" "${base[@]}" --a-engine "$illegal"
quits="read x; echo protocol 1; echo ok; read l; exit 0"
# It ends after the first line of a decision: the arena meets either its closed output or a
# write that fails (whichever comes first); both are one line naming it.
expect_error 1 "${E}'$quits'" "${base[@]}" --a-engine "$quits"
check "an engine that ended is named as such: $err" ended
expect_error 2 "senet: error: --b-engine must name a command" "${base[@]}" --b-engine ""

finish
