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
export const LANGS = ["en", "nl", "fi", "it", "pl"];
export const CONTENT = ["", "rules", "variants/jequier", "variants/bell", "fairness"];
const TEST_SEED = "5e4e7400000000000000000000000000000000000000000000000000000000aa";

/** The server binary: $SENET_SERVER, else the one built in build/ of this checkout. */
function serverBinary() {
  const candidates = [process.env.SENET_SERVER, join(REPO, "build/server/senet-server")];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) throw new Error("senet-server is not built: cmake --build build --target senet-server (or set SENET_SERVER)");
  return found;
}

/** Starts senet-server (with any `extraArgs`, e.g. ["--grace-seconds", "3"]); resolves to { url, stop() } once it listens. */
export async function startServer(extraArgs = []) {
  const dataDir = mkdtempSync(join(tmpdir(), "senet-e2e-"));
  const proc = spawn(serverBinary(), ["--port", "0", "--address", "127.0.0.1", "--data-dir", dataDir, "--web-root", WEB,
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
    async stop() {
      proc.removeAllListeners("exit");
      proc.kill("SIGTERM");
      await new Promise((r) => { proc.once("exit", r); setTimeout(r, 3000); });
      rmSync(dataDir, { recursive: true, force: true });
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
  await Promise.all([page.waitForURL(/\/play\//), page.click("#start-form button[type=submit]")]);
  await page.waitForSelector("#status:not(:empty)");
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
