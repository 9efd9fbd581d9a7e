// The play page drawn from its model (model.ts): the board, the throw, the controls that are
// due, the status line, the seats, the share panel, the end screen and the Fair throws panel.
// Each function reads the model and the page's parts and writes the DOM; only the Fair throws
// check (started once the game is over) writes its outcome back into the model.
import { type Board, pieceIcon } from "../shared/board";
import { recordedCommitment } from "../shared/commitment";
import { byId, el } from "../shared/dom";
import { t } from "../shared/i18n";
import type { MoveList } from "../shared/movelist";
import type { LegalMove, Snapshot } from "../shared/protocol";
import { drawThrow } from "../shared/sticks";
import { afterRender } from "./after-render";
import { renderSeekAgain } from "./lobby-bar";
import { alertsFor, inviteShown, yourTurn } from "./attention";
import { renderChoices } from "./choices";
import { renderHands, renderSteps } from "./hand";
import type { ClaimTimer } from "./claim";
import { type Verdict, verifyGame } from "./fair";
import type { Feed } from "./feed";
import { busy, connectionLost, isLocal, type PlayModel, viewOf } from "./model";
import { inviteLink, neutralLink, renderRematchLink } from "./share";
import * as pageState from "./state";
import * as words from "./words";

/** The play page's elements (templates/play.html), found once. */
export function findUi() {
  return {
    status: byId("status"),
    message: byId("message"),
    live: byId("live"),
    sticks: byId("sticks"),
    throwValue: byId("throw-value"),
    throwButton: byId<HTMLButtonElement>("throw-button"),
    choices: byId("move-choices"),
    moveList: byId("move-list"),
    end: byId("end"),
    result: byId("result"),
    rematch: byId<HTMLButtonElement>("rematch-button"),
    rematchStatus: byId("rematch-status"),
    resign: byId<HTMLButtonElement>("resign-button"),
    claim: byId<HTMLButtonElement>("claim-button"),
    commitment: byId("commitment"),
    serverSeed: byId("server-seed"),
    serverSeedRow: byId("server-seed-row"),
    fairVerdict: byId("fair-verdict"),
    finalScore: byId("final-score"),
  };
}
export type PlayUi = ReturnType<typeof findUi>;

/** What the render functions draw into and call back. */
export interface PlayParts {
  readonly ui: PlayUi;
  readonly board: Board;
  readonly moveList: MoveList;
  readonly feed: Feed;
  readonly claimTimer: ClaimTimer;
  /** The player chose a move by its button. */
  pick(move: LegalMove): void;
  /** Draws the page again (when something fetched on the side, such as the invite, arrives). */
  rerender(): void;
}

/** Says `text` through the hidden live region (the screen reader), keeping its last six lines. */
export function announce(ui: PlayUi, text: string): void {
  ui.live.append(el("p", {}, text));
  while (ui.live.childElementCount > 6) ui.live.firstElementChild?.remove();
}

/** Draws the whole page for the state the model holds (nothing before the first one). */
export function render(m: PlayModel, p: PlayParts): void {
  const s = m.state;
  if (!s) return;
  const mine = pageState.movesOffered(s, m.you, busy(m));
  p.board.render(s.board, s.off, mine, m.lastMove);
  renderThrow(m, p.ui, s);
  renderControls(m, p, s, mine);
  // The moment the socket closes the page says so: it cannot tell whose turn it is any more.
  p.ui.status.textContent = connectionLost(m) ? t("play.status.reconnecting") : words.statusText(viewOf(m, s));
  renderSeats(m, s);
  renderHands(s, [0, 1].map((seat) => words.playerOfSeat(viewOf(m, s), seat)), mine, () => { m.keepFocus = true; p.board.enterFromHand(); });
  renderSteps(s);
  renderShare(m, p, s);
  renderEnd(m, p.ui, s);
  renderFairness(m, p.ui, s);
  explainOffline(m, p.ui);
  // Only once the page knows its seats (an `events` message may come before the first snapshot).
  if (m.you.length) yourTurn(!isLocal(m) && s.phase !== "over" && s.seatToAct !== null && m.you.includes(s.seatToAct));
  afterRender(m.game, m.lang, s, m.you, m.seatsKnown);  // replay link, "Your games" note, spectators' bar
}

