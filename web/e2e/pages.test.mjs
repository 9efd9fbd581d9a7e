// Every content page in every language: rendered with no missing string, with lang and
// hreflang alternates, no CSP refusals, and no axe-core violations.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CONTENT, LANGS, LANG_DIRS, axe, launchBrowser, startServer, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

test("every page in every language renders completely and passes axe-core", { timeout: 300000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchConsole(page);
  for (const lang of LANGS) {
    for (const path of CONTENT) {
      const url = `${server.url}/${lang}/${path}`;
      const response = await page.goto(url);
      assert.equal(response.status(), 200, url);
      const csp = response.headers()["content-security-policy"] ?? "";
      assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/, `${url} is served with the CSP`);
      assert.equal(await page.getAttribute("html", "lang"), lang);
      assert.equal(await page.getAttribute("html", "dir"), LANG_DIRS[lang], `${url} dir`);
      assert.equal(await page.locator("link[rel=alternate][hreflang=x-default]").getAttribute("href"), `/en/${path}`);
      const text = await page.textContent("body");
      assert.ok(!text.includes("\u27E6"), `${url} has a missing string`);
      for (const other of LANGS) {
        assert.equal(await page.locator(`link[rel=alternate][hreflang=${other}]`).count(), 1, `${url} alternate ${other}`);
        assert.equal(await page.locator(`.lang-switch a[hreflang=${other}]`).count(), 1, `${url} switch to ${other}`);
      }
      assert.equal(await page.locator("a.skip-link[href='#main']").count(), 1);
      if (path.startsWith("variants/")) {
        assert.ok((await page.locator("table.compare tbody tr").count()) >= 5, `${url} has its rule-change table`);
        assert.ok(await page.locator(".beta").count());
      }
      // axe-core on the home, rules and a variant page of every language; the pages that add no
      // other layout (Bell's, fairness) in English and in right-to-left Arabic, to keep the time bounded.
      if (["", "rules", "variants/jequier"].includes(path) || lang === "en" || LANG_DIRS[lang] === "rtl") {
        const violations = await axe(page);
        assert.deepEqual(violations, [], `${url}: ${JSON.stringify(violations, null, 1)}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test("the root redirects by Accept-Language and errors are friendly", { timeout: 60000 }, async () => {
  const context = await browser.newContext({ locale: "fi-FI", extraHTTPHeaders: { "Accept-Language": "fi-FI,fi;q=0.9,en;q=0.5" } });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  assert.match(page.url(), /\/fi\/$/);
  const missing = await page.goto(`${server.url}/it/nothing-here`);
  assert.equal(missing.status(), 404);
  assert.equal(await page.getAttribute("html", "lang"), "it");
  assert.deepEqual(await axe(page), []);
  const unknown = await page.goto(`${server.url}/pl/play/AAAAAAAAAAAAAAAAAAAAAA`);
  assert.equal(unknown.status(), 404);
  assert.ok(!(await page.textContent("body")).includes("\u27E6"));
  await context.close();
});
