#!/usr/bin/env python3
"""A whole game of every ruleset between two `senet engine` processes through the protocol
(engine/protocol/PROTOCOL.md): the expert at a node budget against the intermediate, throws
drawn here from a seeded random source; every move the engines choose is played with `play` and
checked against `senet apply` run apart. Also: the handshake, one error line for a bad line, and
the session printed in PROTOCOL.md, answer by answer.

Usage: engine_games.py SENET
"""
import pathlib
import random
import subprocess
import sys

THROWS = {"standard": [1, 2, 3, 4, 5], "jequier": [1, 2, 3, 4, 6], "bell": [1, 2, 3, 4], "kendall": [1, 2, 3, 4, 5], "piccione": [1, 2, 3, 4, 5]}


class Engine:
    def __init__(self, senet):
        self.p = subprocess.Popen([senet, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self):
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("the engine closed its output")
        return line.rstrip("\n")

    def until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            lines.append(self.read())
            if lines[-1].startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.p.wait(timeout=30)
        return self.p.returncode


def check(cond, what):
    if not cond:
        print("engine_games: FAIL:", what)
        sys.exit(1)


def check_transcript(senet):
    """The session in PROTOCOL.md, line by line: its client lines piped in (without the final
    quit, which would stop the last search), the engine's answers exactly the document's."""
    doc = (pathlib.Path(__file__).resolve().parents[2] / "engine" / "protocol" / "PROTOCOL.md").read_text(encoding="utf-8")
    block = doc.split("## A session")[1].split("## Writing a client")[0]
    lines = [l[4:] for l in block.split("\n") if l.startswith("    ")]
    client = [l[2:] for l in lines if l.startswith("> ") and l != "> quit"]
    expected = [l for l in lines if not l.startswith("> ")]
    out = subprocess.run([senet, "engine"], input="\n".join(client) + "\n", capture_output=True, text=True, timeout=120)
    check(out.returncode == 0, f"the transcript's session exits 0 ({out.returncode})")
    got = out.stdout.rstrip("\n").split("\n")
    check(got == expected, "PROTOCOL.md's session: " + next((f"got {g!r}, the document says {e!r}" for g, e in zip(got, expected) if g != e), f"{len(got)} lines against {len(expected)}"))
    print(f"engine_games: PROTOCOL.md's session, {len(expected)} answer lines, as documented")


def check_stop_and_quit(senet):
    """`stop` during a `go`: its bestmove comes before the answer to the next line (isready).
    `quit` during an `analyse` that would run for minutes: the engine exits at once, status 0."""
    import time
    e = Engine(senet)
    e.send("position standard:1.2.1.2.1.2.1.2.1.2...........:1:0:0")
    e.send("throw 3")
    e.send("go ms 600000")
    check(e.read().startswith("info depth "), "the search runs")
    e.send("stop")
    e.send("isready")
    lines = e.until("readyok")
    check([l.split()[0] for l in lines[-2:]] == ["bestmove", "readyok"], f"stop then isready: the bestmove first: {lines}")
    check(e.close() == 0, "exit 0 on quit after a stopped go")
    e = Engine(senet)
    e.send("position piccione:....1.2.1.2.1.2.1.2.1.2.......:1:0:0:0:-:0:0")
    e.send("throw 5")
    e.send("analyse depth 4")  # minutes of work in this position
    e.send("isready")
    check(e.read() == "readyok", "isready answers while an analysis runs")
    started = time.monotonic()
    check(e.close() == 0, "exit 0 on quit during an analysis")
    check(time.monotonic() - started < 5, f"quit during an analysis exits at once (took {time.monotonic() - started:.1f} s)")
    print("engine_games: stop during go and quit during analyse, as documented")


def main(senet):
    check_transcript(senet)
    check_stop_and_quit(senet)
    a, b = Engine(senet), Engine(senet)
    for e in (a, b):
        e.send("senet-engine")
        hello = e.until("ok")
        check(hello == ["id name Senet online engine", "id author Senet online", "protocol 1", "ok"], f"handshake {hello}")
        e.send("throw 3")  # before any position: one error line, then the engine still answers
        check(e.read() == "error no position: send 'position POSITION' first", "the error for a throw without a position")
        e.send("isready")
        check(e.read() == "readyok", "isready after an error")
    rng = random.Random(7)
    for ruleset, values in THROWS.items():
        position = subprocess.run([senet, "start", ruleset], capture_output=True, text=True, check=True).stdout.strip()
        status, plies = "ongoing", 0
        while status == "ongoing":
            check(plies < 5000, f"{ruleset}: the game ends")
            fields = position.split(":")
            mover = a if fields[2] == "1" else b
            throw = "-" if ruleset == "piccione" and fields[5] != "0" else str(rng.choice(values))
            mover.send("position " + position)
            mover.send("throw " + throw)
            mover.send("go nodes 1500" if mover is a else "go level intermediate")
            lines = mover.until("bestmove ")
            check(all(l.startswith("info depth ") for l in lines[:-1]), f"{ruleset}: only info lines before bestmove: {lines}")
            move = lines[-1].split()[1]
            mover.send("play " + move)
            answer = mover.read().split(" ", 2)
            check(answer[0] == "position", f"{ruleset}: play {move} in {position} with {throw}: {answer}")
            native = subprocess.run([senet, "apply", position, throw, move], capture_output=True, text=True)
            check(native.returncode == 0, f"{ruleset}: senet apply refuses {move} in {position} with {throw}: {native.stderr}")
            expected = native.stdout.strip().split("\n")
            check([answer[1], answer[2]] == expected, f"{ruleset}: {answer} against senet apply {expected}")
            position, status = answer[1], answer[2]
            plies += 1
        print(f"engine_games: {ruleset}: {plies} plies, {status}")
    check(a.close() == 0 and b.close() == 0, "both engines exit 0 on quit")
    print("engine_games: every move of five games checked")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
