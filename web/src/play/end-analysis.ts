// The end panel's two lines of analysis once a game is over: each player's accuracy and luck
// (GET /api/games/{id}/analysis, fetched once per game: the server limits it per address), the
// replay link beside them giving the details. Loaded on demand (its own chunk): only a finished
// game needs it. A busy server (503, 429) or a failed request shows a quiet link to try again;
// nothing here ever blocks the panel.
import { type PlayerFigures, accuracyText, fetchAnalysisJson, luckSign, readAnalysis, share, viewerPlayers } from "../shared/analysis";
import { el } from "../shared/dom";
import { t } from "../shared/i18n";
import type { State } from "../shared/protocol";

const asked = new Set<string>();

/** One player's line: "You (cones): accuracy 88 %, unlucky by 12 %". */
export function endLine(p: PlayerFigures, you: boolean): string {
  return t("replay.end-sum", { player: `p${p.player}`, you: you ? "yes" : "no", accuracy: accuracyText(p.accuracy), sign: luckSign(p.luck), amount: share(Math.abs(p.luck)) });
}

/** Shows the analysis lines of game `game` in the end panel (once per game), `you` the seats this page holds. */
export function showEndAnalysis(game: string, s: State, you: number[]): void {
  if (s.phase !== "over" || asked.has(game)) return;
  const end = document.getElementById("end");
  if (!end) return;
  asked.add(game);
  const box = el("div", { class: "end-analysis", id: "end-analysis", "aria-live": "polite" });
  // After the buttons: the lines never push rematch and new game down.
  const anchor = document.getElementById("rematch-status") ?? end.querySelector(".buttons")?.nextElementSibling ?? null;
  end.insertBefore(box, anchor);
  void load(game, box, viewerPlayers(you, s.players));
}

async function load(game: string, box: HTMLElement, mine: number[]): Promise<void> {
  box.replaceChildren();
  const answer = await fetchAnalysisJson(game);
  // The page has no positions to check the curve against: its own length is taken, the players are what is shown.
  const analysis = "json" in answer ? readAnalysis(answer.json, (answer.json as { winProbability?: unknown[] }).winProbability?.length ?? -1) : null;
  if (analysis?.players) {
    box.dataset.state = "shown";
    // The viewer's own line first.
    const players = [...analysis.players].sort((a, b) => Number(mine.includes(b.player)) - Number(mine.includes(a.player)));
    box.replaceChildren(...players.map((p) => el("p", { class: "end-sum", "data-player": String(p.player) }, endLine(p, mine.includes(p.player)))));
    return;
  }
  if ("problem" in answer && answer.problem === "busy") {
    // One quiet way to ask again, by the player's own tap.
    box.dataset.state = "retry";
    const retry = el("button", { type: "button", class: "link-button", id: "end-analysis-retry" }, t("replay.end-retry"));
    retry.addEventListener("click", () => void load(game, box, mine), { once: true });
    const line = el("p");
    line.append(retry);
    box.append(line);
    return;
  }
  box.dataset.state = "none";
}
