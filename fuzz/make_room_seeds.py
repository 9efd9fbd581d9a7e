#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz_room into fuzz/corpus/room/ (layout: fuzz/README.md).

Each seed plays a whole game through the room (local, friend, computer; each ruleset), with
wrong turns, retries, a rematch, and some with failing writes. Run it again after changing the
input layout of room_fuzz.cpp.
"""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "room")
ATTACH, DETACH, HELLO, THROW, MOVE, RESIGN, CLAIM, REMATCH, RUN, JOIN, FAULT, RAW = 0, 1, 2, 3, 6, 9, 10, 11, 12, 13, 14, 15


def header(grace0, ruleset, opponent, creator=0, level=None):
    h = [1 if grace0 else 0, ruleset, opponent, creator]
    return h + ([level] if level is not None else [])


def hello(peer, secret_choice, seed=True):
    return [peer, HELLO, secret_choice] + ([1, 1] if seed else [0])


def play(peers, rounds, run=False, pick=0):
    """`rounds` times: every peer throws at the current ply and moves the legal move `pick`."""
    out = []
    for i in range(rounds):
        for p in peers:
            out += [p, THROW, 0, p, MOVE, 0, 0, (pick + i) % 7]
        if run:
            out += [0, RUN, 4]
    return out


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes(data))


def main():
    os.makedirs(OUT, exist_ok=True)
    for r, rs in enumerate(["standard", "jequier", "bell", "kendall", "piccione"]):
        write(f"local-{rs}", header(False, r, 2) + [0, ATTACH] + hello(0, 0) + play([0], 190 // 2) + [0, REMATCH, 0, RESIGN])
        write(f"friend-{rs}", header(True, r, 0) + [0, ATTACH] + hello(0, 0) + [1, ATTACH, 1, JOIN, 0] + hello(1, 2)
              + play([0, 1], 40) + [1, DETACH, 0, CLAIM, 0, REMATCH, 1, ATTACH] + hello(1, 2, False) + [1, REMATCH])
        creator = r % 2  # the human holds seat 1 in Jéquier: its secret is seat 1's (choice 2)
        write(f"computer-{rs}", header(False, r, 1, creator, r % 3) + [0, ATTACH] + hello(0, 2 if creator else 0)
              + play([0], 60, run=True, pick=r))
    # Writes failing in between: a throw, a move, the seed, a resignation and a rematch.
    write("faults-throws", header(False, 0, 2) + [0, ATTACH, 0, FAULT, 0, 1] + hello(0, 0) + [0, FAULT, 0, 1]
          + play([0], 10) + [0, FAULT, 0, 2] + play([0], 10) + [0, FAULT, 1] + play([0], 3) + [0, FAULT, 2] + play([0], 10))
    write("faults-resign", header(False, 0, 2) + [0, ATTACH] + hello(0, 0) + play([0], 5) + [0, FAULT, 1, 0, RESIGN, 0, FAULT, 2]
          + play([0], 5) + [0, RESIGN])
    write("faults-rematch", header(True, 1, 0) + [0, ATTACH] + hello(0, 0) + [1, ATTACH, 1, JOIN, 0] + hello(1, 2) + [0, RESIGN]
          + [0, FAULT, 1, 0, REMATCH, 1, REMATCH, 0, FAULT, 2, 0, REMATCH])
    write("faults-computer", header(False, 2, 1, 0, 1) + [0, ATTACH] + hello(0, 0) + play([0], 4, run=True) + [0, FAULT, 1]
          + play([0], 4, run=True) + [0, FAULT, 2] + play([0], 8, run=True))
    # Quick phrases in a friend game: each seat, one too soon, a watcher's, a bad id; then the game.
    def raw(peer, text):
        b = text.encode()
        return [peer, RAW, len(b)] + list(b)
    write("friend-phrases", header(False, 0, 0) + [0, ATTACH] + hello(0, 0) + raw(0, '{"t":"phrase","d":{"phrase":"good-luck"}}')
          + [1, ATTACH, 1, JOIN, 0] + hello(1, 2) + [2, ATTACH, 2, HELLO, 3, 0]
          + raw(0, '{"t":"phrase","d":{"phrase":"good-luck"}}') + raw(0, '{"t":"phrase","d":{"phrase":"oops"}}')
          + raw(1, '{"t":"phrase","d":{"phrase":"thanks"}}') + raw(2, '{"t":"phrase","d":{"phrase":"oops"}}')
          + raw(1, '{"t":"phrase","d":{"phrase":"hi"}}') + play([0, 1], 30) + [1, RESIGN]
          + raw(0, '{"t":"phrase","d":{"phrase":"good-game"}}'))
    # Take-backs in a computer and a local game, at the plies a short game reaches (and stale ones).
    for name, opp in (("takeback-computer", 1), ("takeback-local", 2)):
        tb = []
        for ply in range(2, 9):
            tb += play([0], 1, run=opp == 1) + raw(0, '{"t":"takeback","d":{"ply":%d}}' % ply)
        write(name, header(False, 0, opp, 0, 1 if opp == 1 else None) + [0, ATTACH] + hello(0, 0) + tb + play([0], 20, run=opp == 1))
    # Hints in a computer, a local (Piccione: steps) and a friend game (refused), at the plies a short
    # game reaches (a throw, then a hint while the move is due and its list computed on RUN).
    for name, ruleset, opp in (("hint-computer", 0, 1), ("hint-local-piccione", 4, 2), ("hint-friend", 0, 0)):
        hs = []
        for ply in range(1, 12):
            hs += [0, THROW, 0] + raw(0, '{"t":"hint","d":{"ply":%d}}' % ply) + [0, RUN, 4] + [0, MOVE, 0, 0, ply % 7]
            if opp == 1:
                hs += [0, RUN, 4]
        join = [1, ATTACH, 1, JOIN, 0] + hello(1, 2) if opp == 0 else []
        write(name, header(False, ruleset, opp, 0, 1 if opp == 1 else None) + [0, ATTACH] + hello(0, 0) + join + hs
              + play([0], 20, run=opp == 1) + [0, RESIGN])
    # Bad messages from a watcher and a stranger.
    write("strangers", header(False, 0, 0) + [2, ATTACH, 2, HELLO, 4, 0, 2, THROW, 0, 3, HELLO, 0, 0, 3, ATTACH, 3, RAW, 5]
          + list(b"[1,2]") + [3, RAW, 22] + list('{"t":"aaaaaaaaaaaaaaaaaaaé","d":{}}'.encode()[:22]) + [2, MOVE, 7, 8, 40, 40, 2, CLAIM])


if __name__ == "__main__":
    main()
