// The spectators' win-probability bar: the engine's estimate (WebAssembly, loaded in this
// chunk only, by a dynamic import from spectate.ts) that each side wins the game being
// watched, as a bar and in words. Players never load it.
import { el } from "../shared/dom";
import { percent, t } from "../shared/i18n";
import type { State } from "../shared/protocol";
import { writePosition } from "../shared/position";
import { stepsOf } from "../shared/steps";
import { type Engine, loadEngineOnDemand } from "../shared/engine-loader";

/** The bar on the page: created under the seats once the engine has loaded. */
export class WinBar {
  private readonly box: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly words: HTMLElement;

  private constructor(private readonly engine: Engine, after: Element) {
    this.box = el("div", { class: "win-bar", id: "win-bar" });
    const track = el("div", { class: "win-bar-track", "aria-hidden": "true" });
    this.fill = el("div", { class: "win-bar-fill" });
    track.append(this.fill);
    this.words = el("p", { class: "win-bar-words", id: "win-bar-words" });
    this.box.append(this.words, track);
    after.after(this.box);
  }

  /** Loads the engine and puts the bar after `after`; null when the engine cannot run here. */
  static async create(after: Element): Promise<WinBar | null> {
    try {
      return new WinBar(await loadEngineOnDemand(), after);
    } catch {
      return null;
    }
  }

  /**
   * Shows the chance that player 1 wins in state `s`: before a throw the position's value; with
   * a throw made, the value of the best move for the player to move (the throw is known). Hidden
   * before the sides are known (Jéquier's opening) and on an engine error.
   */
  update(s: State): void {
    const p = s.players ? this.chance(s) : null;
    this.box.hidden = p === null;
    if (p === null) return;
    this.fill.style.inlineSize = `${(p * 100).toFixed(1)}%`;
    this.box.dataset.p = String(p);
    this.words.textContent = t("replay.bar", { p1: percent(p), p2: percent(1 - p) });
  }

  private chance(s: State): number | null {
    try {
      // Piccione's position carries its turn of steps: the server's own notation is used as it is.
      const position = s.ruleset === "piccione" ? s.position : writePosition(s.ruleset, s.board, s.turn, s.off);
      const thrown = (stepsOf(s)?.remainder ?? 0) > 0 ? 0 : s.lastThrow?.value ?? 0;  // 0: the rest of a throw (the engine's kNoThrow)
      if (s.phase === "over" && s.result) return s.result.player === 1 ? 1 : s.result.player === 2 ? 0 : 0.5;
      if (s.phase === "move" && s.lastThrow && s.legalMoves.length) {
        const mover = s.turn;
        const values = s.legalMoves.map((m) => this.engine.winProbability(this.engine.apply(position, thrown, m.move).position));
        return mover === 1 ? Math.max(...values) : Math.min(...values);
      }
      return this.engine.winProbability(position);
    } catch {
      return null;
    }
  }
}
