// "Anyone online": the home page's waiting view. Holds the lobby socket (lobby-client.ts) while
// the page is open, says what it is doing in a live region, shows the counts per ruleset and the
// open seeks (each with a button to take it), offers after 20 s a game against the computer in a
// new tab while the seek stays open here, and on `paired` goes to the game (or, while the
// computer game is on, says so by the tab title, the chime, a notification and a switch button).
import { byId, el } from "../shared/dom";
import { guestShown, has, loadStrings, t } from "../shared/i18n";
import { rememberSecret, setGameValue } from "../shared/storage";
import { browserToken } from "./guest";
import { type LobbyInfo, LobbyClient, type OpenSeek, type Paired, type Wanted } from "./lobby-client";
import { alertPaired, clearAlert, CHANNEL } from "./lobby-alert";

/** Seconds of waiting before the computer is offered. */
export const OFFER_AFTER_MS = 20_000;

interface Options { ruleset: string; name: string; lang: string; strings: string; done: (message: string) => void }

let client: LobbyClient | null = null;
let options: Options | null = null;
let sought: Wanted | null = null;
let myId = "";
let offerTimer: ReturnType<typeof setTimeout> | null = null;
let sinceTimer: ReturnType<typeof setInterval> | null = null;
let computerOpen = false;
let last: LobbyInfo = { rulesets: {}, open: [] };

const view = () => byId("lobby");

/** A ruleset's name in the page's language (from the start form's labels); "any" as "any ruleset". */
function rulesetName(key: string): string {
  if (key === "any") return t("lobby.any");
  return document.querySelector(`input[name=ruleset][value="${CSS.escape(key)}"]`)?.closest("label")?.querySelector("strong")?.textContent ?? key;
}

function setStatus(text: string): void {
  byId("lobby-status").textContent = text;
}

/** The game's address with the commitment in the fragment, as a friend link's creator gets it. */
export function gameUrl(p: Paired, lang: string): string {
  // The page's language saves the play page's redirect to it.
  const url = p.url.startsWith("/play/") && /^[a-z]{2,3}$/.test(lang) ? `/${lang}${p.url}` : p.url;
  if (!p.commitment) return url;
  return `${url}${url.includes("#") ? "&" : "#"}commit=${p.commitment}`;
}

function remember(p: Paired): void {
  rememberSecret(p.game, p.secret);
  if (p.commitment) setGameValue(p.game, "commitment", p.commitment);
  // The play page's "Seek again" after an aborted game seeks what was sought.
  setGameValue(p.game, "seek", sought?.kind === "seek" ? sought.ruleset : p.ruleset || "any");
}

function onPaired(p: Paired): void {
  remember(p);
  stopTimers();
  const url = gameUrl(p, options?.lang ?? "");
  if (!computerOpen) {
    setStatus(t("lobby.paired", { name: guestShown(p.opponent, p.opponentBot) }));
    location.assign(url);
    return;
  }
  // The player is in the computer game's tab: this tab calls them and offers the switch.
  byId("lobby-cancel").hidden = true;
  byId("lobby-computer").hidden = true;
  byId("lobby-offer").hidden = false;
  byId("lobby-offer-text").textContent = t("lobby.offer", { name: guestShown(p.opponent, p.opponentBot) });
  const go = byId<HTMLButtonElement>("lobby-switch");
  go.textContent = t("lobby.switch");
  go.onclick = () => { clearAlert(); location.assign(url); };
  setStatus(t("lobby.offer", { name: guestShown(p.opponent, p.opponentBot) }));
  alertPaired(t("lobby.offer", { name: guestShown(p.opponent, p.opponentBot) }), url);
}

/** "waiting 3 min" for a seek that began at `since` (ms). */
export function waitedText(since: number, now = Date.now()): string {
  const minutes = since > 0 ? Math.max(0, Math.floor((now - since) / 60000)) : 0;
  return t("lobby.waiting-since", { minutes });
}

