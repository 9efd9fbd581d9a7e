"""A small WebSocket client (RFC 6455) on the Python standard library.

Enough for the Senet online server's sockets: the HTTP/1.1 upgrade with a random
Sec-WebSocket-Key and a checked Sec-WebSocket-Accept, masked client frames, text messages
(fragmented ones reassembled), ping answered by pong, the close handshake and a maximum
message size. No extensions (no compression), no subprotocols, `ws://` and `wss://`.

    conn = connect("ws://127.0.0.1:8080/ws/lobby", timeout=10)
    conn.send_text('{"t":"ping","d":{}}')
    text = conn.recv_text()      # None once the connection is closed
    conn.close()

Every protocol breach by the server raises `WebSocketError` (never a hang: reads have the
socket's timeout, sizes are checked before anything is read into memory).
"""
import base64
import hashlib
import os
import socket
import ssl
import struct
import urllib.parse

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
DEFAULT_MAX_MESSAGE = 1 << 20


class WebSocketError(Exception):
    """The connection failed or the peer broke the protocol; the message says how."""


def accept_key(key: str) -> str:
    """The Sec-WebSocket-Accept value a server must answer to Sec-WebSocket-Key `key`."""
    return base64.b64encode(hashlib.sha1((key + GUID).encode("ascii")).digest()).decode("ascii")


def encode_frame(opcode: int, payload: bytes, fin: bool = True, mask: bytes = None) -> bytes:
    """One client frame: masked with `mask` (4 random bytes when None), as RFC 6455 5.3 requires."""
    mask = os.urandom(4) if mask is None else mask
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + apply_mask(payload, mask)


