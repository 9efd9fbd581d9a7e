// "Your games" on the home page: the games this browser holds a seat of (shared/mygames.ts, from
// localStorage only), each with its state from the public summary (GET /api/games/{id}), a
// link to resume it and, once over, to its replay. Nothing shows where storage is blocked or
// when there is no game.
import { byId, el } from "../shared/dom";
import { loadStrings, t, usePageStrings } from "../shared/i18n";
import { forgetGame, type MyGame, myGames } from "../shared/mygames";

/** At most this many games are listed (and their summaries asked for). */
const MAX = 12;

interface Summary { ruleset?: string; opponent?: string; phase?: string; result?: { winner: number | null } | null }

async function summary(game: string): Promise<Summary | "gone" | null> {
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(game)}`);
    if (r.status === 404 || r.status === 410) return "gone";
    return r.ok ? ((await r.json()) as Summary) : null;
  } catch {
    return null;
  }
}

/** The state word of a game: waiting, playing, won, lost, draw, over (finished) or gone. */
export function statusOf(g: MyGame, s: Summary | "gone" | null): string {
  if (s === "gone") return "gone";
  const phase = s?.phase ?? g.note?.phase ?? "";
  if (phase === "waiting") return "waiting";
  if (phase !== "over") return "playing";
  const winner = s?.result?.winner;
  const seats = g.note?.seats ?? [];
  if (s?.result && winner === null) return "draw";
  if (seats.length === 1 && typeof winner === "number") return seats[0] === winner ? "won" : "lost";
  return "over";
}

function rulesetName(key: string): string {
  // The start form above names each ruleset in the page's language.
  return document.querySelector(`input[name=ruleset][value="${CSS.escape(key)}"]`)?.closest("label")?.querySelector("strong")?.textContent ?? key;
}

function item(g: MyGame, s: Summary | "gone" | null, lang: string): HTMLLIElement {
  const status = statusOf(g, s);
  const ruleset = (s !== "gone" && s?.ruleset) || g.note?.ruleset;
  const opponent = (s !== "gone" && s?.opponent) || g.note?.opponent || "other";
  const what = ruleset ? t("replay.home.game", { ruleset: rulesetName(ruleset), opponent }) : t("replay.home.game-id", { id: g.game.slice(0, 6) });
  const li = el("li", { class: `my-game ${status}`, "data-game": g.game });
  const text = el("p", { class: "my-game-what" });
  // "game: status", with the language's own colon and spaces (label.value), so that the status
  // does not read as part of the game's name.
  const colon = t("label.value", { label: "", value: "" });
  text.append(el("strong", {}, what), colon, el("span", { class: "my-game-status" }, t("replay.home.status", { status })));
  if (g.note) {
    const date = new Intl.DateTimeFormat(`${lang}-u-nu-latn`, { dateStyle: "medium", timeStyle: "short" }).format(new Date(g.note.at));
    text.append(" ", el("span", { class: "hint" }, t("replay.home.when", { date })));
  }
  const links = el("p", { class: "my-game-links" });
  if (status !== "gone")
    links.append(el("a", { href: `/${lang}/play/${g.game}#seat=${encodeURIComponent(g.secret)}` }, t("replay.home.open", { status })));
  if (status === "won" || status === "lost" || status === "draw" || status === "over")
    links.append(el("a", { href: `/${lang}/replay/${g.game}` }, t("replay.home.replay")));
  const forget = el("button", { type: "button", class: "button small", "aria-label": t("replay.home.forget-label", { game: what }) }, t("replay.home.forget"));
  forget.addEventListener("click", () => {
    forgetGame(g.game);
    const list = li.parentElement;
    li.remove();
    if (list && !list.childElementCount) byId("my-games").hidden = true;
  });
  links.append(forget);
  li.append(text, links);
  return li;
}

/** Fills the home page's "Your games" section, when this browser has any game. */
export async function showMyGames(): Promise<void> {
  const section = document.getElementById("my-games");
  const games = myGames().slice(0, MAX);
  if (!section || !games.length) return;
  const lang = document.documentElement.lang || "en";
  if (!usePageStrings()) await loadStrings(section.dataset.strings ?? "");  // the home page carries its strings
  const summaries = await Promise.all(games.map((g) => summary(g.game)));
  byId("my-games-list").replaceChildren(...games.map((g, i) => item(g, summaries[i] ?? null, lang)));
  section.hidden = false;
}
