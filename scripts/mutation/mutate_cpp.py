#!/usr/bin/env python3
"""Mutation testing for the project's C++ (standard library only).

For each listed source file it generates mutants with the usual operators, applies one at a
time to the file in place (the original is always restored, also on Ctrl-C or an error; a
backup beside it, FILE.mutation-backup, is restored on the next start after a hard kill),
rebuilds only the targets that file feeds in an unoptimised build directory (build-mutation/),
runs the test subset mapped to the file under a timeout and records the mutant as

  killed      a test failed, or the tests ran into the timeout;
  survived    every test passed;
  stillborn   the mutant does not compile (not counted in the score);
  equivalent  listed in equivalent.txt with a reason (not counted in the score).

score = killed / (killed + survived). Results go to bench/mutation.md between the markers
<!-- cpp:start --> and <!-- cpp:end --> (other sections of that file are kept).

Operators (tag: change):
  rel    relational operator: < <= > >= == != (boundary and negation)
  arith  binary + - * / % and compound += -= swapped; ++ <-> --
  const  integer literal +1 / -1
  logic  && <-> ||
  neg    if/while condition negated: if (x) -> if (!(x))
  stmt   an expression statement (call, assignment, ++/--) removed
  bool   return true <-> return false

Sites are found from tokens (cpp_mutants.py): comments, string and character literals, preprocessor lines and
lines marked `// mutation: ignore` are never mutated. Binary operators count only when written
with spaces on both sides (the project's format), which keeps template brackets (`array<int, 2>`),
pointers (`json* d`), references (`T&& x`), `->` and `<<` out; in doubt a site is skipped.

A mutant id is stable under edits elsewhere in the file's other lines:
  PATH:LINE:OP:ORIGINAL => REPLACEMENT[#N]   (N counts equal changes on one line)
equivalent.txt holds one id per line, then ` | ` and the reason.

Usage: scripts/mutation.sh [--root DIR] [--file PATH]... [--sample N] [--seed S] [--list]
                           [--timeout SECONDS] [--jobs N] [--no-report] [--rerun-survivors] [--report-only]
(details: scripts/mutation/README.md)
"""
from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cpp_mutants import Mutant, apply, find_mutants  # noqa: E402

DEFAULT_SAMPLE = 16
DEFAULT_SEED = 15
BUILD_DIR = "build-mutation"

# ---------------------------------------------------------------------------------------------
# Configuration


@dataclass
class Target:
    path: str
    build: list[str]
    tests: list[list[str]] = field(default_factory=list)


