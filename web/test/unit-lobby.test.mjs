// The lobby's client side (src/home/lobby-client.ts, src/home/guest.ts): reading the server's
// lobby messages as server/PROTOCOL.md "Lobby" gives them, the seek sent on every (re)connect
// and never after a pairing or a refusal, the reconnect back-off, and the guest name's check and
// the browser token, each against values written here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { guest, lobbyClient as lc, MemoryStorage, openPage } from "../testlib/unit-env.mjs";

/** A socket the test opens, feeds and closes by hand; `sent` holds what the client sent. */
class FakeSocket {
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.closedWith = null; this.onopen = this.onmessage = this.onclose = this.onerror = null; }
  send(data) { assert.equal(this.readyState, 1, "sent on an open socket only"); this.sent.push(JSON.parse(data)); }
  close(code) { this.closedWith = code; this.readyState = 3; }
  open() { this.readyState = 1; this.onopen?.({}); }
  receive(msg) { this.onmessage?.({ data: JSON.stringify(msg) }); }
  drop() { this.readyState = 3; this.onclose?.({}); }
}

/** A client on fake sockets and a hand-driven timer; returns it with the sockets, the timers and what the page was told. */
function setup() {
  const sockets = [], timers = [], told = [];
  const client = new lc.LobbyClient({
    url: "ws://127.0.0.1:1/ws/lobby",
    open: (url) => { const s = new FakeSocket(url); sockets.push(s); return s; },
    setTimer: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimer: (id) => { timers[id - 1].cleared = true; },
    handlers: {
      lobby: (info) => told.push(["lobby", info]),
      seeking: (ruleset, id, name) => told.push(["seeking", ruleset, id, name]),
      cancelled: () => told.push(["cancelled"]),
      paired: (p) => told.push(["paired", p]),
      error: (code, message, d) => told.push(["error", code, message, d.seconds]),
      connection: (open) => told.push(["connection", open]),
    },
  });
  return { client, sockets, timers, told };
}

const seek = { kind: "seek", ruleset: "standard", name: "Nefertari", browser: "k3v9Q0x2LmZp7RtA" };
const PAIRED = { commitment: "5f70bf18a0860070b3c0dc2a0ef1a1d56b2f2d1b0a3ac9e0f0a6b5c4d3e2f1a0", game: "Xb6m0r2QbHk2nS1vKcQx7A", name: "Guest 4821",
  opponent: "Nefertari", ruleset: "standard", seat: 1, secret: "q3N0b2Jq", socket: "/ws/games/Xb6m0r2QbHk2nS1vKcQx7A", url: "/play/Xb6m0r2QbHk2nS1vKcQx7A#seat=q3N0b2Jq" };

test("the lobby message of PROTOCOL.md is read as counts and open seeks; malformed parts are left out", () => {
  const info = lc.readLobby({ rulesets: { standard: { playing: 4, seeking: 1 }, bell: { playing: -2, seeking: "3" } },
    open: [{ id: "dG9rZW4xMjM0NTY3", name: "Guest 4821", ruleset: "standard", since: 1764657600000 }, { name: "no id" }, null, { id: "x", ruleset: "any", name: "<b>Ra</b>", since: 1764657600 },
      { id: "b", ruleset: "bell", name: "Sticks 0.3", since: 1764657600000, bot: true }, { id: "c", ruleset: "bell", name: "Not", since: 1764657600000, bot: "yes" }] });
  assert.deepEqual(info.rulesets, { standard: { seeking: 1, playing: 4 }, bell: { seeking: 0, playing: 0 } });
  assert.deepEqual(info.open, [
    { id: "dG9rZW4xMjM0NTY3", ruleset: "standard", name: "Guest 4821", since: 1764657600000, bot: false },
    { id: "x", ruleset: "any", name: "<b>Ra</b>", since: 1764657600000, bot: false },  // seconds read as ms; the name kept as it is (shown as text)
    { id: "b", ruleset: "bell", name: "Sticks 0.3", since: 1764657600000, bot: true },  // a program's seek (PROTOCOL.md "Bots")
    { id: "c", ruleset: "bell", name: "Not", since: 1764657600000, bot: false },  // only true marks a bot
  ]);
  assert.deepEqual(lc.readLobby(null), { rulesets: {}, open: [] });
  assert.deepEqual(lc.readLobby({ rulesets: 3, open: "no" }), { rulesets: {}, open: [] });
  assert.equal(lc.sinceMs("2025-12-02T06:00:00Z"), Date.UTC(2025, 11, 2, 6));
  assert.equal(lc.sinceMs("soon"), 0);
  assert.equal(lc.sinceMs(-5), 0);
});

