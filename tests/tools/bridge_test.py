#!/usr/bin/env python3
"""The bridge (tools/bridge) against a real senet-server.

Usage: bridge_test.py SENET SENET-SERVER WEB-ROOT

- ws.py's frame reader refuses bad frames (too large, masked, reserved bits, fragmented
  control frames, a truncated stream) with WebSocketError, never a hang;
- senet_bridge.py refuses bad options with one clear message and exit 2, and an unreachable
  server with exit 1;
- for every ruleset two bridges (each `SENET engine`, --play-bots) seek, pair with each other
  and play one whole game; each game's record, fetched from GET /api/games/{id}/record, is
  accepted by `SENET verify --key` (the key of GET /api/key) and has a winner;
- two bridges in a game across a server killed and started again: both connect again by
  themselves and finish it, and its record verifies.
"""
import json
import os
import pathlib
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
BRIDGE = ROOT / "tools" / "bridge" / "senet_bridge.py"
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(BRIDGE.parent))
import ws  # noqa: E402

RULESETS = ("standard", "jequier", "bell", "kendall", "piccione")
FAILURES = []


def check(ok, what):
    """Record a failed check (and print it); the test goes on."""
    if not ok:
        FAILURES.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def reader_over(data: bytes, max_message=1024):
    """A FrameReader over fixed bytes: running out of them is an error, as a closed socket is."""
    buffer = bytearray(data)

    def read(n):
        if len(buffer) < n:
            raise ws.WebSocketError("stream ended inside a frame")
        out = bytes(buffer[:n])
        del buffer[:n]
        return out
    return ws.FrameReader(read, max_message)


def test_frames():
    """Good frames parse; bad ones raise WebSocketError."""
    fin, op, payload = reader_over(b"\x81\x05hello").next_frame()
    check((fin, op, payload) == (True, ws.OP_TEXT, b"hello"), "a small text frame parses")
    big = b"\x81\x7e" + struct.pack("!H", 300) + b"x" * 300
    check(reader_over(big, 1024).next_frame()[2] == b"x" * 300, "a 16-bit length frame parses")
    masked = ws.encode_frame(ws.OP_TEXT, b"abc", mask=b"\x01\x02\x03\x04")
    check(masked[1] & 0x80 and ws.apply_mask(masked[6:], b"\x01\x02\x03\x04") == b"abc", "client frames are masked")
    check(ws.accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "RFC 6455's accept key example")
    bad = {
        "too large (64-bit length)": b"\x81\x7f" + struct.pack("!Q", 1 << 40),
        "over max_message": b"\x81\x7e" + struct.pack("!H", 2000) + b"x" * 2000,
        "masked server frame": b"\x81\x83abcdxyz",
        "reserved bits": b"\xc1\x00",
        "unknown opcode": b"\x83\x00",
        "fragmented ping": b"\x09\x00",
        "long close": b"\x88\x7e" + struct.pack("!H", 200) + b"x" * 200,
        "truncated frame": b"\x81\x0ahel",
    }
    for name, data in bad.items():
        start = time.monotonic()
        try:
            reader_over(data).next_frame()
            check(False, f"ws: {name}: no error")
        except ws.WebSocketError:
            pass
        check(time.monotonic() - start < 1, f"ws: {name}: answered at once")
    # A real socket: a server that answers garbage after the upgrade, and one that never answers.
    for name, answer in (("a non-101 answer", b"HTTP/1.1 403 Forbidden\r\n\r\n"),
                         ("a wrong accept key", b"HTTP/1.1 101 Switching\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n")):
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        port = srv.getsockname()[1]

        def serve():
            c, _ = srv.accept()
            c.recv(4096)
            c.sendall(answer)
            c.close()
        threading.Thread(target=serve, daemon=True).start()
        try:
            ws.connect(f"ws://127.0.0.1:{port}/", timeout=5)
            check(False, f"ws: {name}: no error")
        except ws.WebSocketError:
            pass
        srv.close()
    print("bridge_test: ws frame parsing and upgrade checks done")


