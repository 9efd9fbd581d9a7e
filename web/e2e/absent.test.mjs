// Someone gone, through the page with a real server: a friend who joins while the creator's page
// is closed sees why nothing starts, gets the claim countdown and plays once the creator comes;
// a rematch offer is one offer, turns the other's button into "Accept rematch" and is withdrawn
// when its maker leaves; a rematch its maker never reaches waits for them with no countdown.
// The outage (the server killed and started again) is in outage.test.mjs.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchBrowser, message, startGame, startServer, waitForText, watchConsole } from "./helpers.mjs";

let server, browser;
before(async () => { server = await startServer(["--grace-seconds", "3"]); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.stop(); });

const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** A friend game created through the API, whose creator's page never opened: { inviteUrl, resumeUrl }. */
async function createdElsewhere() {
  const r = await fetch(`${server.url}/api/games`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ruleset: "standard", opponent: "friend", side: "first", lang: "en" }),
  });
  assert.equal(r.status, 201);
  return r.json();
}

/** The feed's lines on `page`. */
const feedLines = (page) => page.locator("#feed > *").allTextContents();

test("a friend who joins while the creator's page is closed is told why, may claim, and plays once it comes", { timeout: 120000 }, async () => {
  const game = await createdElsewhere();
  const guestContext = await browser.newContext(DESKTOP);
  const hostContext = await browser.newContext(DESKTOP);
  try {
    const guest = await guestContext.newPage();
    const problems = watchConsole(guest);
    await guest.goto(`${server.url}${game.inviteUrl}`);
    await waitForText(guest, "#status", message("en", "play.status.creator-away"));
    assert.equal(await guest.locator("#throw-button").isDisabled(), true);
    // The absent creator is counted like an absent friend: the countdown, then the claim.
    await guest.waitForSelector("#claim-wait:not([hidden])", { timeout: 5000 });
    await guest.waitForSelector("#claim-button:not([hidden])", { timeout: 10000 });

    const host = await hostContext.newPage();
    await host.goto(`${server.url}${game.resumeUrl}`);
    await host.waitForSelector("#throw-button:not([disabled])", { timeout: 10000 });
    await guest.waitForSelector("#claim-button[hidden]", { state: "attached" });
    assert.equal(await guest.locator("#claim-wait").isHidden(), true, "the creator is here: no countdown");
    assert.notEqual(await guest.textContent("#status"), message("en", "play.status.creator-away"));
    await host.click("#throw-button");
    await guest.waitForFunction(() => document.querySelector("#throw-value")?.textContent !== "");
    assert.deepEqual(problems, []);
  } finally {
    await guestContext.close();
    await hostContext.close();
  }
});

test("a rematch offer is one offer, accepted by the other's button, withdrawn when its maker leaves, and waited for when never reached", { timeout: 120000 }, async () => {
  const hostContext = await browser.newContext(DESKTOP);
  const guestContext = await browser.newContext(DESKTOP);
  try {
    const host = await hostContext.newPage();
    let guest = await guestContext.newPage();
    await startGame(host, server.url, { opponent: "friend", side: "first" });
    await host.waitForSelector("#share-invite:not([hidden])");
    await guest.goto(await host.inputValue("#invite-link"));
    await guest.waitForFunction(() => /[#&]seat=/.test(location.hash));
    const resume = await guest.evaluate(() => location.href);
    await host.waitForSelector("#throw-button:not([disabled])");
    host.once("dialog", (d) => void d.accept());
    await host.click("#resign-button");
    await Promise.all([host, guest].map((p) => p.waitForSelector("#end:not([hidden])")));
    assert.equal(await host.textContent("#rematch-button"), message("en", "play.rematch"));

    // A double tap is one offer: announced once, and the other's button accepts it.
    await guest.dblclick("#rematch-button");
    await waitForText(host, "#rematch-button", message("en", "play.rematch-accept"));
    const offered = message("en", "play.rematch-offered");
    await host.waitForFunction((text) => [...document.querySelectorAll("#feed > *")].some((l) => l.textContent === text), offered);
    assert.equal(await guest.textContent("#rematch-button"), message("en", "play.rematch"), "the maker's own button stays an offer");

    // The maker closes the tab: the offer is withdrawn, the other is told, the button offers again.
    await guest.close();
    await waitForText(host, "#rematch-button", message("en", "play.rematch"));
    const lines = await feedLines(host);
    assert.ok(lines.includes(message("en", "ev.rematch-withdrawn")), `the feed says the offer is withdrawn: ${JSON.stringify(lines)}`);
    assert.equal(lines.filter((l) => l === offered).length, 1, `one offer announced: ${JSON.stringify(lines)}`);

    // The maker comes back and offers again, but never reaches the rematch (its page cannot load).
    guest = await guestContext.newPage();
    await guest.goto(resume);
    await guest.waitForSelector("#end:not([hidden])");
    await guest.click("#rematch-button");
    await waitForText(host, "#rematch-button", message("en", "play.rematch-accept"));
    await guestContext.route("**/play/**", (route) => void route.abort().catch(() => {}));
    await Promise.all([host.waitForURL((u) => !u.href.startsWith(resume.split("#")[0])), host.click("#rematch-button")]);
    await waitForText(host, "#status", message("en", "play.status.opponent-away"));
    // No claim countdown against a player who never came: it would show from the first snapshot.
    assert.equal(await host.locator("#claim-wait").isHidden(), true, "no countdown against a player who never came to the rematch");
    assert.equal(await host.locator("#throw-button").isDisabled(), true);

    // Once they arrive the rematch starts (the creator of the old game holds seat 1 now: the guest throws).
    await guestContext.unrouteAll({ behavior: "ignoreErrors" });
    const rematchUrl = new URL(host.url());
    await guest.goto(`${rematchUrl.origin}${rematchUrl.pathname}#seat=${new URLSearchParams(new URL(resume).hash.slice(1)).get("seat")}`);
    await guest.waitForSelector("#throw-button:not([disabled])", { timeout: 10000 });
    await host.waitForFunction((away) => document.querySelector("#status")?.textContent !== away, message("en", "play.status.opponent-away"));
  } finally {
    await hostContext.close();
    await guestContext.close();
  }
});