test("a paired message gives the game, the seat secret, the names and a same-site address", () => {
  assert.deepEqual(lc.readPaired(PAIRED), { game: PAIRED.game, secret: "q3N0b2Jq", socket: PAIRED.socket, url: PAIRED.url, ruleset: "standard",
    commitment: PAIRED.commitment, name: "Guest 4821", opponent: "Nefertari", opponentBot: false });
  assert.equal(lc.readPaired({ ...PAIRED, opponentBot: true }).opponentBot, true);
  assert.equal(lc.readPaired({ ...PAIRED, opponentBot: "true" }).opponentBot, false);
  assert.equal(lc.readPaired({ ...PAIRED, secret: "" }), null);
  assert.equal(lc.readPaired({ ...PAIRED, game: 7 }), null);
  // Another origin is never followed: the page builds the address itself.
  assert.equal(lc.readPaired({ ...PAIRED, url: "https://evil.example/x" }).url, "/play/Xb6m0r2QbHk2nS1vKcQx7A#seat=q3N0b2Jq");
  assert.equal(lc.readPaired({ ...PAIRED, url: "//evil.example/x" }).url, "/play/Xb6m0r2QbHk2nS1vKcQx7A#seat=q3N0b2Jq");
  assert.equal(lc.readPaired({ ...PAIRED, commitment: "not hex" }).commitment, "");
});

test("seek and take go on the wire as PROTOCOL.md writes them", () => {
  assert.deepEqual(JSON.parse(lc.wireOf(seek)), { t: "seek", d: { ruleset: "standard", name: "Nefertari", browser: "k3v9Q0x2LmZp7RtA" } });
  assert.deepEqual(JSON.parse(lc.wireOf({ kind: "seek", ruleset: "any" })), { t: "seek", d: { ruleset: "any" } });
  // After the offer to play the computer the seek accepts bots; a take never says so.
  assert.deepEqual(JSON.parse(lc.wireOf({ kind: "seek", ruleset: "bell", bots: true })), { t: "seek", d: { ruleset: "bell", bots: true } });
  assert.deepEqual(JSON.parse(lc.wireOf({ kind: "seek", ruleset: "bell", bots: false })), { t: "seek", d: { ruleset: "bell" } });
  assert.deepEqual(JSON.parse(lc.wireOf({ kind: "take", seek: "dG9rZW4xMjM0NTY3", browser: "b1" })), { t: "take", d: { seek: "dG9rZW4xMjM0NTY3", browser: "b1" } });
});

test("the reconnect waits 0.5 s, doubling, at most 8 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map(lc.reconnectDelay), [500, 1000, 2000, 4000, 8000, 8000, 8000]);
});

test("the seek is sent when the socket opens, and again on every reconnect, without the player doing anything", () => {
  const { client, sockets, timers, told } = setup();
  client.want(seek);
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].url, "ws://127.0.0.1:1/ws/lobby");
  assert.deepEqual(sockets[0].sent, []);  // not yet open
  sockets[0].open();
  assert.deepEqual(sockets[0].sent, [{ t: "seek", d: { ruleset: "standard", name: "Nefertari", browser: "k3v9Q0x2LmZp7RtA" } }]);
  sockets[0].receive({ t: "seeking", d: { id: "S1", name: "Nefertari", ruleset: "standard" } });
  // The server restarts: the socket drops, the client waits 0.5 s, then 1 s after a failed attempt.
  sockets[0].drop();
  assert.deepEqual(timers.map((x) => x.ms), [500]);
  timers[0].fn();
  assert.equal(sockets.length, 2);
  sockets[1].drop();
  assert.deepEqual(timers.map((x) => x.ms), [500, 1000]);
  timers[1].fn();
  sockets[2].open();
  assert.deepEqual(sockets[2].sent, [{ t: "seek", d: { ruleset: "standard", name: "Nefertari", browser: "k3v9Q0x2LmZp7RtA" } }]);
  assert.deepEqual(told, [["connection", true], ["seeking", "standard", "S1", "Nefertari"], ["connection", false], ["connection", false], ["connection", true]]);
  // A later drop starts the back-off from 0.5 s again.
  sockets[2].drop();
  assert.equal(timers.at(-1).ms, 500);
});

