// The play page's part of "Anyone online": the "Seek again" button of a lobby game aborted before
// its first throw (to the home page, which seeks at once: #seek=RULESET), and, in a game played
// while the home page's tab keeps looking for an opponent, the bar that says the opponent came
// and switches to that game (the home tab sends it on the BroadcastChannel of home/lobby-alert.ts).
import { byId, el } from "../shared/dom";
import { t } from "../shared/i18n";
import { gameValue } from "../shared/storage";
import type { PlayModel } from "./model";

const CHANNEL = "senet.lobby";
const SEEKABLE = ["standard", "jequier", "bell", "kendall", "piccione", "any"];

/** Shows "Seek again" on the end panel of an aborted game: what was sought before, else the game's ruleset. */
export function renderSeekAgain(m: PlayModel, aborted: boolean): void {
  const link = document.getElementById("seek-again") as HTMLAnchorElement | null;
  if (!link) return;
  link.hidden = !aborted || !m.you.length;
  if (link.hidden) return;
  const sought = gameValue(m.game, "seek");
  const ruleset = sought && SEEKABLE.includes(sought) ? sought : m.info.ruleset;
  link.href = `/${m.lang}/#seek=${encodeURIComponent(ruleset)}`;
}

let bar: HTMLElement | null = null;

function hideBar(): void {
  bar?.remove();
  bar = null;
}

function showBar(channel: BroadcastChannel, text: string, url: string): void {
  hideBar();
  bar = el("div", { class: "lobby-bar", role: "alert" });
  const go = el("button", { type: "button", class: "button primary" }, t("play.lobby.switch"));
  const later = el("button", { type: "button", class: "button" }, t("play.lobby.later"));
  go.addEventListener("click", () => {
    channel.postMessage({ type: "switched" });
    location.assign(url);
  });
  later.addEventListener("click", hideBar);
  bar.append(el("p", {}, text), go, later);
  byId("main").prepend(bar);
  go.focus({ preventScroll: true });
}

/** Listens for the home tab's news: an opponent came (the bar), or the call is over (no bar). */
function listen(): void {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.addEventListener("message", (ev: MessageEvent) => {
    const d = ev.data as { type?: unknown; url?: unknown; text?: unknown } | null;
    if (d?.type === "gone") { hideBar(); return; }
    // Only a page of this site, by path.
    if (d?.type !== "paired" || typeof d.url !== "string" || !d.url.startsWith("/") || d.url.startsWith("//")) return;
    // Not in the game it points to.
    if (location.pathname.endsWith(d.url.split("#")[0]?.split("/").pop() ?? "\u0000")) return;
    showBar(channel, typeof d.text === "string" ? d.text : t("play.lobby.here"), d.url);
  });
}

listen();
