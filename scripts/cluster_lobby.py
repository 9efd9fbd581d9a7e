#!/usr/bin/env python3
"""The lobby part of scripts/cluster-test.sh (server/README.md, "The lobby across instances").

Against instances that share one PostgreSQL database and nginx in front of them:
  1. for every ordered pair of instances, a seeker connected to the first and one to the second
     are paired into one game, which both seats then play through nginx (a throw acknowledged);
  2. twelve seekers connected through nginx (round-robin over the instances) seeking at once
     make exactly six games, each seeker in one;
  3. seekers connected to the victim instance wait (each for another ruleset, so they do not pair
     with each other); the victim is SIGKILLed; like the play page (web/src/home/lobby-client.ts)
     each reconnects through nginx after 0.5 s and seeks again; newcomers through nginx then
     pair with every one of them, none with a seek the dead instance left.
The last line is
  lobby: cross-instance pairs P/P (max X ms), nginx seekers S/S in G games, after the kill K/K re-paired
and the exit status is 0 only when all of it holds.

  scripts/cluster_lobby.py --nginx PORT --instances PORT,PORT[,...] --victim-pid PID --victim-port PORT
"""
import argparse
import json
import os
import secrets
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "bridge"))
import ws  # noqa: E402  (the bridge's standard-library WebSocket client)

RULESETS = ["jequier", "bell", "kendall", "piccione"]


def lobby(port):
    conn = ws.connect(f"ws://127.0.0.1:{port}/ws/lobby", timeout=10)
    return conn


