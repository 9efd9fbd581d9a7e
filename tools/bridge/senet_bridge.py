#!/usr/bin/env python3
"""senet_bridge: let a program that speaks the `senet engine` protocol play on a Senet online server.

It seeks on the server's lobby (`/ws/lobby`) as a bot, and for every pairing opens the game's
socket (`/ws/games/{id}`), starts the engine program, and plays: it throws when its seat is to
throw (extra throws and Jéquier's opening throws included) and, when its seat is to move, sends
the engine `position`, `throw` and `go`, then plays the `bestmove` with the current `ply`
(in Piccione one step at a time, `throw -` while a remainder is spent). It never resigns.

Logs go to stderr; each finished game prints one line on stdout:
`GAME-ID RULESET won|lost|draw|aborted REASON`. See tools/bridge/README.md.
Python 3 standard library only; it talks to the server only over its public protocol.
"""
import argparse
import json
import os
import secrets
import shlex
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ws  # noqa: E402

RULESETS = ("standard", "jequier", "bell", "kendall", "piccione")
LOBBY_TIMEOUT = 120.0   # the server pings every half idle time (30 s): silence this long is a dead server
GAME_TIMEOUT = 120.0
RECONNECT_FOR = 120.0   # a socket lost is opened again (0.5 s, doubling to 8 s) for this long before giving up
PRINT_LOCK = threading.Lock()


def log(message: str) -> None:
    """One line on stderr, with the time."""
    with PRINT_LOCK:
        print(f"{time.strftime('%H:%M:%S')} bridge: {message}", file=sys.stderr, flush=True)


class EngineError(Exception):
    """The engine program failed, exited or answered something unexpected."""