def apply_mask(data: bytes, mask: bytes) -> bytes:
    """`data` XOR the repeated 4-byte `mask` (masking and unmasking are the same)."""
    if not data:
        return b""
    repeated = (mask * (len(data) // 4 + 1))[: len(data)]
    return (int.from_bytes(data, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(data), "big")


class FrameReader:
    """Reads server frames from `read(n)` (a callable returning exactly n bytes or raising).

    `next_frame()` returns (fin, opcode, payload) for one frame, after checking it: no reserved
    bits, a known opcode, no mask (a server never masks), control frames short and unfragmented,
    and a payload no longer than `max_message` bytes (checked before it is read).
    """

    def __init__(self, read, max_message: int = DEFAULT_MAX_MESSAGE):
        self._read = read
        self.max_message = max_message

    def next_frame(self):
        """The next frame as (fin, opcode, payload bytes); raises WebSocketError on a bad one."""
        b0, b1 = self._read(2)
        fin, rsv, opcode = bool(b0 & 0x80), b0 & 0x70, b0 & 0x0F
        if rsv:
            raise WebSocketError("frame with reserved bits set (no extension was agreed)")
        if opcode not in (OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG):
            raise WebSocketError(f"frame with unknown opcode {opcode:#x}")
        if b1 & 0x80:
            raise WebSocketError("masked frame from the server")
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._read(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._read(8))
            if n >> 63:
                raise WebSocketError("frame length with the top bit set")
        if opcode >= OP_CLOSE and (n > 125 or not fin):
            raise WebSocketError("control frame longer than 125 bytes or fragmented")
        if n > self.max_message:
            raise WebSocketError(f"frame of {n} bytes is over the limit of {self.max_message}")
        return fin, opcode, self._read(n) if n else b""


class WebSocket:
    """An open client connection; made by `connect`. Not thread-safe: one reader thread."""

    def __init__(self, sock, max_message: int = DEFAULT_MAX_MESSAGE, leftover: bytes = b""):
        self.sock = sock
        self._buffer = bytearray(leftover)
        self.reader = FrameReader(self._read_exact, max_message)
        self.closed = False
        self.close_code = None

    def _read_exact(self, n: int) -> bytes:
        while len(self._buffer) < n:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout as e:
                raise WebSocketError("timed out waiting for the server") from e
            except OSError as e:
                raise WebSocketError(f"connection lost: {e}") from e
            if not chunk:
                raise WebSocketError("connection closed by the server without a close frame")
            self._buffer += chunk
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def _send(self, opcode: int, payload: bytes) -> None:
        try:
            self.sock.sendall(encode_frame(opcode, payload))
        except OSError as e:
            raise WebSocketError(f"connection lost: {e}") from e

    def send_text(self, text: str) -> None:
        """Send one text message (one frame)."""
        if self.closed:
            raise WebSocketError("send on a closed connection")
        self._send(OP_TEXT, text.encode("utf-8"))

    def recv_text(self):
        """The next text message as str, or None once the server has closed (after answering its
        close). Pings are answered, pongs and binary messages skipped; fragments reassembled up
        to the maximum message size. Raises WebSocketError on a breach or a timeout."""
        parts, size, kind = [], 0, None
        while not self.closed:
            fin, opcode, payload = self.reader.next_frame()
            if opcode == OP_PING:
                self._send(OP_PONG, payload)
                continue
            if opcode == OP_PONG:
                continue
            if opcode == OP_CLOSE:
                self._on_close(payload)
                return None
            if opcode == OP_CONT:
                if kind is None:
                    raise WebSocketError("continuation frame without a message to continue")
            else:
                if kind is not None:
                    raise WebSocketError("new message inside a fragmented one")
                kind = opcode
            size += len(payload)
            if size > self.reader.max_message:
                raise WebSocketError(f"message over the limit of {self.reader.max_message} bytes")
            parts.append(payload)
            if fin:
                data = b"".join(parts)
                if kind == OP_BINARY:
                    parts, size, kind = [], 0, None
                    continue
                try:
                    return data.decode("utf-8")
                except UnicodeDecodeError as e:
                    raise WebSocketError("text message that is not UTF-8") from e
        return None

    def _on_close(self, payload: bytes) -> None:
        if len(payload) == 1:
            raise WebSocketError("close frame with a one-byte payload")
        self.close_code = struct.unpack("!H", payload[:2])[0] if payload else 1005
        if not self.closed:
            self.closed = True
            try:
                self.sock.sendall(encode_frame(OP_CLOSE, payload[:2]))
            except OSError:
                pass
        self.sock.close()

    def close(self, code: int = 1000, wait: float = 2.0) -> None:
        """Start the close handshake, wait up to `wait` s for the server's close, drop the socket."""
        if self.closed:
            return
        self.closed = True
        try:
            self.sock.sendall(encode_frame(OP_CLOSE, struct.pack("!H", code)))
            self.sock.settimeout(wait)
            while True:
                _, opcode, _ = self.reader.next_frame()
                if opcode == OP_CLOSE:
                    break
        except (OSError, WebSocketError, ValueError):
            pass
        finally:
            self.sock.close()


def connect(url: str, timeout: float = 10.0, max_message: int = DEFAULT_MAX_MESSAGE, origin: str = None) -> WebSocket:
    """Open a WebSocket to `url` (ws:// or wss://). Sends no Origin header unless `origin` is
    given. Raises WebSocketError when the server is unreachable or refuses the upgrade."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise WebSocketError(f"not a ws:// or wss:// URL: {url}")
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    try:
        sock = socket.create_connection((parts.hostname, port), timeout=timeout)
        if parts.scheme == "wss":
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
    except OSError as e:
        raise WebSocketError(f"cannot connect to {parts.hostname}:{port}: {e}") from e
    key = base64.b64encode(os.urandom(16)).decode("ascii")
    host = parts.netloc.rsplit("@", 1)[-1]
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    try:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise WebSocketError("the server closed the connection during the upgrade")
            head += chunk
            if len(head) > 16384:
                raise WebSocketError("upgrade answer headers too long")
    except OSError as e:
        sock.close()
        raise WebSocketError(f"upgrade failed: {e}") from e
    except WebSocketError:
        sock.close()
        raise
    raw, leftover = head.split(b"\r\n\r\n", 1)
    status, *fields = raw.decode("latin-1").split("\r\n")
    headers = {}
    for field in fields:
        name, _, value = field.partition(":")
        headers[name.strip().lower()] = value.strip()
    words = status.split(" ", 2)
    if len(words) < 2 or words[1] != "101":
        sock.close()
        raise WebSocketError(f"upgrade refused: {status}")
    if headers.get("upgrade", "").lower() != "websocket" or "upgrade" not in headers.get("connection", "").lower():
        sock.close()
        raise WebSocketError("upgrade answer without Upgrade: websocket / Connection: Upgrade")
    if headers.get("sec-websocket-accept") != accept_key(key):
        sock.close()
        raise WebSocketError("wrong Sec-WebSocket-Accept in the upgrade answer")
    return WebSocket(sock, max_message, leftover)