function renderCounts(info: LobbyInfo): void {
  const list = byId("lobby-counts");
  list.replaceChildren();
  // In the start form's order (the server's object has its keys sorted).
  const order = [...document.querySelectorAll<HTMLInputElement>("input[name=ruleset]")].map((i) => i.value);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const entries = Object.entries(info.rulesets).sort(([a], [b]) => rank(a) - rank(b));
  for (const [key, c] of entries) {
    list.append(el("li", {}, t("lobby.count", { ruleset: rulesetName(key), seeking: c.seeking, playing: c.playing })));
  }
}

function renderOpen(info: LobbyInfo): void {
  const list = byId("lobby-open");
  const others = info.open.filter((o) => o.id !== myId);
  list.replaceChildren(...others.map(openItem));
  byId("lobby-open-empty").hidden = others.length > 0;
}

function openItem(o: OpenSeek): HTMLLIElement {
  const item = el("li", { class: "lobby-seek" });
  // The name is someone else's text: only ever textContent, isolated for the text direction.
  const shown = guestShown(o.name, o.bot);
  const name = el("bdi", { class: "lobby-seek-name" }, shown);
  const rules = el("span", { class: "lobby-seek-ruleset" }, rulesetName(o.ruleset));
  const since = el("span", { class: "lobby-seek-since", "data-since": String(o.since) }, waitedText(o.since));
  const play = el("button", { type: "button", class: "button", "aria-label": t("lobby.take-label", { name: shown, ruleset: rulesetName(o.ruleset) }) }, t("lobby.take"));
  play.addEventListener("click", () => take(o.id));
  item.append(name, rules, since, play);
  return item;
}

function take(id: string): void {
  if (!client || !options) return;
  setStatus(t("lobby.taking"));
  client.want({ kind: "take", seek: id, name: options.name || undefined, browser: browserToken() });
}

function onError(code: string, message: string, data: Record<string, unknown>): void {
  const seconds = typeof data.seconds === "number" ? Math.ceil(data.seconds) : 0;
  // A refused name is said as the start form says it (the server's reason: too-long, character, spaces, link).
  const form = document.getElementById("start-form")?.dataset ?? {};
  const byReason: Record<string, string | undefined> = { "too-long": form.nameLong, character: form.nameChars, spaces: form.nameChars, link: form.nameLink };
  const named = code === "bad-name" && typeof data.reason === "string" ? byReason[data.reason] : undefined;
  const text = named ? named : has(`lobby.error.${code}`) ? t(`lobby.error.${code}`, { minutes: Math.max(1, Math.ceil(seconds / 60)) }) : t("lobby.error.other");
  if (!has(`lobby.error.${code}`)) console.warn(`lobby: ${code}: ${message}`);
  if (code === "gone" || code === "same-browser") {
    // Taking one failed: the player's own seek (withdrawn by the take) is made again.
    setStatus(text);
    if (sought && client) client.want(sought);
    return;
  }
  finish(text);
}

function stopTimers(): void {
  if (offerTimer) clearTimeout(offerTimer);
  if (sinceTimer) clearInterval(sinceTimer);
  offerTimer = sinceTimer = null;
}

/** Ends the waiting view and gives the start form back, with `message` in its status. */
function finish(message: string): void {
  stopTimers();
  client?.close();
  client = null;
  view().hidden = true;
  clearAlert();
  options?.done(message);
}

async function playComputer(): Promise<void> {
  if (!options) return;
  // The tab is opened within the tap (no popup blocker), then sent to the game once it exists.
  const tab = window.open("", "_blank");
  const ruleset = options.ruleset === "any" ? "standard" : options.ruleset;
  try {
    const response = await fetch("/api/games", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ruleset, opponent: "computer", level: "intermediate", side: "random", lang: options.lang }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const game = (await response.json()) as { game: string; secret: string; watchUrl: string; commitment?: string };
    rememberSecret(game.game, game.secret);
    const fragment = new URLSearchParams({ seat: game.secret });
    if (game.commitment && /^[0-9a-f]{64}$/.test(game.commitment)) {
      setGameValue(game.game, "commitment", game.commitment);
      fragment.set("commit", game.commitment);
    }
    const url = `${game.watchUrl}#${fragment.toString()}`;
    computerOpen = true;
    if (tab) tab.location.href = url;
    else location.assign(url);  // no new tab allowed: the game opens here (and the seek ends with the page)
    byId("lobby-computer").hidden = true;
    setStatus(t("lobby.computer-open"));
  } catch {
    tab?.close();
    setStatus(t("lobby.computer-failed"));
  }
}