def wait_for(conn, kind, seconds=10.0):
    """The `d` of the next frame of type `kind`, reading at most `seconds`; None when the socket closed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        conn.sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            text = conn.recv_text()
        except ws.WebSocketError:
            return None
        if text is None:
            return None
        frame = json.loads(text)
        if frame.get("t") == kind:
            return frame.get("d")
        if frame.get("t") == "error":
            raise RuntimeError(f"lobby error {frame['d'].get('code')}: {frame['d'].get('message')}")
    raise TimeoutError(f"no {kind} frame within {seconds} s")


def seek(conn, ruleset):
    conn.send_text(json.dumps({"t": "seek", "d": {"ruleset": ruleset, "browser": secrets.token_hex(8)}}))


def play_one_throw(nginx, a, b):
    """Both seats of paired frames a, b say hello on the game socket through nginx; seat 0 throws once."""
    conns = {}
    for p in (a, b):
        c = ws.connect(f"ws://127.0.0.1:{nginx}/ws/games/{p['game']}", timeout=10)
        c.send_text(json.dumps({"t": "hello", "d": {"secret": p["secret"], "clientSeed": secrets.token_hex(8)}}))
        if wait_for(c, "snapshot") is None:
            raise RuntimeError(f"game {p['game']}: no snapshot")
        conns[p["seat"]] = c
    deadline = time.monotonic() + 15
    first = conns[0]
    while time.monotonic() < deadline:
        first.send_text(json.dumps({"t": "throw", "d": {"ply": 0}}))
        first.sock.settimeout(2)
        try:
            while True:
                frame = json.loads(first.recv_text() or "{}")
                state = (frame.get("d") or {}).get("state") if frame.get("t") == "events" else (frame.get("d") if frame.get("t") == "snapshot" else None)
                if isinstance(state, dict) and isinstance(state.get("ply"), int) and state["ply"] >= 1:
                    for c in conns.values():
                        c.close()
                    return
                if frame.get("t") == "error":
                    break  # seeds-pending: the other seat's seed is on its way; throw again
        except ws.WebSocketError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"game {a['game']}: the first throw was not acknowledged")


def cross_instance(nginx, ports):
    pairs, worst = 0, 0.0
    wanted = 0
    for i, first in enumerate(ports):
        for j, second in enumerate(ports):
            if i == j:
                continue
            wanted += 1
            a, b = lobby(first), lobby(second)
            seek(a, "bell")
            wait_for(a, "seeking")
            tapped = time.monotonic()
            seek(b, "bell")
            pb = wait_for(b, "paired", 5)
            pa = wait_for(a, "paired", 5)
            took = (time.monotonic() - tapped) * 1000
            worst = max(worst, took)
            if not pa or not pb or pa["game"] != pb["game"] or pa["seat"] == pb["seat"]:
                print(f"cluster-lobby: seekers on :{first} and :{second} were not paired together: {pa} {pb}", file=sys.stderr)
                continue
            play_one_throw(nginx, pa, pb)
            pairs += 1
            a.close()
            b.close()
    return pairs, wanted, worst


def through_nginx(nginx, n=12):
    conns = [lobby(nginx) for _ in range(n)]
    for c in conns:
        wait_for(c, "lobby")
    results = [None] * n

    def run(k):
        try:
            seek(conns[k], "standard")
            results[k] = wait_for(conns[k], "paired", 10)
        except Exception as e:  # noqa: BLE001 (reported below)
            print(f"cluster-lobby: nginx seeker {k}: {e}", file=sys.stderr)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = {}
    for r in results:
        if r:
            games.setdefault(r["game"], set()).add(r["seat"])
    paired = sum(1 for r in results if r)
    whole = all(seats == {0, 1} for seats in games.values())
    for c in conns:
        c.close()
    return paired, n, len(games) if whole else -1


class PageLikeSeeker(threading.Thread):
    """A seeker that, like the play page, reconnects through nginx after 0.5 s and seeks again."""

    def __init__(self, first_port, nginx, ruleset):
        super().__init__(daemon=True)
        self.conn = lobby(first_port)
        self.nginx, self.ruleset = nginx, ruleset
        self.paired = None
        self.reconnected = False
        seek(self.conn, ruleset)
        wait_for(self.conn, "seeking")

    def run(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self.paired:
            try:
                got = wait_for(self.conn, "paired", deadline - time.monotonic())
            except (TimeoutError, RuntimeError):
                return
            if got:
                self.paired = got
                return
            time.sleep(0.5)  # the page's first reconnect delay
            try:
                self.conn = lobby(self.nginx)
                seek(self.conn, self.ruleset)
                wait_for(self.conn, "seeking")
                self.reconnected = True
            except (ws.WebSocketError, OSError, RuntimeError, TimeoutError):
                continue


def after_kill(nginx, victim_pid, victim_port):
    waiting = [PageLikeSeeker(victim_port, nginx, r) for r in RULESETS]
    for w in waiting:
        w.start()
    os.kill(victim_pid, signal.SIGKILL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not all(w.reconnected for w in waiting):
        time.sleep(0.1)
    newcomers = []
    for r in RULESETS:
        c = lobby(nginx)
        seek(c, r)
        newcomers.append((r, c))
    ok = 0
    for (r, c), w in zip(newcomers, waiting):
        got = wait_for(c, "paired", 10)
        w.join(10)
        if got and w.paired and got["game"] == w.paired["game"]:
            ok += 1
        else:
            print(f"cluster-lobby: {r}: the newcomer ({got and got['game']}) and the reconnected seeker "
                  f"({w.paired and w.paired['game']}, reconnected {w.reconnected}) were not paired together", file=sys.stderr)
        c.close()
    return ok, len(RULESETS)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nginx", type=int, required=True)
    ap.add_argument("--instances", required=True, help="ports of the live instances, comma-separated")
    ap.add_argument("--victim-pid", type=int, required=True)
    ap.add_argument("--victim-port", type=int, required=True)
    args = ap.parse_args()
    ports = [int(p) for p in args.instances.split(",") if p]
    pairs, wanted, worst = cross_instance(args.nginx, ports)
    seekers, n, games = through_nginx(args.nginx)
    repaired, waiting = after_kill(args.nginx, args.victim_pid, args.victim_port)
    print(f"lobby: cross-instance pairs {pairs}/{wanted} (max {worst:.0f} ms), nginx seekers {seekers}/{n} in {games} games, "
          f"after the kill {repaired}/{waiting} re-paired")
    return 0 if pairs == wanted and worst < 1000 and seekers == n and games == n // 2 and repaired == waiting else 1


if __name__ == "__main__":
    sys.exit(main())