/** The sticks (or the die) of the last throw, tumbling when a new throw replaces one shown. */
function renderThrow(m: PlayModel, ui: PlayUi, s: Snapshot): void {
  if (!s.lastThrow || s.lastThrow.index === m.shownThrow) return;
  const animate = m.shownThrow !== -1;
  m.shownThrow = s.lastThrow.index;
  drawThrow(ui.sticks, s.lastThrow.sticks, s.lastThrow.value, m.info.die, animate);
  const up = [...s.lastThrow.sticks].filter((c) => c === "1").length;
  ui.throwValue.textContent = m.info.die ? t("play.die-shows", { value: s.lastThrow.value }) : t("play.sticks-up", { up, value: s.lastThrow.value });
}

/** The throw button and the move buttons; after a button was used, the focus goes to the next due control. */
function renderControls(m: PlayModel, p: PlayParts, s: Snapshot, mine: LegalMove[]): void {
  const { ui } = p;
  const throwDue = pageState.throwDue(s, m.you, busy(m));
  ui.throwButton.disabled = !throwDue;
  // Spectators get no throw button at all, nor does a seat while the game waits for its other player.
  ui.throwButton.hidden = pageState.throwHidden(s, m.you);
  ui.throwButton.textContent = t(m.info.die ? "play.throw-die" : "play.throw");
  ui.throwButton.classList.toggle("due", throwDue);

  const active = document.activeElement;
  const focusFree = !active || active === document.body || !!active.closest("#move-choices, #throw-button");
  renderChoices(ui.choices, mine, { pick: (move) => p.pick(move), preview: (move) => p.board.preview(move) });
  if (m.keepFocus && focusFree) {
    // The controls sit beside the board; moving the focus must never scroll the page away from it.
    if (mine.length) (ui.choices.firstElementChild as HTMLElement | null)?.focus({ preventScroll: true });
    else if (throwDue) ui.throwButton.focus({ preventScroll: true });
  }
}

function renderSeats(m: PlayModel, s: Snapshot): void {
  const v = viewOf(m, s);
  for (const seat of [0, 1]) {
    const box = byId(`seat-${seat}`);
    const player = words.playerOfSeat(v, seat);
    const info = s.seats[seat];
    const icon = box.querySelector<HTMLElement>(".seat-piece")!;
    const drawn = `seat-piece${player ? ` p${player}` : ""}`;
    if (icon.className !== drawn) {
      icon.className = drawn;
      icon.replaceChildren(...(player ? [pieceIcon(player)] : []));  // the board's cone or spool
    }
    box.querySelector(".seat-name")!.textContent = info?.taken ? words.nameOf(v, seat) : t("play.seat.waiting", { seat: words.seatLabel(v, seat) });
    box.querySelector(".seat-off")!.textContent = player ? t("play.off", { count: s.off[player - 1] ?? 0 }) : "";
    const presence = box.querySelector(".presence")!;
    const online = !!info?.taken && info.online;
    // Without the socket neither seat's presence is known: both say the connection is lost.
    const lost = connectionLost(m);
    const word = lost ? "play.presence-lost" : online ? "play.online" : "play.offline";
    presence.textContent = info?.taken && info.kind !== "computer" && !isLocal(m) ? t(word) : "";
    // The dot goes with the word: none for the computer, local games or empty seats.
    presence.className = presence.textContent ? `presence ${lost ? "lost" : online ? "online" : "offline"}` : "presence";
    box.classList.toggle("to-act", s.seatToAct === seat && s.phase !== "over");
  }
}

function renderShare(m: PlayModel, p: PlayParts, s: Snapshot): void {
  const { game, lang, secret } = m;
  const watch = `${location.origin}/${lang}/play/${game}`;
  byId<HTMLInputElement>("watch-link").value = neutralLink(game);  // a spectator reads their own language
  const invite = inviteLink(game, lang, s, secret, p.rerender);
  byId("share-invite").hidden = !invite;
  if (invite) byId<HTMLTextAreaElement>("invite-link").value = invite;
  inviteShown();
  byId("share-resume").hidden = !secret || !m.you.length;
  // With the recorded commitment: another device then checks the throws against the same one.
  const commit = recordedCommitment(game);
  if (secret) byId<HTMLInputElement>("resume-link").value = `${watch}#seat=${secret}${commit ? `&commit=${commit}` : ""}`;
  p.ui.resign.hidden = !m.you.length || s.phase === "over" || s.phase === "waiting";
  // Notifications and turn chimes are for a player who waits for a turn; the game's sounds are for everyone.
  alertsFor(m.you.length > 0 && s.opponent !== "local");
  p.claimTimer.update(viewOf(m, s));
}