def test_bad_game_frames():
    """The bridge's game loop logs and skips frames it cannot read: no exception, no action."""
    sys.path.insert(0, str(BRIDGE.parent))
    import senet_bridge
    game = senet_bridge.Game(None, {"game": "g", "secret": "s", "seat": 0, "ruleset": "standard"})
    for text in ("not json", "[1]", '{"t":"snapshot","d":[1]}', '{"t":"events","d":{"state":7}}',
                 '{"t":"snapshot","d":{"you":5,"seatToAct":0,"ply":3,"phase":"move"}}',
                 '{"t":"error","d":{"code":"illegal-move"}}', '{"t":"snapshot","d":{"phase":"move","you":[1],"seatToAct":0,"ply":1}}'):
        try:
            check(game.handle(text, None, None) is False, f"bridge: {text!r} ends the game")
        except Exception as e:  # noqa: BLE001 - any exception is the failure this checks
            check(False, f"bridge: {text!r} raised {type(e).__name__}: {e}")
    check(game.handle('{"t":"snapshot","d":{"phase":"over"}}', None, None) is True, "bridge: phase over ends the game")
    print("bridge_test: bad game frames are skipped")


def run_bridge(args, timeout=30):
    """Run the bridge with `args`; returns the CompletedProcess."""
    return subprocess.run([sys.executable, str(BRIDGE), *args], capture_output=True, text=True, timeout=timeout)


def test_options(senet, url):
    """Bad options: exit 2 and one clear message; an unreachable server: exit 1."""
    engine = f"{senet} engine"
    cases = [
        ([], "required"),
        (["--server", url, "--engine", engine, "--ruleset", "chess"], "--ruleset chess"),
        (["--server", url, "--engine", engine, "--games", "0"], "--games"),
        (["--server", url, "--engine", engine, "--concurrent", "0"], "--concurrent"),
        (["--server", "ftp://x", "--engine", engine], "--server"),
        (["--server", url, "--engine", engine, "--games", "two"], "--games"),
        (["--server", url, "--engine", "  "], "--engine"),
    ]
    for args, word in cases:
        out = run_bridge(args)
        check(out.returncode == 2, f"bridge {args}: exit {out.returncode}, not 2")
        check(word in out.stderr and "Traceback" not in out.stderr, f"bridge {args}: message {out.stderr!r}")
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    out = run_bridge(["--server", f"http://127.0.0.1:{port}", "--engine", engine])
    check(out.returncode == 1 and "unreachable" in out.stderr and "Traceback" not in out.stderr,
          f"unreachable server: exit {out.returncode}, {out.stderr!r}")
    out = run_bridge(["--server", url, "--engine", "/nonexistent/engine"])
    check(out.returncode == 1 and "engine" in out.stderr and "Traceback" not in out.stderr,
          f"missing engine: exit {out.returncode}, {out.stderr!r}")
    print("bridge_test: option checks done")


