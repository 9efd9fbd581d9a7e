// The analysis shown to the players: a game against the computer played to its end on a phone
// (the cones, the first seat), then its replay in every language on a phone (390×844) and a
// laptop (1280×800): each move the server's analysis marks (inaccuracy, mistake, blunder) marked
// in the move list with its symbol, its name for screen readers and its note; the legend with
// the analysis's thresholds; each player's accuracy, marks and luck ("you" for the cones, whom
// this browser played); the exact (endgame table) points of the graph and the current move's
// luck and exactness — every text the catalog's sentence of that language with the analysis's
// own numbers, never English in another language. The end panel shows both players' accuracy
// and luck without pushing its buttons off a phone's screen, and a busy server (503) leaves a
// quiet link to try again. Screenshots: test-artifacts/analysis-*.png.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { LANGS, REPO, axe, ensureArtifacts, launchBrowser, message, startGame, startServer, waitUntil, watchConsole } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const LAPTOP = { viewport: { width: 1280, height: 800 } };
const KINDS = ["inaccuracy", "mistake", "blunder"];
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

let server, browser, playing, playPage, game, analysis, storage;

before(async () => {
  // Every page load of this test asks for the analysis: a burst large enough for all of them.
  server = await startServer(["--analysis-burst", "200"]);
  browser = await launchBrowser();
  // A game with at least two marked moves to show: the course of a game is the throws' (the
  // browser's seed is its own), and one game in a few has fewer; then another is played.
  for (let attempt = 1; attempt <= 4; ++attempt) {
    await playing?.close();
    playing = await browser.newContext(PHONE);
    playPage = await playing.newPage();
    game = (await startGame(playPage, server.url, { opponent: "computer", level: "beginner", ruleset: "standard", side: "first" })).split("/").pop();
    const outcome = await playPage.evaluate(async () => {
      const until = Date.now() + 150000;
      while (Date.now() < until) {
        if (!document.getElementById("end").hidden) return "over";
        const throwButton = document.getElementById("throw-button");
        // The last move offered, often a worse one than the first: a game with marks to show.
        const choices = document.querySelectorAll("#move-choices button");
        if (!throwButton.disabled) throwButton.click();
        else if (choices.length) choices[choices.length - 1].click();
        await new Promise((r) => setTimeout(r, 5));
      }
      return "timeout";
    });
    assert.equal(outcome, "over", "the game ended");
    const response = await fetch(`${server.url}/api/games/${game}/analysis`);
    assert.equal(response.status, 200);
    analysis = await response.json();
    if (analysis.plies.filter((p) => p.mark).length >= 2) break;
    console.log(`game ${attempt} had ${analysis.plies.filter((p) => p.mark).length} marked moves: another`);
  }
  storage = await playing.storageState();
});
after(async () => { await browser?.close(); await server?.stop(); });

/** The browser's own percent formatting for `lang` (as the page formats it: Latin digits). */
const formatter = (page, lang) => (values, options = {}) => page.evaluate(([l, vs, o]) => vs.map((v) => new Intl.NumberFormat(`${l}-u-nu-latn`, { style: "percent", maximumFractionDigits: 0, ...o }).format(v)), [lang, values, options]);

const luckSign = (luck) => (Math.round(Math.abs(luck) * 100) === 0 ? "even" : luck > 0 ? "lucky" : "unlucky");
const bestText = (lang, best) => {
  const [from, to] = best.split("-");
  return to === "off" ? message(lang, "play.choice-off", { from: Number(from) }) : message(lang, "play.choice-to", { from: Number(from), to: Number(to) });
};

test("the analysis has marks, luck, exact values and both players' figures to show", () => {
  const marked = analysis.plies.filter((p) => p.mark);
  const decisions = analysis.plies.filter((p) => p.legalMoves >= 2);
  console.log(`analysis: ${analysis.plies.length} plies, ${decisions.length} decisions, marks ${JSON.stringify(marked.map((p) => [p.ply, p.player, p.mark, p.loss]))}, players ${JSON.stringify(analysis.players)}`);
  assert.ok(marked.length >= 2, `marked moves: ${marked.length}`);
  assert.deepEqual(analysis.thresholds, { inaccuracy: 0.02, mistake: 0.05, blunder: 0.1 });
  assert.equal(analysis.players.length, 2);
  assert.ok(analysis.exact.some(Boolean), "some positions are exact (the server has the endgame tables)");
  assert.ok(analysis.plies.some((p) => typeof p.luck === "number" && p.luck !== 0));
});

