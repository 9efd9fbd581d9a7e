// Shared pieces of the browser tests: the real senet-server on a free port with a fresh data
// directory and a fixed test seed, Debian's Chromium through playwright-core, axe-core, and a
// driver that plays a game to its end through the page.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { IntlMessageFormat } from "intl-messageformat";
import { readPo } from "../scripts/po.mjs";

const require = createRequire(import.meta.url);
export const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REPO = join(WEB, "..");
export const ARTIFACTS = join(REPO, "test-artifacts");
/** The site's languages (po/languages.txt: code and direction a line), English first. */
export const LANG_DIRS = Object.fromEntries(readFileSync(join(WEB, "po", "languages.txt"), "utf8").split("\n")
  .map((line) => line.replace(/#.*/, "").trim().split(/\s+/)).filter((w) => w[0]).map(([code, dir]) => [code, dir]));
export const LANGS = Object.keys(LANG_DIRS);
export const CONTENT = ["", "rules", "variants/jequier", "variants/bell", "variants/kendall", "variants/piccione", "fairness"];
const TEST_SEED = "5e4e7400000000000000000000000000000000000000000000000000000000aa";

/** The server binary: $SENET_SERVER, else the one built in build/ of this checkout. */
function serverBinary() {
  const candidates = [process.env.SENET_SERVER, join(REPO, "build/server/senet-server")];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) throw new Error("senet-server is not built: cmake --build build --target senet-server (or set SENET_SERVER)");
  return found;
}

/**
 * Starts senet-server (with any `extraArgs`, e.g. ["--grace-seconds", "3"]); resolves to
 * { url, proc, stop() } once it listens. `dataDir` and `port` start it again on another's data
 * and address (an outage: the first one killed); a data directory passed in is left to its owner.
 */
export async function startServer(extraArgs = [], { dataDir: givenDir, port = 0 } = {}) {
  const dataDir = givenDir ?? mkdtempSync(join(tmpdir(), "senet-e2e-"));
  const proc = spawn(serverBinary(), ["--port", String(port), "--address", "127.0.0.1", "--data-dir", dataDir, "--web-root", WEB,
    "--test-seed", TEST_SEED, "--computer-delay-ms", "20", ...extraArgs], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20000);
    const onData = (chunk) => {
      output += chunk;
      const m = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) { clearTimeout(timer); resolve(m[1].replace("0.0.0.0", "127.0.0.1")); }
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    proc.on("exit", (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${output}`)); });
  });
  return {
    url,
    proc,
    dataDir,
    async stop(signal = "SIGTERM") {
      proc.removeAllListeners("exit");
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => { proc.once("exit", r); setTimeout(r, 3000); });
        proc.kill(signal);
        await exited;
      }
      if (!givenDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's Chromium, headless; every launch gets a fresh temporary profile. Never downloads a browser.
 * Its contexts prefer reduced motion unless they ask otherwise (`reducedMotion: "no-preference"`,
 * as attention.test.mjs does): pieces then do not slide and the page does not pace the
 * computer's plies (the test server's computer answers in 20 ms), so whole games stay quick.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ reducedMotion: "reduce", ...options });
  return browser;
}

/** Collects console errors and CSP refusals of a page. */
export function watchConsole(page) {
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  page.on("pageerror", (e) => problems.push(String(e)));
  return problems;
}

const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Runs axe-core in the page (WCAG 2.x A and AA rules); returns the violations. */
export async function axe(page) {
  // Evaluated by the test driver, not injected as an inline <script>, which the page's CSP forbids.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
}

/** Creates a game through the start page's form; returns the play page's URL path. */
export async function startGame(page, base, { lang = "en", ruleset = "standard", opponent = "friend", level = "beginner", side = "first" } = {}) {
  await page.goto(`${base}/${lang}/`);
  await page.check(`input[name=ruleset][value=${ruleset}]`);
  await page.check(`input[name=opponent][value=${opponent}]`);
  if (opponent === "computer") await page.check(`input[name=level][value=${level}]`);
  await page.check(`input[name=side][value=${side}]`);
  await Promise.all([
    waitUntil(page, `the start form (${ruleset}, ${opponent}) leads to a play page`, () => page.waitForURL(/\/play\//)),
    page.click("#start-form button[type=submit]"),
  ]);
  await waitUntil(page, "the play page shows a status", () => page.waitForSelector("#status:not(:empty)"));
  return new URL(page.url()).pathname;
}

/** One step for a page: throw or move when it may; "over" once the end screen shows. */
export function step(page) {
  return page.evaluate(() => {
    if (!document.getElementById("end").hidden) return "over";
    const throwButton = document.getElementById("throw-button");
    if (!throwButton.disabled) { throwButton.click(); return "acted"; }
    const choice = document.querySelector("#move-choices button");
    if (choice) { choice.click(); return "acted"; }
    return "idle";
  });
}

/** Plays until every page shows the end screen; `onStep(n)` runs after each round. */
export async function playToEnd(pages, { limit = 120000, onStep } = {}) {
  const start = Date.now();
  let rounds = 0;
  while (Date.now() - start < limit) {
    const results = [];
    for (const p of pages) results.push(await step(p));
    if (results.every((r) => r === "over")) return rounds;
    rounds++;
    if (onStep) await onStep(rounds);
    if (!results.includes("acted")) await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`the game did not end within ${limit} ms`);
}

export function ensureArtifacts() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}

/** The catalog message `key` of `lang` formatted with `params` (ICU MessageFormat, as the page does). */
export function message(lang, key, params = {}) {
  const text = readPo(new URL(`../po/${lang}.po`, import.meta.url).pathname)[key];
  if (text === undefined) throw new Error(`no message ${key} in ${lang}.po`);
  return String(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).format(params));
}

/**
 * Runs one Playwright wait (`wait`, a function returning its promise); when it times out or
 * fails, the test fails with `what` was awaited and the page's address, status and message line
 * (never a timeout ignored, never a message read that was not waited for).
 */
export async function waitUntil(page, what, wait) {
  try {
    return await wait();
  } catch (err) {
    const seen = await page.evaluate(() => ({
      status: document.getElementById("status")?.textContent ?? null,
      message: document.getElementById("message")?.textContent ?? null,
    })).catch(() => ({}));
    throw new Error(`waited in vain for ${what} (${page.url()}; status ${JSON.stringify(seen.status)}, message ${JSON.stringify(seen.message)}): ${err.message.split("\n")[0]}`);
  }
}

/** The text of `selector` now, or null without such an element (no waiting). */
export const textNow = (page, selector) => page.evaluate((sel) => document.querySelector(sel)?.textContent ?? null, selector);

/**
 * Waits until `selector` reads exactly `expected` (default 20 s); fails naming the expected and
 * the shown text. Use it instead of waiting for "some text" and then reading whatever is there.
 */
export async function waitForText(page, selector, expected, { timeout = 20000 } = {}) {
  try {
    await page.waitForFunction(([sel, text]) => document.querySelector(sel)?.textContent === text, [selector, expected], { timeout });
  } catch (err) {
    throw new Error(`${selector} did not come to read ${JSON.stringify(expected)} within ${timeout} ms; it reads ${JSON.stringify(await textNow(page, selector).catch(() => null))} (${err.message.split("\n")[0]})`);
  }
}

/** The game's public summary from the server (API.md "GET /api/games/{id}"): its `result` is the server's word on who won and why. */
export async function gameSummary(base, page) {
  const game = new URL(page.url()).pathname.split("/").pop();
  const response = await fetch(`${base}/api/games/${game}`);
  if (!response.ok) throw new Error(`GET /api/games/${game}: HTTP ${response.status}`);
  return response.json();
}

/** Each seat's side (1 cones, 2 spools, 0 unknown) and pieces borne off, as the page's seat boxes show them. */
export function seatsShown(page) {
  return page.$$eval(".seat", (boxes) => boxes.map((b) => ({
    player: Number(/\bp([12])\b/.exec(b.querySelector(".seat-piece")?.className ?? "")?.[1] ?? 0),
    off: Number(/\d+/.exec(b.querySelector(".seat-off")?.textContent ?? "")?.[0] ?? -1),
  })));
}

const PIECES = { standard: 5, jequier: 5, bell: 10 };

/**
 * Checks that the board agrees with a finished game's `result` ({winner: seat, player, reason}):
 * after a bear-off finish the winner has all pieces off (standard, Jéquier) or more than the
 * other side (Bell's majority); a draw has equal scores. `seats` as seatsShown gives them.
 */
export function assertBoardAgrees(ruleset, result, seats) {
  const label = `${ruleset} ${JSON.stringify(result)} ${JSON.stringify(seats)}`;
  if (result.winner === null) {
    if (seats[0].off !== seats[1].off) throw new Error(`a draw with unequal scores: ${label}`);
    return;
  }
  const [w, l] = [seats[result.winner], seats[1 - result.winner]];
  if (w.player !== result.player) throw new Error(`the winning seat plays the other side: ${label}`);
  if (result.reason !== "bear-off") return;
  const ok = ruleset === "bell" ? w.off > l.off : w.off === PIECES[ruleset] && l.off < PIECES[ruleset];
  if (!ok) throw new Error(`the winner did not bear off as the result says: ${label}`);
}

/**
 * The end screen's sentence for `result` in `lang`, composed from the catalog: `you` are the
 * seats the page holds ([] watching, both for pass-and-play, with `local` true), the reason
 * "bear-off" is Bell's "majority".
 */
export function expectedResult(lang, ruleset, result, you, local = false) {
  if (result.winner === null) return message(lang, "play.end.draw");
  const reason = result.reason === "bear-off" && ruleset === "bell" ? "majority" : result.reason;
  if (you.length === 1) return message(lang, you[0] === result.winner ? "play.end.you-win" : "play.end.you-lose", { reason });
  const name = (seat, player) => {
    const side = message(lang, `play.side.${player}`);
    return local ? side : message(lang, "play.name-seat", { side, seat: message(lang, seat === 0 ? "play.seat.first" : "play.seat.second") });
  };
  return message(lang, "play.end.wins", { reason, name: name(result.winner, result.player), loser: name(1 - result.winner, 3 - result.player) });
}

/**
 * The finished game's result from the server, checked against the board, and the end screen of
 * each page read against the words it must show: `viewers` is [[page, you], …].
 */
export async function assertResultShown(base, lang, ruleset, viewers, { local = false } = {}) {
  const summary = await gameSummary(base, viewers[0][0]);
  if (summary.phase !== "over" || !summary.result) throw new Error(`the server says the game is not over: ${JSON.stringify(summary)}`);
  for (const [page, you] of viewers) {
    await waitForText(page, "#result", expectedResult(lang, ruleset, summary.result, you, local));
    assertBoardAgrees(ruleset, summary.result, await seatsShown(page));
  }
  return summary.result;
}

/** A context of `browser` whose pages cannot use localStorage or sessionStorage (as in some in-app browsers). */
export async function storageBlockedContext(browser, options) {
  const context = await browser.newContext(options);
  await context.addInitScript(() => {
    for (const name of ["localStorage", "sessionStorage"])
      Object.defineProperty(window, name, { configurable: true, get() { throw new DOMException("storage is blocked", "SecurityError"); } });
  });
  return context;
}
