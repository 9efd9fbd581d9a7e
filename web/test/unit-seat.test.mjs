// The page's own state in its address (src/shared/fragment.ts) and the seat secret (src/play/seat.ts,
// kept in storage by src/shared/storage.ts): read
// from #seat= or exchanged for #invite= through the join answer, kept in the fragment and in
// storage when there is any, and the client seed kept the same over a reload. The join
// request is answered here with the API's documented answers (server/API.md); the browser
// tests (e2e/) go through the real server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MemoryStorage, fragment, openPage, seat, seed, storage } from "../testlib/unit-env.mjs";

const PAGE = "https://senet.test/en/play/g1";
const HASH = "c".repeat(64);

/** Answers fetch with `status` and `body` (JSON unless a string), recording the requests. */
function answer(t, status, body) {
  const calls = [];
  t.mock.method(globalThis, "fetch", async (url, init) => {
    calls.push({ url, method: init.method, headers: init.headers, body: JSON.parse(init.body) });
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status });
  });
  return calls;
}

test("the fragment: read, set and removed in place, without a '#' left when empty", () => {
  const page = openPage(`${PAGE}?x=1#seat=abc&seed=s1`);
  assert.equal(fragment.fragmentValue("seat"), "abc");
  assert.equal(fragment.fragmentValue("nothing"), null);
  assert.equal(fragment.fragment().toString(), "seat=abc&seed=s1");
  fragment.setFragment({ seat: null, commit: "h" });
  assert.equal(page.url(), `${PAGE}?x=1#seed=s1&commit=h`);
  assert.equal(page.replaced, 1);
  fragment.setFragment({ seed: "s2" });
  assert.equal(page.url(), `${PAGE}?x=1#seed=s2&commit=h`);
  fragment.setFragment({ seed: null, commit: null });
  assert.equal(page.url(), `${PAGE}?x=1`);
  openPage(PAGE);
  assert.equal(fragment.fragment().toString(), "");
});

test("a listener hears each change setFragment makes (replaceState fires no hashchange)", () => {
  openPage(PAGE);
  const heard = [];
  fragment.onFragmentChange(() => heard.push(fragment.fragment().toString()));
  fragment.setFragment({ seat: "s" });
  fragment.setFragment({ seat: null });
  assert.deepEqual(heard, ["seat=s", ""]);
});

test("storage per game; blocked or broken storage reads as none and writes nothing", () => {
  const page = openPage(PAGE);
  storage.rememberSecret("g1", "sec");
  storage.setGameValue("g1", "seed", "s");
  assert.equal(page.storage.map.get("senet.seat.g1"), "sec");
  assert.equal(page.storage.map.get("senet.seed.g1"), "s");
  assert.equal(storage.storedSecret("g1"), "sec");
  assert.equal(storage.storedSecret("g2"), null);
  assert.equal(storage.gameValue("g1", "seed"), "s");
  assert.equal(storage.gameValue("g1", "invite"), null);
  for (const blocked of [null, new MemoryStorage(true)]) {
    openPage(PAGE, blocked);
    assert.equal(storage.storedSecret("g1"), null);
    assert.equal(storage.gameValue("g1", "seed"), null);
    storage.rememberSecret("g1", "sec");
    storage.setGameValue("g1", "seed", "s");
  }
});

test("#seat= holds the seat: remembered; the start form's share becomes the invite link", async () => {
  const page = openPage(`${PAGE}#seat=Ab_9-z&share=tok%2Fen`);
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: "Ab_9-z", problem: null });
  assert.equal(page.storage.map.get("senet.seat.g1"), "Ab_9-z");
  assert.equal(page.storage.map.get("senet.invite.g1"), "/en/play/g1#invite=tok%2Fen");
  assert.equal(page.url(), `${PAGE}#seat=Ab_9-z`);
  const plain = openPage(`${PAGE}#seat=${"a".repeat(128)}`);
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: "a".repeat(128), problem: null });
  assert.equal(plain.replaced, 0);
  assert.equal(plain.storage.map.get("senet.invite.g1"), undefined);
});