class Engine:
    """One engine process speaking the `senet engine` protocol (engine/protocol/PROTOCOL.md)."""

    def __init__(self, command: str):
        """Start `command` (split like a shell would) and do the `senet-engine` handshake."""
        try:
            self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, bufsize=1)
        except OSError as e:
            raise EngineError(f"cannot start the engine {command!r}: {e}") from e
        self.name = "engine"
        self._send("senet-engine")
        while True:
            line = self._read()
            if line.startswith("id name "):
                self.name = line[len("id name "):]
            if line == "ok":
                break

    def _send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise EngineError(f"the engine stopped reading: {e}") from e

    def _read(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            raise EngineError("the engine exited")
        return line.strip()

    def best_move(self, position: str, throw: str, go: str) -> str:
        """The engine's `bestmove` for `position` and `throw` (a number, or `-` for a remainder)."""
        self._send(f"position {position}")
        self._send(f"throw {throw}")
        self._send(f"go {go}".strip())
        while True:
            line = self._read()
            if line.startswith("error"):
                raise EngineError(f"the engine refused position {position} throw {throw}: {line}")
            if line.startswith("bestmove "):
                return line.split()[1]

    def close(self) -> None:
        """Send `quit` and wait briefly for the process; kill it if it lingers."""
        try:
            self._send("quit")
            self.proc.stdin.close()
        except (EngineError, OSError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def throw_for_engine(state: dict) -> str:
    """The `throw` argument for the engine in a `move` phase: `-` while a Piccione remainder is
    spent (REM, the position's sixth field, above 0), else the value of `lastThrow`."""
    fields = str(state.get("position", "")).split(":")
    if state.get("ruleset") == "piccione" and len(fields) >= 6 and fields[5] not in ("", "0"):
        return "-"
    last = state.get("lastThrow") or {}
    if not isinstance(last.get("value"), int):
        raise ValueError("a move is due but the state has no lastThrow value")
    return str(last["value"])


def refused_for_good(e: Exception) -> bool:
    """An upgrade answered 4xx (but 429, too many): no such game, a forbidden origin; another try
    meets it again. 5xx (503 `moved` while a game changes instance) and network errors pass."""
    text = str(e)
    if not text.startswith("upgrade refused: "):
        return False
    words = text.split()
    return len(words) >= 4 and words[3].startswith("4") and words[3] != "429"


class FatalClose(Exception):
    """A close of the game socket that another try would meet again."""


class Game:
    """One game on `/ws/games/{id}`, played for one seat until it is over."""

    def __init__(self, args, paired: dict):
        self.args = args
        self.id = paired["game"]
        self.secret = paired["secret"]
        self.seat = paired.get("seat")
        self.ruleset = paired.get("ruleset")
        self.opponent = paired.get("opponent", "?")
        self.state = {}
        self.sent_ply = None      # the ply of the action sent and not yet answered
        self.errors = 0
        self.last_send = 0.0

    def send(self, conn, kind: str, data: dict) -> None:
        """Send one action, paced to stay under the server's rate limit."""
        wait = self.last_send + 1.0 / self.args.rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        conn.send_text(json.dumps({"t": kind, "d": data}))
        self.last_send = time.monotonic()

    def play(self) -> str:
        """Play the game to its end; returns the stdout line (`ID RULESET OUTCOME REASON`).
        A socket lost (a server restart, close code 4001 `moved`, a network cut) is opened again
        and the seat says hello again (the server sends the game as it is); after RECONNECT_FOR
        without a connection, or a close the server means for good, it raises ws.WebSocketError.
        Raises EngineError when the engine fails."""
        engine = Engine(self.args.engine)
        url = socket_url(self.args.server, f"/ws/games/{self.id}")
        seed = secrets.token_hex(16)   # the same client seed after a reconnect (the server keeps the first)
        delay, lost_since = 0.5, None
        try:
            while True:
                conn = None
                try:
                    conn = ws.connect(url, timeout=GAME_TIMEOUT)
                    conn.send_text(json.dumps({"t": "hello", "d": {"secret": self.secret, "clientSeed": seed}}))
                    while True:
                        text = conn.recv_text()
                        if text is None:
                            code = conn.close_code
                            if code == 1008:   # closed for good: too many dropped messages (PROTOCOL.md "Limits")
                                raise FatalClose(f"the server closed the game socket for good (code {code})")
                            raise ws.WebSocketError(f"the server closed the game socket (code {code})")
                        delay, lost_since = 0.5, None   # a frame came: the connection works
                        if self.handle(text, conn, engine):
                            return self.outcome()
                except FatalClose as e:
                    raise ws.WebSocketError(str(e)) from None
                except ws.WebSocketError as e:
                    if refused_for_good(e):
                        raise
                    lost_since = lost_since or time.monotonic()
                    if time.monotonic() - lost_since > RECONNECT_FOR:
                        raise ws.WebSocketError(f"{e}; no connection for {RECONNECT_FOR:.0f} s, giving the game up") from None
                    log(f"game {self.id}: {e}; connecting again in {delay:.1f} s")
                    time.sleep(delay)
                    delay = min(delay * 2, 8.0)
                    self.sent_ply = None   # an action sent and unanswered is sent again with the same ply
                finally:
                    if conn is not None:
                        conn.close()
        finally:
            engine.close()

    def handle(self, text: str, conn, engine) -> bool:
        """Take one frame; act when it is this seat's turn. True once the game is over."""
        try:
            frame = json.loads(text)
            kind, data = frame.get("t"), frame.get("d") or {}
            if not isinstance(data, dict):
                raise ValueError("d is not an object")
        except (ValueError, AttributeError) as e:
            log(f"game {self.id}: ignoring a frame that is not a protocol message ({e})")
            return False
        if kind == "snapshot":
            self.state = dict(data)
            self.sent_ply = None
        elif kind == "events":
            changed = data.get("state")
            if isinstance(changed, dict):
                self.state.update(changed)
            self.sent_ply = None
        elif kind == "error":
            self.sent_ply = None
            code = data.get("code")
            self.errors += code != "rate-limited"
            if code != "wrong-ply":   # a snapshot follows a wrong-ply: nothing to say
                log(f"game {self.id}: server error {code}: {data.get('message')}")
            if self.errors > 50:
                raise ws.WebSocketError("too many errors from the server; leaving the game")
            if code not in ("rate-limited", "storage", "internal"):
                return False   # wait for the next state (seeds-pending: the other seat's seed event)
            time.sleep(0.5)
        else:
            return False   # pong, watchers, phrase: nothing to do
        try:
            return self.act(conn, engine)
        except (TypeError, ValueError, AttributeError, KeyError) as e:
            log(f"game {self.id}: ignoring a state the bridge cannot read ({type(e).__name__}: {e})")
            return False

    def act(self, conn, engine) -> bool:
        """Throw or move when this seat is to act and no action is waiting for its answer."""
        s = self.state
        if s.get("phase") == "over":
            return True
        you, ply = s.get("you") or [], s.get("ply")
        if s.get("seatToAct") not in you or not isinstance(ply, int) or self.sent_ply == ply:
            return False
        phase = s.get("phase")
        if phase in ("throw", "opening"):
            self.send(conn, "throw", {"ply": ply})
            self.sent_ply = ply
        elif phase == "move":
            legal = [m.get("move") for m in s.get("legalMoves") or [] if isinstance(m, dict)]
            try:
                move = engine.best_move(str(s.get("position")), throw_for_engine(s), self.args.go)
            except ValueError as e:
                log(f"game {self.id}: {e}")
                return False
            if legal and move not in legal:
                log(f"game {self.id}: the engine's {move} is not among the legal moves {legal}; playing {legal[0]}")
                move = legal[0]
            if move == "pass":
                return False   # passes are automatic: the server moves on by itself
            self.send(conn, "move", {"ply": ply, "move": move})
            self.sent_ply = ply
        return False

    def outcome(self) -> str:
        """The stdout line for the finished game."""
        result = self.state.get("result") or {}
        reason = result.get("reason", "?")
        winner = result.get("winner")
        if reason == "aborted":
            word = "aborted"
        elif winner is None:
            word = "draw"
        else:
            word = "won" if winner == self.seat else "lost"
        return f"{self.id} {self.ruleset} {word} {reason}"


def socket_url(server: str, path: str) -> str:
    """The ws:// (or wss://) URL of `path` on the server given as http(s):// or ws(s)://."""
    parts = urllib.parse.urlsplit(server)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urllib.parse.urlunsplit((scheme, parts.netloc, path, "", ""))


class Counter:
    """The games of the whole bridge: claimed (being sought or played) and finished."""

    def __init__(self, limit):
        self.limit, self.claimed, self.finished, self.lock = limit, 0, 0, threading.Lock()

    def claim(self) -> bool:
        """Reserve one more game; False when the limit is reached."""
        with self.lock:
            if self.limit is not None and self.claimed >= self.limit:
                return False
            self.claimed += 1
            return True

    def release(self, finished: bool) -> None:
        """The claimed game ended: counted as finished, or given back (aborted, failed)."""
        with self.lock:
            if finished:
                self.finished += 1
            else:
                self.claimed -= 1


class Refused(ws.WebSocketError):
    """The lobby refused the seek for a reason another try would meet again."""


def seek(args, conn, ruleset: str):
    """Send one seek and wait for `paired`; returns its data. Raises ws.WebSocketError."""
    data = {"ruleset": ruleset, "name": args.name, "browser": secrets.token_urlsafe(16)[:22],
            "bot": True, "bots": bool(args.play_bots)}
    conn.send_text(json.dumps({"t": "seek", "d": data}))
    while True:
        text = conn.recv_text()
        if text is None:
            raise ws.WebSocketError(f"the server closed the lobby (code {conn.close_code})")
        try:
            frame = json.loads(text)
            kind, d = frame.get("t"), frame.get("d") or {}
            if not isinstance(d, dict):
                raise ValueError("d is not an object")
        except (ValueError, AttributeError):
            log("lobby: ignoring a frame that is not a protocol message")
            continue
        if kind == "paired" and isinstance(d, dict) and isinstance(d.get("game"), str) and isinstance(d.get("secret"), str):
            return d
        if kind == "seeking":
            log(f"seeking {d.get('ruleset')} as {d.get('name')}")
        elif kind == "error":
            code = d.get("code")
            if code == "wait" or code == "rate-limited" or code == "storage":
                pause = min(d["seconds"], 3600) if isinstance(d.get("seconds"), int) and d["seconds"] > 0 else 2
                log(f"lobby: {code}: {d.get('message')}; seeking again in {pause} s")
                time.sleep(pause)
                conn.send_text(json.dumps({"t": "seek", "d": data}))
            else:
                raise Refused(f"the lobby refused the seek: {code}: {d.get('message')}")


def seek_until_paired(args, ruleset: str):
    """Seek on a lobby connection of its own (closed once paired); a lost connection is opened
    again and the seek sent again (0.5 s, doubling to 8 s). Returns the `paired` data, or None
    after RECONNECT_FOR without a connection or when the lobby refused the seek for good."""
    delay, lost_since = 0.5, None
    while True:
        lobby = None
        try:
            lobby = ws.connect(socket_url(args.server, "/ws/lobby"), timeout=LOBBY_TIMEOUT)
            delay, lost_since = 0.5, None
            return seek(args, lobby, ruleset)
        except Refused as e:
            log(f"lobby: {e}")
            return None
        except ws.WebSocketError as e:
            if refused_for_good(e):
                log(f"lobby: {e}")
                return None
            lost_since = lost_since or time.monotonic()
            if time.monotonic() - lost_since > RECONNECT_FOR:
                log(f"lobby: {e}; no connection for {RECONNECT_FOR:.0f} s, giving up")
                return None
            log(f"lobby: {e}; seeking again in {delay:.1f} s")
            time.sleep(delay)
            delay = min(delay * 2, 8.0)
        finally:
            if lobby is not None:
                lobby.close()


def worker(args, counter: Counter, index: int, failures: list) -> None:
    """One game at a time: seek (on a lobby connection of its own, closed once paired), play,
    repeat until the game limit is reached. Three failed games in a row end the worker."""
    played, failed_in_row = 0, 0
    while counter.claim():
        finished = False
        try:
            ruleset = args.ruleset[(index + played) % len(args.ruleset)]
            paired = seek_until_paired(args, ruleset)
            if paired is None:
                failures.append("lobby: no connection")
                return
            played += 1
            game = Game(args, paired)
            log(f"game {game.id}: {game.ruleset}, seat {game.seat}, against {game.opponent}")
            try:
                line = game.play()
            except ws.WebSocketError as e:
                log(f"game {game.id}: {e}")
                failed_in_row += 1
                if failed_in_row >= 3:
                    failures.append(str(e))
                    return
                continue
            failed_in_row = 0
            finished = line.split()[2] != "aborted"
            log(f"game {game.id}: over: {line.split(' ', 2)[2]}")
            with PRINT_LOCK:
                print(line, flush=True)
        except EngineError as e:
            log(f"engine: {e}")
            failures.append(str(e))
            return
        finally:
            counter.release(finished)


def parse_args(argv):
    """The options; exits 2 with a clear message on bad ones."""
    p = argparse.ArgumentParser(prog="senet_bridge.py", description="Play a `senet engine`-protocol program on a Senet online server's lobby.")
    p.add_argument("--server", required=True, help="the server, e.g. http://127.0.0.1:8080")
    p.add_argument("--engine", required=True, help='the engine command, e.g. "/path/senet engine"')
    p.add_argument("--ruleset", action="append", help="ruleset to seek (repeatable, or any; default any)")
    p.add_argument("--games", type=int, default=None, help="stop after N finished games (default: never)")
    p.add_argument("--concurrent", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--name", default="Bridge bot", help="the guest name the opponent sees")
    p.add_argument("--play-bots", action="store_true", help="accept being paired with other bots")
    p.add_argument("--rate", type=float, default=16.0,
                   help="at most this many actions a second in one game (default 16: under the server's default 20 messages/s)")
    p.add_argument("--go", default="nodes 2000", help='the engine\'s go arguments (default "nodes 2000")')
    args = p.parse_args(argv)
    rulesets = args.ruleset or ["any"]
    for r in rulesets:
        if r not in RULESETS + ("any",):
            p.error(f"--ruleset {r}: not one of {', '.join(RULESETS)}, any")
    args.ruleset = rulesets
    if args.games is not None and args.games < 1:
        p.error("--games must be at least 1")
    if not 0.1 <= args.rate <= 10000:
        p.error("--rate must be from 0.1 to 10000")
    if not 1 <= args.concurrent <= 64:
        p.error("--concurrent must be from 1 to 64")
    parts = urllib.parse.urlsplit(args.server)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        p.error(f"--server {args.server}: not an http://, https://, ws:// or wss:// URL")
    try:
        parts.port
    except ValueError:
        p.error(f"--server {args.server}: bad port")
    if not shlex.split(args.engine):
        p.error("--engine is empty")
    name = args.name.strip()
    if not 1 <= len(name) <= 20:
        p.error("--name must be 1 to 20 characters")
    words = args.go.split()
    if words and words[0] == "go":
        args.go = " ".join(words[1:])
    return args


def main(argv=None) -> int:
    """Run the bridge; 0 when done, 1 when the server or the engine failed, 2 on bad options."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        Engine(args.engine).close()
    except EngineError as e:
        print(f"senet_bridge: error: {e}", file=sys.stderr)
        return 1
    try:
        ws.connect(socket_url(args.server, "/ws/lobby"), timeout=10).close()
    except ws.WebSocketError as e:
        print(f"senet_bridge: error: the server {args.server} is unreachable: {e}", file=sys.stderr)
        return 1
    counter, failures = Counter(args.games), []
    threads = [threading.Thread(target=worker, args=(args, counter, i, failures), daemon=True) for i in range(args.concurrent)]
    for t in threads:
        t.start()
    try:
        for t in threads:
            t.join()
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    log(f"done: {counter.finished} games finished")
    if failures and (args.games is None or counter.finished < args.games):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