def read_targets(fname: str) -> list[Target]:
    """targets.txt: `PATH | BUILD_TARGET[,TARGET...] | TEST[; TEST...]` where TEST is
    `gtest BINARY [FILTER]` (BINARY relative to the build directory) or `ctest REGEX`.
    PATH may be a glob (`server/fairness/src/*.cpp`)."""
    out = []
    with open(fname, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
            if not line:
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                sys.exit(f"{fname}: expected `PATH | TARGETS | TESTS`: {raw.strip()}")
            tests = [shlex.split(t) for t in parts[2].split(";") if t.strip()]
            for t in tests:
                if t[0] not in ("gtest", "ctest"):
                    sys.exit(f"{fname}: a test is `gtest BINARY [FILTER]` or `ctest REGEX`: {raw.strip()}")
            out.append(Target(parts[0], [b.strip() for b in parts[1].split(",") if b.strip()], tests))
    return out


def read_equivalent(fname: str) -> dict[str, str]:
    out = {}
    if not os.path.exists(fname):
        return out
    with open(fname, encoding="utf-8") as f:
        for raw in f:
            s = raw.strip()
            if not s or s.startswith("#"):
                continue
            mid, _, reason = s.partition(" | ")
            out[mid.strip()] = reason.strip() or "(no reason given)"
    return out


# ---------------------------------------------------------------------------------------------
# Running


class Runner:
    def __init__(self, root: str, timeout: float | None, jobs: int, verbose: bool):
        self.root = root
        self.build = os.path.join(root, BUILD_DIR)
        self.timeout = timeout
        self.jobs = jobs
        self.verbose = verbose

    def configure(self):
        if os.path.exists(os.path.join(self.build, "CMakeCache.txt")):
            return
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        cmd = ["cmake", "-S", self.root, "-B", self.build, *gen, "-DCMAKE_BUILD_TYPE=Debug",
               "-DCMAKE_CXX_FLAGS_DEBUG=-O1", "-DSENET_IPO=OFF"]
        if shutil.which("ccache"):
            cmd.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        print("configuring", self.build, flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    def build_targets(self, targets, quiet=True) -> bool:
        cmd = ["nice", "-n", "10", "cmake", "--build", self.build, "-j", str(self.jobs), "--target", *targets]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0 and not quiet:
            print(r.stdout[-4000:])
        return r.returncode == 0

    def test_commands(self, target: Target):
        cmds = []
        for t in target.tests:
            if t[0] == "gtest":
                cmd = ["nice", "-n", "10", os.path.join(self.build, t[1]), "--gtest_brief=1", "--gtest_fail_fast"]
                if len(t) > 2:
                    cmd.append("--gtest_filter=" + t[2])
            else:
                cmd = ["nice", "-n", "10", "ctest", "--test-dir", self.build, "-R", t[1], "--stop-on-failure",
                       "--timeout", "120"]
            cmds.append(cmd)
        return cmds

    def run_tests(self, target: Target, timeout: float):
        """Returns 'pass', 'fail' or 'timeout'."""
        env = dict(os.environ, GTEST_FAIL_FAST="1")
        for cmd in self.test_commands(target):
            try:
                p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                     start_new_session=True, cwd=self.build)
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                return "timeout"
            if rc != 0:
                return "fail"
        return "pass"


def restore_backups(root: str, paths):
    for p in paths:
        full = os.path.join(root, p)
        bak = full + ".mutation-backup"
        if os.path.exists(bak):
            print(f"restoring {p} from an interrupted run", flush=True)
            shutil.copy2(bak, full)
            os.remove(bak)


def run_file(runner: Runner, target: Target, path: str, mutants: list[Mutant], equivalent: dict[str, str]):
    full = os.path.join(runner.root, path)
    with open(full, encoding="utf-8") as f:
        original = f.read()
    todo = []
    for m in mutants:
        if m.mid in equivalent:
            m.status = "equivalent"
        else:
            todo.append(m)
    if not todo:
        return 0.0
    # Baseline: the unmutated build passes and gives the timeout.
    print(f"{path}: building {', '.join(target.build)} unmutated in {runner.build} "
          "(the first build of a fresh clone takes several minutes)", flush=True)
    b0 = time.monotonic()
    if not runner.build_targets(target.build, quiet=False):
        sys.exit(f"the unmutated build of {', '.join(target.build)} fails")
    t0 = time.monotonic()
    base = runner.run_tests(target, timeout=1800)
    base_s = time.monotonic() - t0
    if base != "pass":
        sys.exit(f"the tests of {path} fail without any mutant ({base}); fix them first")
    timeout = runner.timeout or max(30.0, 4 * base_s + 10)
    print(f"{path}: built in {t0 - b0:.0f}s; {len(todo)} mutants, tests take {base_s:.1f}s unmutated, "
          f"timeout {timeout:.0f}s", flush=True)
    bak = full + ".mutation-backup"
    shutil.copy2(full, bak)
    started = time.monotonic()
    try:
        for i, m in enumerate(todo, 1):
            t = time.monotonic()
            with open(full, "w", encoding="utf-8") as f:
                f.write(apply(original, m))
            if not runner.build_targets(target.build):
                m.status = "stillborn"
            else:
                r = runner.run_tests(target, timeout)
                m.status = {"pass": "survived", "fail": "killed", "timeout": "killed"}[r]
                if r == "timeout":
                    m.status = "killed"
            m.seconds = time.monotonic() - t
            print(f"  [{i}/{len(todo)}] {m.status:9} {m.seconds:5.1f}s  {m.mid}", flush=True)
    finally:
        with open(full, "w", encoding="utf-8") as f:
            f.write(original)
        shutil.copystat(bak, full)
        os.remove(bak)
        os.utime(full)  # newer than the mutant's object: the next build recompiles it
    return time.monotonic() - started


# ---------------------------------------------------------------------------------------------
# Report


def md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("`", "'")


def write_report(root: str, results, equivalent, args, total_s: float):
    """Merges this run's files into bench/mutation-cpp.json (one entry per file, so runs of
    single files add up) and rewrites the C++ section of bench/mutation.md from it."""
    import json
    store = os.path.join(root, "bench", "mutation-cpp.json")
    os.makedirs(os.path.dirname(store), exist_ok=True)
    data = {}
    if os.path.exists(store):
        with open(store, encoding="utf-8") as f:
            data = json.load(f)
    for path, generated, sampled, elapsed in results:
        c = {k: sum(1 for m in sampled if m.status == k) for k in ("killed", "survived", "equivalent", "stillborn")}
        data[path] = {
            "generated": generated, "sampled": len(sampled), "sample": args.sample, "seed": args.seed, **c,
            "seconds": round(elapsed), "run": len([m for m in sampled if m.status != "equivalent"]),
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
            "survivors": [[m.line, m.op, " ".join(m.original.split()), m.replacement, m.mid]
                          for m in sampled if m.status == "survived"],
            "equivalents": [[m.line, m.op, " ".join(m.original.split()), m.replacement, equivalent[m.mid], m.mid]
                            for m in sampled if m.status == "equivalent"],
        }
    # Survivors of earlier runs declared equivalent since count as equivalent (the mutant is the
    # same: its id names file, line and change).
    for d in data.values():
        keep = []
        for x in d["survivors"]:
            if x[4] in equivalent:
                d["equivalents"].append([*x[:4], equivalent[x[4]], x[4]])
                d["survived"] -= 1
                d["equivalent"] += 1
            else:
                keep.append(x)
        d["survivors"] = keep
    with open(store, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")

    rows, surv, equi = [], [], []
    for path in sorted(data):
        d = data[path]
        denom = d["killed"] + d["survived"]
        score = f"{100.0 * d['killed'] / denom:.0f} %" if denom else "–"
        per = f"{d['seconds'] / d['run']:.0f}" if d["run"] else "–"
        rows.append(f"| `{path}` | {d['generated']} | {d['sampled']} | {d['killed']} | {d['survived']} | "
                    f"{d['equivalent']} | {d['stillborn']} | {score} | {d['seconds'] / 60:.1f} min ({per} s each) |")
        surv += [(path, *x) for x in d["survivors"]]
        equi += [(path, *x) for x in d["equivalents"]]
    lines = ["<!-- cpp:start -->", "## C++ (scripts/mutation.sh)", "",
             "Per file a sample of mutants drawn with a fixed seed (see the `sampled` column; default "
             f"{DEFAULT_SAMPLE}, seed {DEFAULT_SEED}); build `{BUILD_DIR}/` at -O1. "
             "Score = killed / (killed + survived); a test timeout counts as killed; stillborn = does not "
             "compile; equivalent = listed in scripts/mutation/equivalent.txt. Each file's row is from its "
             "latest run (bench/mutation-cpp.json).", "",
             "| file | generated | sampled | killed | survived | equivalent | stillborn | score | time |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|", *rows, ""]
    lines.append("### Surviving C++ mutants" if surv else "No surviving C++ mutant in the samples.")
    lines.append("")
    for path, line, op, orig, repl, _ in surv:
        lines.append(f"- `{path}:{line}` {op}: `{md_escape(orig)}` → `{md_escape(repl)}`")
    if equi:
        lines += ([] if not surv else [""]) + ["### Equivalent C++ mutants", ""]
        for path, line, op, orig, repl, reason, *_ in equi:
            lines.append(f"- `{path}:{line}` {op}: `{md_escape(orig)}` → `{md_escape(repl)}` — {reason}")
    lines.append("<!-- cpp:end -->")
    block = "\n".join(lines) + "\n"
    out = os.path.join(root, "bench", "mutation.md")
    text = ""
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            text = f.read()
    if "<!-- cpp:start -->" in text and "<!-- cpp:end -->" in text:
        a = text.index("<!-- cpp:start -->")
        b = text.index("<!-- cpp:end -->") + len("<!-- cpp:end -->")
        if text[b:b + 1] == "\n":
            b += 1
        text = text[:a] + block + text[b:]
    else:
        if not text:
            text = ("# Mutation testing\n\nHow many small deliberate bugs the tests catch, per file "
                    "(see README.md, \"Mutation testing\").\n\n")
        text = text.rstrip("\n") + "\n\n" + block
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return out


# ---------------------------------------------------------------------------------------------


def rerun_survivors(root: str, runner, plan, equivalent, args) -> int:
    """Runs again the survivors recorded in bench/mutation-cpp.json for the planned files; the
    ones now killed move to the killed count (the sample stays the same)."""
    import json
    store = os.path.join(root, "bench", "mutation-cpp.json")
    if not os.path.exists(store):
        sys.exit("no bench/mutation-cpp.json: run the files first")
    with open(store, encoding="utf-8") as f:
        data = json.load(f)
    for path, t, all_m, _ in plan:
        d = data.get(path)
        if not d or not d["survivors"]:
            continue
        ids = {x[4] for x in d["survivors"]} - set(equivalent)
        again = [m for m in all_m if m.mid in ids]
        missing = ids - {m.mid for m in again}
        for mid in sorted(missing):
            print(f"  {mid}: no longer generated (the source changed): run the whole file again", flush=True)
        elapsed = run_file(runner, t, path, again, equivalent)
        killed = {m.mid for m in again if m.status == "killed"}
        d["survivors"] = [x for x in d["survivors"] if x[4] not in killed]
        d["killed"] += len(killed)
        d["survived"] -= len(killed)
        d["rerun_seconds"] = round(elapsed)
        print(f"{path}: {len(killed)} of {len(again)} survivors now killed", flush=True)
    with open(store, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    if not args.no_report:
        print("wrote", write_report(root, [], equivalent, args, 0.0))
    return 0


def expand(root: str, targets: list[Target]):
    """(path, target) for every file the targets name (globs expanded)."""
    import glob
    out = []
    for t in targets:
        matches = sorted(glob.glob(os.path.join(root, t.path))) if any(ch in t.path for ch in "*?[") \
            else [os.path.join(root, t.path)]
        for full in matches:
            out.append((os.path.relpath(full, root), t))
    return out


def sample(mutants: list[Mutant], n: int, seed: int, path: str) -> list[Mutant]:
    if n <= 0 or len(mutants) <= n:
        return list(mutants)
    rng = random.Random(f"{seed}:{path}")
    picked = rng.sample(sorted(mutants, key=lambda m: m.mid), n)
    return sorted(picked, key=lambda m: (m.line, m.start, m.mid))


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)),
                    help="the source tree to mutate (default: this checkout)")
    ap.add_argument("--file", action="append", default=[], help="only this file (relative to --root); repeatable")
    ap.add_argument("--sample", type=int, default=DEFAULT_SAMPLE, help="mutants per file (0 = all)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--list", action="store_true", help="print the mutants and exit")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per test run (default: 4x unmutated + 10)")
    ap.add_argument("--jobs", type=int, default=1, help="build jobs per mutant (default 1)")
    ap.add_argument("--targets", default=None, help="file → build targets → tests (default: ROOT/scripts/mutation/targets.txt)")
    ap.add_argument("--equivalent", default=None, help="equivalent mutants (default: ROOT/scripts/mutation/equivalent.txt)")
    ap.add_argument("--no-report", action="store_true", help="do not write bench/mutation.md")
    ap.add_argument("--rerun-survivors", action="store_true",
                    help="run again only the mutants that survived the file's last run (after new tests) and update its row")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite bench/mutation.md from bench/mutation-cpp.json without running anything")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)

    def cfg(name, given):
        if given:
            return given
        p = os.path.join(root, "scripts", "mutation", name)
        return p if os.path.exists(p) else os.path.join(here, name)

    targets = read_targets(cfg("targets.txt", args.targets))
    equivalent = read_equivalent(cfg("equivalent.txt", args.equivalent))
    files = expand(root, targets)
    if args.file:
        wanted = [os.path.normpath(f) for f in args.file]
        chosen = [(p, t) for p, t in files if os.path.normpath(p) in wanted]
        for w in wanted:
            if not any(os.path.normpath(p) == w for p, _ in chosen):
                # not in targets.txt: allowed with --list only
                if not args.list:
                    sys.exit(f"{w} has no line in targets.txt (which tests to run?)")
                chosen.append((w, Target(w, [], [])))
        files = chosen
    restore_backups(root, [p for p, _ in files])
    if args.report_only:
        print("wrote", write_report(root, [], equivalent, args, 0.0))
        return 0

    plan = []
    for path, t in files:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            src = f.read()
        all_m = find_mutants(path, src)
        plan.append((path, t, all_m, sample(all_m, args.sample, args.seed, path)))

    if args.list:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `--list | head` ends quietly
        for path, _, all_m, picked in plan:
            print(f"# {path}: {len(all_m)} mutants, {len(picked)} sampled")
            for m in picked:
                tag = " [equivalent]" if m.mid in equivalent else ""
                print(f"{m.mid}{tag}")
        return 0

    # SIGTERM (and SIGINT, which a shell's background job ignores) end the run the same way:
    # the file under test is restored by run_file's finally.
    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    runner = Runner(root, args.timeout, args.jobs, verbose=True)
    runner.configure()
    if args.rerun_survivors:
        return rerun_survivors(root, runner, plan, equivalent, args)
    results = []
    t0 = time.monotonic()
    interrupted = False
    try:
        for path, t, all_m, picked in plan:
            elapsed = run_file(runner, t, path, picked, equivalent)
            results.append((path, len(all_m), picked, elapsed))
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: the file under test is restored and left out of the report", file=sys.stderr)
    total = time.monotonic() - t0
    if interrupted and not results:
        return 130
    print()
    print(f"{'file':45} {'gen':>4} {'samp':>4} {'kill':>4} {'surv':>4} {'equi':>4} {'still':>5} score")
    for path, generated, picked, _ in results:
        c = {k: sum(1 for m in picked if m.status == k) for k in ("killed", "survived", "equivalent", "stillborn")}
        d = c["killed"] + c["survived"]
        score = f"{100.0 * c['killed'] / d:5.1f}%" if d else "   –"
        print(f"{path:45} {generated:4} {len(picked):4} {c['killed']:4} {c['survived']:4} {c['equivalent']:4} "
              f"{c['stillborn']:5} {score}")
        for m in picked:
            if m.status == "survived":
                print(f"    survived: {m.mid}")
    print(f"total {total / 60:.1f} min")
    if not args.no_report:
        # An interrupted run still reports the files it finished (each row is a whole file's sample).
        print("wrote", write_report(root, results, equivalent, args, total))
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