test("after a pairing or a refusal nothing is sought again on reconnect", () => {
  const { client, sockets, timers, told } = setup();
  client.want(seek);
  sockets[0].open();
  sockets[0].receive({ t: "paired", d: PAIRED });
  assert.equal(told.at(-1)[0], "paired");
  assert.equal(told.at(-1)[1].opponent, "Nefertari");
  assert.equal(client.seeking, null);
  sockets[0].drop();
  timers[0].fn();
  sockets[1].open();
  assert.deepEqual(sockets[1].sent, []);
  client.want(seek);
  assert.deepEqual(sockets[1].sent, [{ t: "seek", d: { ruleset: "standard", name: "Nefertari", browser: "k3v9Q0x2LmZp7RtA" } }]);
  sockets[1].receive({ t: "error", d: { code: "wait", message: "you may seek again in 60 s", seconds: 60 } });
  assert.deepEqual(told.at(-1), ["error", "wait", "you may seek again in 60 s", 60]);
  assert.equal(client.seeking, null);
  sockets[1].drop();
  timers[1].fn();
  sockets[2].open();
  assert.deepEqual(sockets[2].sent, []);
});

test("cancel withdraws the seek on the wire; close ends the socket with no reconnect; junk is ignored", () => {
  const { client, sockets, timers, told } = setup();
  client.want(seek);
  sockets[0].open();
  sockets[0].onmessage({ data: "not json" });
  sockets[0].receive({ t: "hello", d: {} });
  sockets[0].receive({ t: "paired", d: { game: "g" } });  // no secret: not a pairing
  assert.deepEqual(told, [["connection", true]]);
  client.cancel();
  assert.deepEqual(sockets[0].sent.at(-1), { t: "cancel", d: {} });
  client.cancel();  // nothing sought: nothing sent
  assert.equal(sockets[0].sent.length, 2);
  sockets[0].receive({ t: "cancelled", d: {} });
  assert.deepEqual(told.at(-1), ["cancelled"]);
  client.close();
  assert.equal(sockets[0].closedWith, 1000);
  sockets[0].drop();
  assert.equal(timers.length, 0);
  client.want(seek);
  assert.equal(sockets.length, 1);
});

test("a lobby message reaches the page as read", () => {
  const { client, sockets, told } = setup();
  client.connect();
  sockets[0].open();
  sockets[0].receive({ t: "lobby", d: { rulesets: { standard: { playing: 2, seeking: 1 } }, open: [{ id: "A", name: "Ra", ruleset: "standard", since: 1764657600000 }] } });
  assert.deepEqual(told.at(-1), ["lobby", { rulesets: { standard: { seeking: 1, playing: 2 } }, open: [{ id: "A", ruleset: "standard", name: "Ra", since: 1764657600000, bot: false }] }]);
});

test("a guest name is checked as the server will: 20 characters after NFC, letters, marks, digits, spaces, . _ -, no links", () => {
  for (const ok of ["", "Nefertari", "  Ra  ", "Ḥatšepsut", "H\u0323atšepsut", "نفرتاري", "Ἀμενέμης 2", "王_李-3.", "a".repeat(20), "Ä".normalize("NFD").repeat(20)]) {
    assert.equal(guest.nameProblem(ok), "", ok);
  }
  assert.equal(guest.nameProblem("a".repeat(21)), "long");
  assert.equal(guest.nameProblem("Ra 🐍"), "chars");
  assert.equal(guest.nameProblem("<b>Ra</b>"), "chars");
  assert.equal(guest.nameProblem("Ra!"), "chars");
  assert.equal(guest.nameProblem("www.senet"), "link");
  assert.equal(guest.nameProblem("senet.com"), "link");
  assert.equal(guest.nameProblem("http://x"), "link");
  assert.equal(guest.cleanName("  Ra   \t Hor "), "Ra Hor");
  assert.equal(guest.cleanName("H\u0323"), "\u1E24");
});

test("the name and the browser token are kept in storage; without storage the token lasts for the page", () => {
  const page = openPage("http://127.0.0.1/en/");
  assert.equal(guest.savedName(), "");
  guest.saveName("Nefertari");
  assert.equal(page.storage.getItem("senet.guest-name"), "Nefertari");
  assert.equal(guest.savedName(), "Nefertari");
  guest.saveName("");
  assert.equal(page.storage.getItem("senet.guest-name"), null);
  const token = guest.browserToken();
  assert.match(token, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(page.storage.getItem("senet.browser"), token);
  assert.equal(guest.browserToken(), token);
  openPage("http://127.0.0.1/en/", new MemoryStorage(true));
  const blocked = guest.browserToken();
  assert.match(blocked, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(guest.browserToken(), blocked);
  assert.equal(guest.savedName(), "");
  guest.saveName("Ra");  // does not throw
});