def start_server(server, web, data_dir, port=0):
    """senet-server on `port` (0: a free one); returns (process, base URL)."""
    proc = subprocess.Popen([server, "--port", str(port), "--address", "127.0.0.1", "--data-dir", data_dir, "--web-root", web,
                             "--test-seed", "5e4e7400000000000000000000000000000000000000000000000000000000aa",
                             "--rate", "1000", "--burst", "2000"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 20
    output = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        output += line
        m = re.search(r"listening on (http://\S+)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise SystemExit(f"bridge_test: the server did not start:\n{output}")


def finish_bridge(proc, what, timeout):
    """Wait for a bridge to end; its (stdout lines, stderr), or None (a failure recorded) when it
    did not end in time or ended badly."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        check(False, f"{what}: a bridge did not finish its game in time:\n{err[-2000:]}")
        return None
    check(proc.returncode == 0, f"{what}: a bridge exited {proc.returncode}:\n{err[-2000:]}")
    check("Traceback" not in err, f"{what}: a traceback:\n{err}")
    return out.split("\n")[:-1], err


def stop_server(proc):
    """SIGTERM, then SIGKILL after 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_games(senet, url, work):
    """Two bridges a ruleset, all at once; every game verified."""
    bridges = []
    for ruleset in RULESETS:
        for n in (1, 2):
            args = ["--server", url, "--engine", f"{senet} engine", "--ruleset", ruleset, "--games", "1",
                    "--play-bots", "--go", "nodes 200", "--name", f"Bot {ruleset[:3]} {n}", "--rate", "1000"]
            bridges.append((ruleset, subprocess.Popen([sys.executable, str(BRIDGE), *args],
                                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    games = {}
    for ruleset, proc in bridges:
        ended = finish_bridge(proc, ruleset, 80)
        if ended is None:
            continue
        lines = ended[0]
        check(len(lines) == 1, f"{ruleset}: one finished game expected, got {lines}")
        for line in lines:
            game, rs, outcome, reason = line.split()
            check(rs == ruleset, f"{ruleset}: the game is {rs}")
            games.setdefault(game, []).append(outcome)
    key = work / "key.json"
    key.write_bytes(urllib.request.urlopen(f"{url}/api/key", timeout=10).read())
    check(len(games) == len(RULESETS), f"one game a ruleset expected: {games}")
    for game, outcomes in games.items():
        check(sorted(outcomes) in (["lost", "won"], ["draw", "draw"]), f"{game}: the two bridges saw {outcomes}")
        record = work / f"{game}.json"
        record.write_bytes(urllib.request.urlopen(f"{url}/api/games/{game}/record", timeout=10).read())
        verify = subprocess.run([senet, "verify", str(record), "--key", str(key)], capture_output=True, text=True)
        check(verify.returncode == 0 and verify.stdout.startswith("ok:"), f"{game}: senet verify: {verify.stdout}{verify.stderr}")
        data = json.loads(record.read_text())
        ending = data.get("ending") or {}
        # A winner on the board; Bell alone can end in a draw (RULES.md), which is a result too.
        won = ending.get("winner") in (0, 1) and ending.get("reason") == "bear-off"
        check(won or (data.get("ruleset") == "bell" and ending.get("reason") == "draw"), f"{game}: ending {ending}")
        print(f"bridge_test: {json.loads(record.read_text())['ruleset']} game {game}: {verify.stdout.strip()}")


def test_restart(senet, server, web, work):
    """Two bridges in a game; the server is killed and started again on the same port and data:
    both bridges connect again by themselves, finish the game, and its record verifies."""
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    data = os.path.join(work, "restart-data")
    proc, url = start_server(server, web, data, port)
    bridges = []
    try:
        for n in (1, 2):
            args = ["--server", url, "--engine", f"{senet} engine", "--ruleset", "standard", "--games", "1", "--play-bots",
                    "--go", "nodes 200", "--name", f"Bot restart {n}", "--rate", "25"]
            bridges.append(subprocess.Popen([sys.executable, str(BRIDGE), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            text=True))
        deadline = time.monotonic() + 30
        playing = 0
        while time.monotonic() < deadline and playing < 2:
            lobby = json.loads(urllib.request.urlopen(f"{url}/api/lobby", timeout=10).read())
            playing = lobby["rulesets"]["standard"]["playing"]
            time.sleep(0.2)
        check(playing == 2, "the two bridges were paired before the restart")
        time.sleep(2)  # some plies played
        proc.kill()
        proc.wait()
        proc, url = start_server(server, web, data, port)
        outs = []
        for b in bridges:
            ended = finish_bridge(b, "restart", 120)
            if ended is None:
                continue
            check("connecting again" in ended[1], f"restart: the bridge did not say it connected again:\n{ended[1][-1500:]}")
            outs += ended[0]
        games = {line.split()[0] for line in outs}
        check(len(outs) == 2 and len(games) == 1, f"restart: both bridges finished one game: {outs}")
        for game in games:
            key = work / "restart-key.json"
            key.write_bytes(urllib.request.urlopen(f"{url}/api/key", timeout=10).read())
            record = work / f"restart-{game}.json"
            record.write_bytes(urllib.request.urlopen(f"{url}/api/games/{game}/record", timeout=10).read())
            verify = subprocess.run([senet, "verify", str(record), "--key", str(key)], capture_output=True, text=True)
            check(verify.returncode == 0, f"restart: {game}: senet verify: {verify.stdout}{verify.stderr}")
            print(f"bridge_test: a game across a server restart: {verify.stdout.strip()}")
    finally:
        for b in bridges:
            if b.poll() is None:
                b.kill()
        stop_server(proc)


def main(senet, server, web):
    start = time.monotonic()
    test_frames()
    test_bad_game_frames()
    with tempfile.TemporaryDirectory(prefix="senet-bridge-") as tmp:
        proc, url = start_server(server, web, os.path.join(tmp, "data"))
        try:
            test_options(senet, url)
            test_games(senet, url, pathlib.Path(tmp))
        finally:
            stop_server(proc)
        test_restart(senet, server, web, pathlib.Path(tmp))
    if FAILURES:
        print(f"bridge_test: {len(FAILURES)} failures", file=sys.stderr)
        return 1
    print(f"bridge_test: all passed in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