for (const [label, options] of [["phone", PHONE], ["laptop", LAPTOP]]) {
  for (const lang of LANGS) {
    test(`the replay marks the moves and sums up each player in ${lang} (${label})`, { timeout: 60000 }, async () => {
      const context = await browser.newContext({ ...options, storageState: storage });
      const page = await context.newPage();
      const problems = watchConsole(page);
      // A position after a marked ply with luck, the details line then shows both.
      const marked = analysis.plies.filter((p) => p.mark);
      const shownPly = marked.find((p) => typeof p.luck === "number" && p.luck !== 0) ?? marked[0];
      await page.goto(`${server.url}/${lang}/replay/${game}#ply=${shownPly.ply}`);
      await waitUntil(page, "the replay's summary", () => page.waitForSelector("#replay-summary:not([hidden]) .player-sum", { timeout: 20000 }));
      const fmt = formatter(page, lang);

      // The move list: the analysis's marks, each with its symbol, its name and its note.
      const lines = await page.$$eval("#replay-moves li.marked", (ls) => ls.map((l) => ({
        n: Number(l.dataset.n), mark: l.dataset.mark, symbol: l.querySelector(".mark-symbol")?.textContent,
        hidden: l.querySelector(".visually-hidden")?.textContent, note: l.querySelector(".mark-note")?.textContent,
      })));
      assert.deepEqual(lines.map((l) => [l.n, l.mark]), marked.map((p) => [p.ply, p.mark]));
      const losses = await fmt(marked.map((p) => p.loss));
      lines.forEach((l, i) => {
        const p = marked[i];
        assert.equal(l.symbol, SYMBOLS[p.mark]);
        assert.equal(l.hidden, ` (${message(lang, "replay.mark.name", { mark: p.mark })})`);
        assert.equal(l.note, message(lang, "replay.mark.note", { mark: p.mark, loss: losses[i], best: bestText(lang, p.best) }));
      });
      assert.deepEqual(await page.$$eval("#replay-graph .graph-mark", (ms) => ms.map((m) => [Number(m.dataset.n), m.dataset.mark])), marked.map((p) => [p.ply, p.mark]));

      // The page ends with its footer: nothing of the list (its hidden words) stretches it.
      const ends = await page.evaluate(() => ({ page: document.documentElement.scrollHeight, footer: document.querySelector(".site-footer").getBoundingClientRect().bottom + scrollY }));
      assert.ok(Math.abs(ends.page - ends.footer) <= 2, `the page is ${ends.page} px tall, its footer ends at ${ends.footer}`);

      // The legend, with the thresholds in the language's percent.
      const thresholds = await fmt(KINDS.map((k) => analysis.thresholds[k]));
      assert.deepEqual(await page.$$eval("#mark-legend li", (ls) => ls.map((l) => l.textContent)),
        KINDS.map((k, i) => SYMBOLS[k] + message(lang, "replay.legend.mark", { mark: k, threshold: thresholds[i] })));
      assert.ok(await page.isVisible("#mark-legend"));

      // Each player: accuracy, marks and luck; the cones are "you".
      const cards = await page.$$eval("#summary-players .player-sum", (cs) => cs.map((c) => [...c.children].map((e) => e.textContent)));
      assert.equal(cards.length, 2);
      for (const p of analysis.players) {
        const you = p.player === 1 ? "yes" : "no";
        const [accuracy] = await fmt([Math.round(p.accuracy) / 100]);
        const [amount] = await fmt([Math.abs(p.luck)]);
        const expected = [
          message(lang, "replay.sum.player", { player: `p${p.player}`, you }),
          message(lang, "replay.sum.accuracy", { accuracy }),
          message(lang, "replay.sum.marks", { blunders: p.blunders, mistakes: p.mistakes, inaccuracies: p.inaccuracies }),
          message(lang, "replay.sum.luck", { player: `p${p.player}`, you, sign: luckSign(p.luck), amount }),
        ];
        assert.deepEqual(cards[p.player - 1], expected, `player ${p.player}`);
        if (lang !== "en") assert.notEqual(expected[3], message("en", "replay.sum.luck", { player: `p${p.player}`, you, sign: luckSign(p.luck), amount }));
      }
      assert.equal(await page.textContent("#summary-title"), message(lang, "replay.sum.title"));

      // The current move's details: its mark, its throw's luck for the mover; the exact points.
      const details = await page.textContent("#replay-judge");
      assert.ok(details.includes(message(lang, "replay.mark.name", { mark: shownPly.mark })), details);
      if (typeof shownPly.luck === "number") {
        const [signed] = await page.evaluate(([l, v]) => [new Intl.NumberFormat(`${l}-u-nu-latn`, { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" }).format(v)], [lang, Math.round(shownPly.luck * 100) / 100]);
        assert.ok(details.includes(message(lang, "replay.ply-luck", { player: `p${shownPly.player}`, luck: signed })), details);
      }
      const exact = analysis.exact.map((e, n) => (e ? n : -1)).filter((n) => n >= 0);
      assert.deepEqual(await page.$$eval("#replay-graph .graph-point[data-exact]", (cs) => cs.map((c) => Number(c.dataset.n))), exact);
      assert.equal(await page.textContent("#graph-exact"), message(lang, "replay.legend.exact"));
      await page.click(`#replay-moves li[data-n="${exact[0]}"] button`);
      await page.waitForFunction((k) => document.getElementById("replay")?.dataset.ply === String(k), exact[0]);
      assert.ok((await page.textContent("#replay-judge")).includes(message(lang, "replay.exact")));

      if (lang === "en" || lang === "de" || lang === "ar") {
        // Beside the board on a phone, below the controls on a laptop: the summary on the first screen.
        const box = await page.locator("#summary-players .player-sum").last().boundingBox();
        assert.ok(box && box.y + box.height <= options.viewport.height, `the second player's summary ends at ${box?.y + box?.height}`);
        await page.click(`#replay-moves li[data-n="${shownPly.ply}"] button`);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(ensureArtifacts(), `analysis-replay-${label}-${lang}.png`) });
        await page.locator("#replay-graph-panel").screenshot({ path: join(ensureArtifacts(), `analysis-graph-${label}-${lang}.png`) });
        await page.locator("#replay-moves").screenshot({ path: join(ensureArtifacts(), `analysis-moves-${label}-${lang}.png`) });
        const violations = await axe(page);
        assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
      }
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test("in dark mode the marks, the legend and the players' figures keep their contrast (390×844, 1280×800)", { timeout: 60000 }, async () => {
  for (const [label, options] of [["phone", PHONE], ["laptop", LAPTOP]]) {
    const context = await browser.newContext({ ...options, colorScheme: "dark", storageState: storage });
    const page = await context.newPage();
    const marked = analysis.plies.filter((p) => p.mark);
    await page.goto(`${server.url}/en/replay/${game}#ply=${marked[0].ply}`);
    await waitUntil(page, "the replay's summary", () => page.waitForSelector("#replay-summary:not([hidden]) .player-sum", { timeout: 20000 }));
    await page.screenshot({ path: join(ensureArtifacts(), `analysis-replay-${label}-dark.png`) });
    const violations = await axe(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
    await context.close();
  }
});

/** The native command-line tool: $SENET_CLI, else the one built in build/ of this checkout. */
function cli() {
  const found = [process.env.SENET_CLI, join(REPO, "build/cli/senet")].find((p) => p && existsSync(p));
  if (!found) throw new Error("the senet tool is not built: cmake --build build --target senet (or set SENET_CLI)");
  return found;
}

test("a long game's endgame from the tables: rings on the graph, 'exact' in the move's details and the table (1280×800)", { timeout: 60000 }, async () => {
  // A recorded game that reaches the tables' positions, analysed by `senet analyse --tables`
  // (the server's own analysis of the same record), served to the page in place of this game's.
  const fixture = join(REPO, "tests/cli/fixtures/standard.json");
  const tables = join(dirname(dirname(cli())), "tables");
  assert.ok(existsSync(join(tables, "standard.sntb")), `the endgame table is built in ${tables}`);
  const json = JSON.parse(execFileSync(cli(), ["analyse", fixture, "--tables", tables], { encoding: "utf8" }));
  const exact = json.exact.map((e, n) => (e ? n : -1)).filter((n) => n >= 0);
  assert.ok(exact.length >= 10 && exact[0] < json.exact.length - 1, `table values at ${exact}`);
  const context = await browser.newContext(LAPTOP);
  const page = await context.newPage();
  await page.route(`**/api/games/${game}/record`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: readFileSync(fixture, "utf8") }));
  await page.route(`**/api/games/${game}/analysis`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(json) }));
  await page.goto(`${server.url}/en/replay/${game}#ply=${exact[0]}`);
  await waitUntil(page, "the replay's summary", () => page.waitForSelector("#replay-summary:not([hidden]) .player-sum", { timeout: 20000 }));
  assert.deepEqual(await page.$$eval("#replay-graph .graph-point[data-exact]", (cs) => cs.map((c) => Number(c.dataset.n))), exact);
  assert.ok((await page.textContent("#replay-judge")).includes(message("en", "replay.exact")));
  assert.equal(await page.isVisible("#graph-exact"), true);
  await page.click(".graph-table summary");
  const row = await page.$eval(`#graph-table tbody tr:nth-child(${exact[0] + 1}) td:nth-child(3)`, (td) => td.textContent);
  assert.ok(row.endsWith(message("en", "replay.exact")), row);
  // A position before the tables: no "exact".
  await page.click(`#replay-moves li[data-n="${exact[0] - 1}"] button`);
  assert.ok(!(await page.textContent("#replay-judge")).includes(message("en", "replay.exact")));
  await page.click(".graph-table summary");
  await page.locator("#replay-graph-panel").screenshot({ path: join(ensureArtifacts(), "analysis-exact-graph.png") });
  await context.close();
});

/** The end panel's lines as the catalog words them for `lang`, the cones being "you". */
async function expectedEndLines(page, lang) {
  const fmt = formatter(page, lang);
  const lines = [];
  for (const p of analysis.players) {
    const [accuracy] = await fmt([Math.round(p.accuracy) / 100]);
    const [amount] = await fmt([Math.abs(p.luck)]);
    lines.push(message(lang, "replay.end-sum", { player: `p${p.player}`, you: p.player === 1 ? "yes" : "no", accuracy, sign: luckSign(p.luck), amount }));
  }
  return lines;
}

/** The end panel's main buttons lie on the screen. */
async function buttonsInView(page, height) {
  for (const sel of ["#rematch-button", "#end a.button[href$='/']"]) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${sel} ends at ${box?.y + box?.height} of ${height}`);
  }
}

test("the end panel shows both players' accuracy and luck, its buttons on a phone's screen (390×844)", { timeout: 60000 }, async () => {
  await waitUntil(playPage, "the end panel's analysis", () => playPage.waitForSelector("#end-analysis[data-state=shown] .end-sum", { timeout: 20000 }));
  assert.deepEqual(await playPage.$$eval("#end-analysis .end-sum", (ps) => ps.map((p) => p.textContent)), await expectedEndLines(playPage, "en"));
  assert.equal(await playPage.getAttribute("#replay-link", "href"), `/en/replay/${game}`);
  await buttonsInView(playPage, PHONE.viewport.height);
  await playPage.screenshot({ path: join(ensureArtifacts(), "analysis-end-phone-en.png") });
  // A reload on a laptop in Polish, and on a phone in Arabic: the same figures in the page's language.
  for (const [lang, options] of [["pl", LAPTOP], ["ar", PHONE]]) {
    const context = await browser.newContext({ ...options, storageState: storage });
    const page = await context.newPage();
    const problems = watchConsole(page);
    let asked = 0;
    page.on("request", (r) => { if (r.url().endsWith("/analysis")) asked++; });
    await page.goto(`${server.url}/${lang}/play/${game}`);
    await waitUntil(page, "the end panel's analysis", () => page.waitForSelector("#end-analysis[data-state=shown] .end-sum", { timeout: 20000 }));
    const lines = await page.$$eval("#end-analysis .end-sum", (ps) => ps.map((p) => p.textContent));
    assert.deepEqual(lines, await expectedEndLines(page, lang));
    assert.notDeepEqual(lines, await expectedEndLines(page, "en"));
    await buttonsInView(page, options.viewport.height);
    await page.screenshot({ path: join(ensureArtifacts(), `analysis-end-${lang}.png`) });
    await page.waitForTimeout(500);
    assert.equal(asked, 1, "the analysis is asked for once");
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test("a busy server leaves a quiet link to try again, and the panel works as before (390×844)", { timeout: 60000 }, async () => {
  const context = await browser.newContext({ ...PHONE, storageState: storage });
  const page = await context.newPage();
  let busy = true;
  await page.route("**/api/games/*/analysis", (route) => (busy
    ? route.fulfill({ status: 503, headers: { "Retry-After": "5", "Content-Type": "application/json" }, body: '{"error":"busy","message":"busy"}' })
    : route.continue()));
  await page.goto(`${server.url}/fr/play/${game}`);
  await waitUntil(page, "the retry link", () => page.waitForSelector("#end-analysis-retry", { timeout: 20000 }));
  assert.equal(await page.textContent("#end-analysis-retry"), message("fr", "replay.end-retry"));
  assert.equal(await page.isVisible("#result"), true);
  await buttonsInView(page, PHONE.viewport.height);
  busy = false;
  await page.tap("#end-analysis-retry");
  await waitUntil(page, "the analysis after the retry", () => page.waitForSelector("#end-analysis[data-state=shown] .end-sum", { timeout: 20000 }));
  assert.deepEqual(await page.$$eval("#end-analysis .end-sum", (ps) => ps.map((p) => p.textContent)), await expectedEndLines(page, "fr"));
  await context.close();
});
