#!/usr/bin/env python3
"""Runs every case of the outside rules oracles through `senet query` (the answers of
`senet moves` and `senet apply`, one process) and reports each disagreement.

usage: check_oracle.py SENET CASES.jsonl...   exit 0 when every case agrees, 1 otherwise.

A case (README.md here): position, throw ("-" while a remainder is spent), the sorted legal
moves, and for each move the position and result `apply` gives. After a winning move TURN is
not compared (RULES.md gives it no meaning)."""
import json
import subprocess
import sys


def without_turn(position):
    fields = position.split(":")
    fields[2] = "*"
    return ":".join(fields)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    senet, files = sys.argv[1], sys.argv[2:]
    queries, expected = [], []
    counts = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            cases = [json.loads(line) for line in f if line.strip()]
        if not cases:
            print(f"{path}: no cases", file=sys.stderr)
            return 1
        counts[path] = len(cases)
        for case in cases:
            where = f"{path.rsplit('/', 1)[-1]} case {case['id']}"
            throw = str(case["throw"])
            queries.append(f"moves {case['position']} {throw}")
            expected.append((where, "moves", " ".join(case["moves"]), None))
            for after in case["after"]:
                queries.append(f"apply {case['position']} {throw} {after['move']}")
                expected.append((where, "apply " + after["move"], after["position"], after["result"]))
    answers = subprocess.run([senet, "query"], input="\n".join(queries) + "\n", capture_output=True, text=True, check=True).stdout.splitlines()
    if len(answers) != len(queries):
        print(f"senet query gave {len(answers)} answers to {len(queries)} queries", file=sys.stderr)
        return 1
    wrong = 0
    for query, answer, (where, what, want, result) in zip(queries, answers, expected):
        if result is None:
            ok = answer == want
            shown_want = want
        else:
            got_position, _, got_result = answer.partition(" ")
            if result.startswith("win"):
                ok = got_result == result and without_turn(got_position) == without_turn(want)
            else:
                ok = got_result == result and got_position == want
            shown_want = f"{want} {result}"
        if not ok:
            wrong += 1
            if wrong <= 20:
                print(f"{where}: {what}\n  query: {query}\n  want:  {shown_want}\n  got:   {answer}")
    total = sum(counts.values())
    per_file = ", ".join(f"{path.rsplit('/', 1)[-1]}: {n}" for path, n in counts.items())
    print(f"{total} cases ({per_file}), {len(queries)} answers, {wrong} disagreements")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