function wire(): void {
  byId("lobby-cancel").onclick = () => finish("");
  byId("lobby-computer").onclick = () => void playComputer();
}

/** Labels of the view's fixed parts, in the page's language. */
function label(): void {
  byId("lobby-title").textContent = t("lobby.title");
  byId("lobby-cancel").textContent = t("lobby.cancel");
  byId("lobby-computer").textContent = t("lobby.computer");
  byId("lobby-counts-title").textContent = t("lobby.counts-title");
  byId("lobby-open-title").textContent = t("lobby.open-title");
  byId("lobby-open-empty").textContent = t("lobby.open-empty");
}

function newClient(): LobbyClient {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return new LobbyClient({
    url: `${scheme}//${location.host}/ws/lobby`,
    handlers: {
      lobby: (info) => { last = info; renderCounts(info); renderOpen(info); },
      // The seek made again when the computer is offered keeps the offer's words.
      seeking: (ruleset, id) => { myId = id; if (!computerOpen && byId("lobby-computer").hidden) setStatus(t("lobby.looking", { ruleset: rulesetName(ruleset) })); renderOpen(last); },
      cancelled: () => {},
      paired: onPaired,
      error: onError,
      connection: (open) => { if (!open && client?.seeking) setStatus(t("lobby.reconnecting")); },
    },
  });
}

let prepared: Promise<void> | null = null;

/**
 * Loads the view's strings and opens the lobby socket (no seek yet): called when the player
 * chooses "Anyone online", so that the tap on start only sends the seek.
 */
export function prepareLobby(strings: string): Promise<void> {
  prepared ??= loadStrings(strings).then(() => { label(); wire(); });
  client ??= newClient();
  client.connect();
  return prepared;
}

/**
 * Starts waiting: shows the view, connects, seeks `ruleset` ("any" too) under `name` (empty:
 * the server draws a guest name). `done` gets the view's last word when it ends (cancel, error).
 */
export async function startLobby(opts: Options): Promise<void> {
  options = opts;
  await prepareLobby(opts.strings);
  computerOpen = false;
  myId = "";
  view().hidden = false;
  byId("lobby-offer").hidden = true;
  byId("lobby-cancel").hidden = false;
  byId("lobby-computer").hidden = true;
  setStatus(t("lobby.looking", { ruleset: rulesetName(opts.ruleset) }));
  byId("lobby-cancel").focus();
  sought = { kind: "seek", ruleset: opts.ruleset, name: opts.name || undefined, browser: browserToken() };
  if (!client) return;
  client.want(sought);
  offerTimer = setTimeout(() => {
    if (!client?.seeking || computerOpen) return;
    // From now on a bot may answer too (PROTOCOL.md "Bots"): the seek is made again accepting bots.
    if (sought?.kind === "seek") { sought = { ...sought, bots: true }; client.want(sought); }
    byId("lobby-computer").hidden = false;
    setStatus(t("lobby.nobody-yet"));
  }, OFFER_AFTER_MS);
  sinceTimer = setInterval(() => {
    for (const node of view().querySelectorAll<HTMLElement>("[data-since]")) node.textContent = waitedText(Number(node.dataset.since));
  }, 15_000);
}

// The play page's tab may take the switch itself (play/lobby-bar.ts): then this tab has nothing more to offer.
try {
  new BroadcastChannel(CHANNEL).addEventListener("message", (ev: MessageEvent) => {
    if ((ev.data as { type?: string } | null)?.type === "switched") finish("");
  });
} catch { /* no BroadcastChannel: the switch is only here */ }