test("a seat secret that cannot be one is dropped with its own problem", async () => {
  for (const bad of ["a%20b", "a.b", "a".repeat(129), "x%0A"]) {
    const page = openPage(`${PAGE}#seat=${bad}&seed=s`);
    assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: null, problem: "bad-seat" }, bad);
    assert.equal(page.url(), `${PAGE}#seed=s`);
    assert.equal(page.storage.map.size, 0);
  }
});

test("#invite= is exchanged for a seat through the join request", async (t) => {
  const calls = answer(t, 200, { secret: "newSeat", commitment: HASH });
  const page = openPage(`${PAGE}#invite=tok-1_A`);
  assert.deepEqual(await seat.seatFromUrl("g1", "nl"), { secret: "newSeat", problem: null });
  assert.deepEqual(calls, [{ url: "/api/games/g1/join", method: "POST", headers: { "Content-Type": "application/json" }, body: { invite: "tok-1_A", lang: "nl" } }]);
  assert.equal(page.storage.map.get("senet.seat.g1"), "newSeat");
  assert.equal(page.storage.map.get("senet.commitment.g1"), HASH);
  assert.equal(page.url(), `${PAGE}#seat=newSeat&commit=${HASH}`);
});

test("#invite= with a seat already stored for the game uses that seat and asks nothing", async (t) => {
  const calls = answer(t, 200, { secret: "other" });
  const storage = new MemoryStorage();
  storage.setItem("senet.seat.g 2", "kept");
  const page = openPage(`${PAGE}#invite=tok&seed=s`, storage);
  assert.deepEqual(await seat.seatFromUrl("g 2", "en"), { secret: "kept", problem: null });
  assert.deepEqual(calls, []);
  assert.equal(page.url(), `${PAGE}#seed=s&seat=kept`);
});

test("an invite token that cannot be one is refused unsent, as a bad invite", async (t) => {
  const calls = answer(t, 200, { secret: "never" });
  for (const bad of ["a%20b", "a.b", "a".repeat(129), "x%0A"]) {
    const page = openPage(`${PAGE}#invite=${bad}&seed=s`);
    assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: null, problem: "bad-invite" }, bad);
    assert.equal(page.url(), `${PAGE}#seed=s`);
    assert.equal(page.storage.map.size, 0);
  }
  assert.equal(calls.length, 0, "no join request");
});
test("a full answer while another tab of this browser took the seat with the same invite uses that seat", async (t) => {
  const page = openPage(`${PAGE}#invite=tok-1`);
  t.mock.method(globalThis, "fetch", async () => {
    page.storage.map.set("senet.seat.g1", "otherTab");  // the other tab's join was answered first
    return new Response(JSON.stringify({ error: "full" }), { status: 409 });
  });
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: "otherTab", problem: null });
  assert.equal(page.url(), `${PAGE}#seat=otherTab`);
});
test("a full answer before the other tab has stored the seat it won waits for that tab's storage event", async (t) => {
  const page = openPage(`${PAGE}#invite=tok-1`);
  t.mock.method(globalThis, "fetch", async () => {
    setTimeout(() => page.storageEvent("senet.seat.g2", "notThis"), 50);  // another game's seat: not this one
    setTimeout(() => page.storageEvent("senet.seat.g1", "otherTab"), 200);  // the other tab stores it a moment later
    return new Response(JSON.stringify({ error: "full" }), { status: 409 });
  });
  const started = Date.now();
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: "otherTab", problem: null });
  assert.ok(Date.now() - started < 1000, "taken when the event came, not at the end of the wait");
  assert.equal(page.url(), `${PAGE}#seat=otherTab`);
  // Nobody of this browser stores it: full, after the wait; with storage blocked, at once.
  t.mock.method(globalThis, "fetch", async () => new Response(JSON.stringify({ error: "full" }), { status: 409 }));
  openPage(`${PAGE}#invite=tok-1`);
  const waited = Date.now();
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: null, problem: "full" });
  assert.ok(Date.now() - waited >= 1400, "waited for another tab");
  openPage(`${PAGE}#invite=tok-1`, null);
  const blocked = Date.now();
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: null, problem: "full" });
  assert.ok(Date.now() - blocked < 500, "no wait where storage is blocked");
});
test("a refused invite names why; only a failed request keeps the invite for a reload", async (t) => {
  const cases = [
    [409, { error: "full" }, "full", false],
    [409, { error: "over" }, "over", false],
    [410, { error: "over" }, "over", false],
    [403, { error: "bad-invite" }, "bad-invite", false],
    [400, "not json", "bad-invite", false],
    [500, { error: "internal" }, "failed", true],
    [404, {}, "failed", true],
    [503, { error: null }, "failed", true],
  ];
  for (const [status, body, problem, kept] of cases) {
    const calls = answer(t, status, body);
    const page = openPage(`${PAGE}#invite=tok&seed=s`);
    assert.deepEqual(await seat.seatFromUrl("g 1", "en"), { secret: null, problem }, `${status} ${JSON.stringify(body)}`);
    assert.equal(calls[0].url, "/api/games/g%201/join");
    assert.equal(page.url(), kept ? `${PAGE}#invite=tok&seed=s` : `${PAGE}#seed=s`);
    assert.equal(page.storage.map.size, 0);
    t.mock.restoreAll();
  }
  t.mock.method(globalThis, "fetch", async () => { throw new TypeError("network down"); });
  const page = openPage(`${PAGE}#invite=tok`);
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: null, problem: "failed" });
  assert.equal(page.url(), `${PAGE}#invite=tok`);
});