function renderEnd(m: PlayModel, ui: PlayUi, s: Snapshot): void {
  // The game's last move slides first: the panel comes once its piece has reached the tray.
  const over = s.phase === "over" && !m.endHeld;
  const appeared = ui.end.hidden && over && ui.end.dataset.rendered === "1";
  ui.end.dataset.rendered = "1";
  ui.end.hidden = !over;
  // A game that ends while the page is open (a resignation tapped far down, a claim) brings its
  // result into view: the button tapped is gone, and the end panel may be a screen above it.
  if (appeared) {
    const box = ui.end.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 80) ui.end.scrollIntoView({ block: "nearest" });
  }
  if (s.phase !== "over" || !s.result) return;
  ui.result.textContent = words.resultText(viewOf(m, s), m.info.ruleset);
  const score = words.scoreText(viewOf(m, s), m.info.ruleset);
  ui.finalScore.textContent = score;
  ui.finalScore.hidden = !score;
  // A lobby game called off before its first throw: no rematch with a no-show, one tap to seek again.
  const aborted = s.result.reason === "aborted";
  ui.rematch.hidden = !m.you.length || aborted;
  renderSeekAgain(m, aborted);
  // The other player's standing offer makes this button its acceptance; withdrawn, it is an offer again.
  const mine = m.you.length === 1 ? m.you[0] ?? 0 : -1;
  const offeredToMe = mine >= 0 && !!s.rematchOffered?.[1 - mine] && !s.rematchOffered?.[mine] && !s.rematch;
  ui.rematch.textContent = t(offeredToMe ? "play.rematch-accept" : "play.rematch");
  if (mine >= 0 && !s.rematchOffered?.[mine] && ui.rematchStatus.textContent === t("play.rematch-waiting")) ui.rematchStatus.textContent = "";
  renderRematchLink(s, m.lang);
}

/** Every action control disabled while the socket is closed, each saying why (its title; the status line says it too). */
function explainOffline(m: PlayModel, ui: PlayUi): void {
  const lost = connectionLost(m);
  const why = lost ? t("play.status.reconnecting") : "";
  for (const control of [ui.throwButton, ui.resign, ui.claim, ui.rematch]) {
    if (lost) control.disabled = true;
    else if (control !== ui.throwButton) control.disabled = false;  // the throw button follows its turn (renderControls)
    if (why) control.title = why;
    else control.removeAttribute("title");
  }
}

/** The Fair throws panel: the commitment, the server seed once revealed, and the check of the throws at the end. */
function renderFairness(m: PlayModel, ui: PlayUi, s: Snapshot): void {
  ui.commitment.textContent = s.fairness?.commitment ?? "";
  const seed = s.fairness?.serverSeed ?? null;
  ui.serverSeedRow.hidden = !seed;
  ui.serverSeed.textContent = seed ?? "";
  if (s.phase === "over" && seed && m.verdict === null) {
    m.verdict = "checking";
    // WebCrypto exists only in secure contexts (HTTPS, localhost): elsewhere the check is unavailable.
    void verifyGame(m.game, m.info.ruleset, m.info.die, m.seenThrows.values())
      .catch((): Verdict => ({ kind: "unavailable" }))
      .then((v) => { m.verdict = v; showVerdict(m, ui); });
  }
  showVerdict(m, ui);
}

/** The Fair throws panel's verdict: checking, verified, or a warning (also when the commitment changed mid-game). */
function showVerdict(m: PlayModel, ui: PlayUi): void {
  const recorded = recordedCommitment(m.game);
  const shown = m.state?.fairness?.commitment;
  const [text, kind] = pageState.verdictWords(recorded, shown, m.verdict);
  if (ui.fairVerdict.textContent !== text) ui.fairVerdict.textContent = text;
  ui.fairVerdict.className = `fair-verdict ${kind}`;
  ui.fairVerdict.hidden = !text;
}
