// The engine in the browser (src/engine/wasm.ts over ../build-wasm/engine.wasm) against the
// native `senet` tool built from the same sources: legal moves and applied moves on thousands of
// positions reached by random play in every ruleset, replays against `senet replay --positions`,
// the win probability against `senet winprob`, malformed input, and the play page's bundle
// (which must not load the engine). Needs ../build-wasm/engine.wasm (scripts/build-wasm.sh),
// the native tool (../build/cli/senet, or SENET_CLI) and, for the bundle check, dist/ (npm run build).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(web, "..");
const senet = process.env.SENET_CLI ?? join(root, "build", "cli", "senet");
const wasmFile = join(root, "build-wasm", "engine.wasm");
const RULESETS = ["standard", "jequier", "bell", "kendall", "piccione"];
const POSITIONS_PER_RULESET = 2000;

const tmp = mkdtempSync(join(tmpdir(), "senet-wasm-"));
let engine;

before(async () => {
  assert.ok(existsSync(senet), `the native tool ${senet} is missing: build it (scripts/build.sh) or set SENET_CLI`);
  assert.ok(existsSync(wasmFile), `${wasmFile} is missing: run scripts/build-wasm.sh`);
  await esbuild.build({
    entryPoints: [join(web, "src", "engine", "wasm.ts")], outfile: join(tmp, "wasm.mjs"),
    bundle: true, format: "esm", platform: "neutral", target: "es2022", logLevel: "warning",
  });
  const { instantiateEngine } = await import(pathToFileURL(join(tmp, "wasm.mjs")).href);
  engine = await instantiateEngine(readFileSync(wasmFile));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The native tool's output (stdout) for `args`, `input` on standard input. */
const native = (args, input = "") => execFileSync(senet, args, { input, encoding: "utf8", maxBuffer: 1 << 28 });
/** `senet query` for many query lines at once: one answer line each. */
const nativeQuery = (lines) => {
  const out = native(["query"], lines.join("\n") + "\n").split("\n");
  assert.equal(out.pop(), "");
  assert.equal(out.length, lines.length);
  return out;
};

/** A seeded generator (mulberry32): the same positions on every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A throw value drawn with the ruleset's odds. */
function drawThrow(odds, rnd) {
  let r = rnd();
  for (const o of odds) {
    if ((r -= o.probability) < 0) return o.throwValue;
  }
  return odds[odds.length - 1].throwValue;
}

/** The sticks string of a stick ruleset's throw (any pattern that counts it), for records. */
const sticks = (v) => (v <= 4 ? "1".repeat(v) + "0".repeat(4 - v) : "0000");

/**
 * Random games with the WebAssembly engine: `count` positions of games still going (starts
 * included), and the records of the games played, in the engine's record format.
 */
function randomPlay(ruleset, count, rnd) {
  const odds = engine.throwOdds(ruleset);
  const start = native(["start", ruleset]).trim();
  const positions = [];
  const records = [];
  let pos = start;
  let record = { ruleset, plies: [] };
  if (ruleset === "jequier") record.opening = [{ throw: 3, sticks: "1110" }, { throw: 1, sticks: "1000" }];
  while (positions.length < count) {
    positions.push(pos);
    // Piccione: a remainder (REM > 0) is spent without a throw: THROW `-`, passed as 0.
    const remainder = ruleset === "piccione" && pos.split(":")[5] !== "0";
    const v = remainder ? 0 : drawThrow(odds, rnd);
    const moves = engine.moves(pos, v);
    const move = moves[Math.floor(rnd() * moves.length)];
    const player = Number(pos.split(":")[2]);
    record.plies.push(remainder ? { player, move } : ruleset === "bell" ? { player, throw: v, move } : { player, throw: v, sticks: sticks(v), move });
    const next = engine.apply(pos, v, move);
    pos = next.position;
    if (next.status !== "ongoing") {
      records.push({ ...record, result: next.status });
      record = { ...record, plies: [] };
      pos = start;
    }
  }
  records.push({ ...record, result: "ongoing" });
  return { positions, records, odds };
}

const played = {};
/** The random games of a ruleset, played once and shared by the tests. */
const games = (ruleset) => (played[ruleset] ??= randomPlay(ruleset, POSITIONS_PER_RULESET, random(7 + RULESETS.indexOf(ruleset))));

for (const ruleset of RULESETS) {
  test(`${ruleset}: legal moves and every applied move agree with the native engine on ${POSITIONS_PER_RULESET} random positions`, () => {
    const { positions, odds } = games(ruleset);
    assert.ok(new Set(positions).size > POSITIONS_PER_RULESET / 2, "random play should reach many distinct positions");
    const queries = [];
    const expected = [];
    // A Piccione position with a remainder takes THROW `-` (0 for the engine) and no throw value.
    const spendsRemainder = (pos) => ruleset === "piccione" && pos.split(":")[5] !== "0";
    const arg = (v) => (v === 0 ? "-" : String(v));
    positions.forEach((pos, index) => {
      const throws = spendsRemainder(pos) ? [0] : odds.map((o) => o.throwValue);
      if (spendsRemainder(pos) && index % 4 === 0) {
        // the wrong kind of THROW is rejected by both with the same message
        queries.push(`moves ${pos} 1`);
        try {
          engine.moves(pos, 1);
          expected.push("accepted");
        } catch (err) {
          expected.push(`error: ${err.message}`);
        }
      }
      for (const v of throws) {
        const moves = engine.moves(pos, v);
        queries.push(`moves ${pos} ${arg(v)}`);
        expected.push(moves.join(" "));
        for (const m of moves) {
          queries.push(`apply ${pos} ${arg(v)} ${m}`);
          const r = engine.apply(pos, v, m);
          expected.push(`${r.position} ${r.status}`);
        }
        // an illegal or malformed move is rejected by both with the same message (a sample)
        for (const m of index % 8 === 0 ? ["1-2", "30-off", "9-99"] : []) {
          if (moves.includes(m)) continue;
          queries.push(`apply ${pos} ${arg(v)} ${m}`);
          try {
            engine.apply(pos, v, m);
            expected.push("accepted");
          } catch (err) {
            assert.ok(err instanceof Error);
            expected.push(`error: ${err.message}`);
          }
        }
      }
    });
    const answers = nativeQuery(queries);
    for (let i = 0; i < queries.length; ++i) assert.equal(expected[i], answers[i], `query: ${queries[i]}`);
    // (Piccione: many positions spend a remainder and have one THROW, `-`)
    assert.ok(queries.length > POSITIONS_PER_RULESET * (ruleset === "piccione" ? 2 : odds.length * 2), `${queries.length} queries`);
  });

  test(`${ruleset}: winProbability lies in [0, 1] and equals senet winprob`, () => {
    const { positions } = games(ruleset);
    const sample = positions.filter((_, i) => i % 20 === 0);
    const answers = nativeQuery(sample.map((p) => `winprob ${p}`));
    let spread = 0;
    sample.forEach((pos, i) => {
      const p = engine.winProbability(pos);
      assert.ok(p >= 0 && p <= 1, `${pos}: ${p}`);
      assert.ok(Math.abs(p - Number(answers[i])) <= 1e-9, `${pos}: wasm ${p}, native ${answers[i]}`);
      spread = Math.max(spread, Math.abs(p - 0.5));
    });
    assert.ok(spread > 0.2, "some random positions should be clearly decided");
  });

  test(`${ruleset}: replay gives the positions of senet replay --positions`, () => {
    const { records } = games(ruleset);
    const finished = records.filter((r) => r.result !== "ongoing");
    assert.ok(finished.length >= 2, "random play should finish games");
    for (const record of [...finished.slice(0, 3), records[records.length - 1]]) {
      const json = JSON.stringify(record);
      const file = join(tmp, "record.json");
      writeFileSync(file, json);
      const r = engine.replay(json);
      assert.deepEqual(r.positions, native(["replay", "--positions", file]).trimEnd().split("\n"));
      assert.equal(r.positions.length, record.plies.length + 1);
      assert.deepEqual(r.plies, record.plies.map((p) => ({ throwValue: p.throw ?? 0, move: p.move, player: p.player })));
      assert.equal(r.status, native(["replay", file]).trimEnd().split("\n")[1]);
      assert.equal(r.status, record.result);
      assert.deepEqual(r.opening, ruleset === "jequier" ? [3, 1] : []);
    }
  });
}

test("replay reads the records the server serves (fixtures of senet verify), as senet replay --positions", () => {
  for (const name of ["standard.json", "jequier.json", "resigned.json"]) {
    const file = join(root, "tests", "cli", "fixtures", name);
    const json = readFileSync(file, "utf8");
    const r = engine.replay(json);
    assert.deepEqual(r.positions, native(["replay", "--positions", file]).trimEnd().split("\n"), name);
    const record = JSON.parse(json);
    assert.equal(r.plies.length, record.plies.length);
    assert.equal(r.status, record.result);
    assert.deepEqual(r.opening, (record.opening ?? []).map((t) => t.throw));
  }
});

test("throwOdds gives each ruleset's exact odds (RULES.md)", () => {
  const table = (ruleset) => engine.throwOdds(ruleset).map((o) => [o.throwValue, o.probability, o.extraThrow]);
  assert.deepEqual(table("standard"), [[1, 4 / 16, true], [2, 6 / 16, false], [3, 4 / 16, false], [4, 1 / 16, true], [5, 1 / 16, true]]);
  assert.deepEqual(table("jequier"), [[1, 4 / 16, true], [2, 6 / 16, false], [3, 4 / 16, false], [4, 1 / 16, true], [6, 1 / 16, true]]);
  assert.deepEqual(table("bell"), [[1, 0.25, false], [2, 0.25, false], [3, 0.25, false], [4, 0.25, false]]);
});

test("malformed input throws an Error naming the problem, and the engine keeps working", () => {
  const start = "standard:1212121212....................:1:0:0";
  const deep = "[".repeat(200000) + "]".repeat(200000);
  const cases = [
    [() => engine.moves("", 1), /position/],
    [() => engine.moves("standard:12:1:0:0", 1), /position/],
    [() => engine.moves("chess:1212121212....................:1:0:0", 1), /ruleset/],
    [() => engine.moves(start, 6), /throw/],
    [() => engine.moves(start, 0), /throw/],
    [() => engine.moves(start, 1.5), /throw/],
    [() => engine.moves(start, Number.NaN), /throw/],
    [() => engine.moves("x".repeat(1 << 20), 1), /position/],
    [() => engine.moves("standard:22222.........................:2:5:0", 1), /over \(win 1\)/],
    [() => engine.apply(start, 2, "1-3"), /1-3/],
    [() => engine.apply(start, 2, "banana"), /move/],
    [() => engine.apply(start, 2, ""), /move/],
    [() => engine.apply(start + "\u0000", 2, "9-11"), /position/],
    [() => engine.apply("standard:1212121212...\ud800................:1:0:0", 2, "9-11"), /position/],
    [() => engine.throwOdds("Standard"), /unknown ruleset/],
    [() => engine.winProbability("bell:1:1:0:0"), /position/],
    [() => engine.replay(""), /not valid JSON/],
    [() => engine.replay("[]"), /object/],
    [() => engine.replay(deep), /JSON/],
    [() => engine.replay('{"ruleset":"standard","plies":[{"throw":2,"sticks":"1100","move":"1-3"}]}'), /ply 1/],
    [() => engine.replay('{"ruleset":"standard","plies":[{"throw":7,"sticks":"1100","move":"9-11"}]}'), /ply 1/],
    [() => engine.replay('{"ruleset":"jequier","plies":[{"throw":2,"sticks":"1100","move":"9-11"}]}'), /opening/],
    [() => engine.replay('{"ruleset":"standard","plies":[7]}'), /ply 1/],
    [() => engine.replay('{"ruleset":"standard","plies":[{"throw":2,"sticks":"1100","move":"9-11","player":2}]}'), /player/],
    [() => engine.replay('{"ruleset":"standard","plies":[{"throw":18446744073709551615,"sticks":"1100","move":"9-11"}]}'), /ply 1/],
    [() => engine.replay('{"ruleset":"standard","plies":[{"throw":2.5,"sticks":"1100","move":"9-11"}]}'), /ply 1/],
    [() => engine.replay('{"ruleset":"standard","plies":[],"result":"win 1"}'), /result/],
    [() => engine.replay('{"ruleset":"bell","opening":[],"plies":[]}'), /opening/],
    [() => engine.replay('{"ruleset":"\ud800"}'), /ruleset/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (err) => err instanceof Error && message.test(err.message), String(call));
  }
  assert.deepEqual(engine.moves(start, 2), ["9-11"]);
  assert.deepEqual(engine.apply(start, 2, "9-11"), { position: "standard:12121212.21...................:2:0:0", status: "ongoing" });
});

test("the play page's bundle does not contain or load the WebAssembly engine", () => {
  const dist = join(web, "dist");
  assert.ok(existsSync(join(dist, "manifest.json")), "dist/ is missing: run npm run build");
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
  const wasmUrl = manifest["engine.wasm"];
  assert.match(wasmUrl ?? "", /^\/static\/engine-[0-9a-f]{10}\.wasm$/);
  assert.deepEqual(readFileSync(join(dist, wasmUrl.slice("/static/".length))), readFileSync(wasmFile));
  // play.js and every chunk it imports statically: what every player downloads. Chunks it
  // imports dynamically load on demand; only the spectators' bar (spectate.ts) may load the
  // engine, so every dynamic chunk that refers to it must be reached through that import alone.
  const refersToEngine = (text) => text.includes(wasmUrl) || text.includes("senet_result_ptr") || text.includes(".wasm");
  const seen = new Set();
  const dynamic = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(dist, file), "utf8");
    assert.ok(!refersToEngine(text), `${file} refers to the engine`);
    for (const [, dep] of text.matchAll(/import\s*\(\s*["'`]\.\/([\w-]+\.js)["'`]\s*\)/g)) dynamic.add(dep);
    for (const [, dep] of text.matchAll(/(?:from|import)\s*["'`]\.\/([\w-]+\.js)["'`]/g)) visit(dep);
  };
  visit(manifest["play.js"].slice("/static/".length));
  assert.ok(seen.size >= 2, `play.js and its chunks: ${[...seen].join(", ")}`);
  assert.ok(dynamic.size >= 1, "play.js loads its on-demand chunks (QR code, spectators' bar) dynamically");
  const engineChunks = [...dynamic].filter((f) => !seen.has(f) && refersToEngine(readFileSync(join(dist, f), "utf8")));
  assert.ok(engineChunks.length <= 1, `on-demand chunks that load the engine: ${engineChunks.join(", ")}`);
});
