// What the play page does for the replay side of the site, after each render: the end
// screen's link to the game's replay and its players' accuracy and luck (end-analysis.ts, loaded
// once the game is over), the note "Your games" on the home page reads
// (shared/mygames.ts), and the spectators' win-probability bar (spectate.ts).
import { el } from "../shared/dom";
import { t } from "../shared/i18n";
import { noteGame } from "../shared/mygames";
import type { State } from "../shared/protocol";
import { spectatorBar } from "./spectate";

/** The end screen's link to /{lang}/replay/{game}, added once the game is over. */
export function showReplayLink(game: string, lang: string, s: State): void {
  if (s.phase !== "over" || document.getElementById("replay-link")) return;
  const record = document.getElementById("record-link")?.parentElement;
  if (!record) return;
  // A text link in the record link's line: on a phone the end panel must fit the screen beside
  // the board, so there the replay (which offers the record too) takes the record link's place.
  record.classList.add("has-replay");
  record.prepend(el("a", { id: "replay-link", href: `/${lang}/replay/${encodeURIComponent(game)}` }, t("replay.end-link")),
    el("span", { class: "end-sep", "aria-hidden": "true" }, " · "));
}

/** Everything above, for state `s` of game `game` seen with seats `you` (known once `seatsKnown`). */
export function afterRender(game: string, lang: string, s: State, you: number[], seatsKnown: boolean): void {
  showReplayLink(game, lang, s);
  if (s.phase === "over" && seatsKnown) void import("./end-analysis").then((m) => m.showEndAnalysis(game, s, you)).catch(() => undefined);
  if (seatsKnown) noteGame(game, s, you);
  spectatorBar(s, you, seatsKnown);
}
