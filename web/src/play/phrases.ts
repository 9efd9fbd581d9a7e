// Quick phrases in a game between two people (server/PROTOCOL.md "Quick phrases"): the "💬"
// button opening the menu of the six phrases, the switch that hides the opponent's phrases
// (remembered per game in this browser), and the line that shows the last phrase said, in an
// aria-live region, worded in the reader's language (the server sends only the phrase's id).
import { byId } from "../shared/dom";
import { t } from "../shared/i18n";
import { PHRASE_IDS, type PhraseId } from "../shared/protocol";
import { gameValue, setGameValue } from "../shared/storage";

/** How long a phrase stays shown (ms). */
const SHOWN_MS = 8000;

/** Whether the page offers phrases: a seat of a friend game whose two seats are taken. */
export function offersPhrases(opponent: string | undefined, you: readonly number[], bothTaken: boolean): boolean {
  return opponent === "friend" && you.length === 1 && bothTaken;
}

/** The error codes of a refused phrase: shown on the phrase line, not as the game's message. */
export function isPhraseError(code: string): boolean {
  return code === "phrase-limit" || code === "no-opponent" || code === "bad-phrase";
}

/** The phrase control of the play page (templates/play.html `#phrases`). */
export class Phrases {
  private readonly box = byId("phrases");
  private readonly open = byId<HTMLButtonElement>("phrase-open");
  private readonly menu = byId("phrase-menu");
  private readonly mute = byId<HTMLInputElement>("phrase-mute");
  private readonly said = byId("phrase-said");
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shownFrom: number | null = null;

  /** `send` sends a phrase to the server; `who` names a seat ("You", "Opponent") for the line. */
  constructor(private readonly game: string, send: (phrase: PhraseId) => void, private readonly who: (seat: number) => string,
    private readonly mine: () => number | undefined) {
    for (const id of PHRASE_IDS) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button small";
      b.dataset.phrase = id;
      b.textContent = t(`play.phrase.${id}`);
      b.addEventListener("click", () => { send(id); this.close(true); });
      this.menu.insertBefore(b, this.menu.querySelector(".phrase-mute"));
    }
    this.mute.checked = gameValue(game, "phrases-muted") === "1";
    this.mute.addEventListener("change", () => {
      setGameValue(this.game, "phrases-muted", this.mute.checked ? "1" : "0");
      if (this.mute.checked && this.shownFrom !== null && this.shownFrom !== this.mine()) this.clear();
    });
    this.open.addEventListener("click", () => (this.menu.hidden ? this.show() : this.close(true)));
    this.box.addEventListener("keydown", (e) => { if (e.key === "Escape" && !this.menu.hidden) { e.preventDefault(); this.close(true); } });
    // A tap or click elsewhere closes the menu.
    document.addEventListener("pointerdown", (e) => { if (!this.menu.hidden && !this.box.contains(e.target as Node)) this.close(false); });
  }

  /** Shows or hides the whole control (render: a seat of a friend game whose friend has joined). */
  sync(offered: boolean): void {
    if (this.box.hidden === !offered) return;
    this.box.hidden = !offered;
    if (!offered) this.close(false);
  }

  /** Whether the opponent's phrases are hidden. */
  get muted(): boolean {
    return this.mute.checked;
  }

  /** A `phrase` frame: shown in the reader's language, unless it is the opponent's and muted. */
  heard(phrase: PhraseId, seat: number): void {
    const own = seat === this.mine();
    if (!own && this.muted) return;
    if (!(PHRASE_IDS as readonly string[]).includes(phrase)) return;
    this.say(t("play.phrase.said", { person: own ? "you" : "other", name: this.who(seat), phrase: t(`play.phrase.${phrase}`) }), seat);
  }

  /** A refused phrase (too soon, no opponent): its reason on the phrase line. */
  refused(text: string): void {
    this.say(text, this.mine() ?? null);
  }

  private say(text: string, from: number | null): void {
    clearTimeout(this.timer);
    this.said.textContent = text;
    this.shownFrom = from;
    this.timer = setTimeout(() => this.clear(), SHOWN_MS);
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.said.textContent = "";
    this.shownFrom = null;
  }

  private show(): void {
    this.menu.hidden = false;
    this.open.setAttribute("aria-expanded", "true");
    this.menu.querySelector<HTMLButtonElement>("button")?.focus();
  }

  private close(refocus: boolean): void {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.open.setAttribute("aria-expanded", "false");
    if (refocus) this.open.focus();
  }
}