test("no seat or invite in the fragment: a stored seat goes into the fragment, else the page watches", async () => {
  const storage = new MemoryStorage();
  storage.setItem("senet.seat.g1", "stored");
  const page = openPage(`${PAGE}#seed=s`, storage);
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: "stored", problem: null });
  assert.equal(page.url(), `${PAGE}#seed=s&seat=stored`);
  const none = openPage(`${PAGE}#seed=s`);
  assert.deepEqual(await seat.seatFromUrl("g1", "en"), { secret: null, problem: null });
  assert.equal(none.url(), `${PAGE}#seed=s`);
  assert.equal(none.replaced, 0);
});

test("the client seed: the fragment's, else the stored one, else 16 random bytes in hex; kept in both", () => {
  const page = openPage(`${PAGE}#seat=x&seed=frag_1`);
  page.storage.setItem("senet.seed.g1", "stored1");
  assert.equal(seed.clientSeed("g1"), "frag_1");
  assert.equal(page.storage.map.get("senet.seed.g1"), "frag_1");
  assert.equal(page.replaced, 0);
  const second = openPage(`${PAGE}#seat=x`);
  second.storage.setItem("senet.seed.g1", "stored-1");
  assert.equal(seed.clientSeed("g1"), "stored-1");
  assert.equal(second.url(), `${PAGE}#seat=x&seed=stored-1`);
  const fresh = openPage(`${PAGE}#seat=x&seed=not%20a%20seed`);
  const drawn = seed.clientSeed("g1");
  assert.match(drawn, /^[0-9a-f]{32}$/);
  assert.equal(fresh.url(), `${PAGE}#seat=x&seed=${drawn}`);
  assert.equal(fresh.storage.map.get("senet.seed.g1"), drawn);
  openPage(PAGE);
  assert.notEqual(seed.clientSeed("g1"), drawn, "a new draw");
  openPage(`${PAGE}#seed=${"a".repeat(65)}`);
  assert.match(seed.clientSeed("g1"), /^[0-9a-f]{32}$/);
  openPage(`${PAGE}#seed=${"a".repeat(64)}`);
  assert.equal(seed.clientSeed("g1"), "a".repeat(64));
  // The bytes are spread over the whole hex range, two digits each (a byte below 16 keeps its 0).
  const seen = new Set();
  for (let i = 0; i < 40; i++) {
    openPage(PAGE);
    const drawn = seed.clientSeed("g1");
    assert.equal(drawn.length, 32);
    for (const c of drawn) seen.add(c);
  }
  assert.equal(seen.size, 16);
});
