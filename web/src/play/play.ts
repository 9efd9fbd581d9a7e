// The play page: connects to the game's WebSocket, draws the board and the throw, offers
// the legal moves (one click, tap or key press each) and tells what happens in the viewer's language.
// What the page knows is its model (model.ts); this file changes it as messages come and the
// player acts, and has it drawn (render.ts).
import { Board } from "../shared/board";
import { afterPaint, byId } from "../shared/dom";
import { pageStarted } from "../shared/early";
import { loadStrings, t, usePageStrings } from "../shared/i18n";
import { keepFragmentInLangLinks } from "../shared/langmenu";
import { type BoardInfo, OFF_SQUARE } from "../shared/model";
import { MoveList } from "../shared/movelist";
import type { ClientMessage, GameEvent, LegalMove, ServerMessage, Snapshot, State } from "../shared/protocol";
import { rememberSecret } from "../shared/storage";
import { friendJoined, setupAttention, soundContext } from "./attention";
import { ClaimTimer } from "./claim";
import { Connection } from "./connection";
import { ensureCommitment } from "./fair";
import { Feed } from "./feed";
import { Hint, offersHints } from "./hint";
import { createLegend } from "./legend";
import { type ActionMessage, busy, canAct, createModel, noteThrows, type PlayModel, viewOf } from "./model";
import { motionTime, playMotion } from "./motion";
import { Pacer } from "./pacer";
import { isPhraseError, offersPhrases, Phrases } from "./phrases";
import { announce, findUi, type PlayParts, type PlayUi, render } from "./render";
import { clientSeed } from "../shared/seed";
import { type SeatResult, seatFromUrl } from "./seat";
import { renderWatchers } from "./share";
import { GameSounds } from "./sounds";
import * as pageState from "./state";
import { stepsOf } from "../shared/steps";
import * as words from "./words";

/** How long the join notice stays when nobody throws (ms): long enough to read, not for turns on end. */
const JOINED_MS = 6000;

/** The page: its model, the parts it draws into, and its way to the server. */
class PlayPage {
  readonly model: PlayModel;
  readonly ui: PlayUi = findUi();
  private readonly feed = new Feed(byId("feed"));
  private readonly claimTimer = new ClaimTimer(this.ui.claim, byId("claim-wait"));
  /** Holds back the server's messages while a throw or a move is being shown (the computer's chained plies). */
  private readonly pacer = new Pacer((msg) => { this.hear(msg); this.onMessage(msg); });
  /** The throws and moves as sounds (when the sound switch is on), as the pacer shows them. */
  private readonly sounds = new GameSounds(soundContext);
  private readonly connection: Connection;
  private parts: PlayParts | null = null;
  private phrases: Phrases | null = null;
  private hint: Hint | null = null;
  /** The messages that came before the board was built (the hello goes out first, web/README.md "First load"); null once built. */
  private beforeBuilt: ServerMessage[] | null = [];

  /** `seat`: the seat from the URL fragment (an invite's join request may still be on its way). */
  constructor(private readonly root: HTMLElement, private readonly seat: Promise<SeatResult>) {
    const game = root.dataset.game ?? "";
    this.model = createModel(game, root.dataset.lang ?? "en", JSON.parse(root.dataset.board ?? "{}") as BoardInfo);
    this.connection = new Connection(game, {
      // The hello carries the seat and its seed, and the commitment is recorded before the seed
      // goes out (server/PROTOCOL.md "Fairness"): without it the page waits and tries again.
      ready: async () => {
        this.model.secret = (await this.seat).secret;
        return ensureCommitment(game, root.dataset.commitment);
      },
      opened: () => this.hello(),
      message: (msg) => { if (this.beforeBuilt) this.beforeBuilt.push(msg); else this.dispatch(msg); },
      closed: () => this.onClosed(),
      waiting: () => { this.ui.status.textContent = t("play.status.reconnecting"); },
    });
  }

  /** Builds the board, the move list and the legend (after the strings are loaded); `narrow`: a phone held upright. */
  build(narrow: MediaQueryList): void {
    const { info } = this.model;
    const board = new Board(byId("board"), info, narrow.matches);
    const moveList = new MoveList(this.ui.moveList, info, (seat) => words.seatLabel(viewOf(this.model), seat));
    // The legend (the board's key, below the table's controls) comes once the first position is
    // painted: its strings and drawings are a fair part of a phone's first load, and the throw
    // does not wait for them.
    afterPaint(() => this.root.querySelector(".table")?.append(createLegend(info, !narrow.matches)));
    narrow.addEventListener("change", () => board.setDown(narrow.matches));
    board.onMove = (m) => { this.model.keepFocus = false; this.sendMove(m); };
    this.parts = {
      ui: this.ui, board, moveList, feed: this.feed, claimTimer: this.claimTimer,
      pick: (m) => { this.model.keepFocus = true; this.sendMove(m); },
      rerender: () => this.render(),
    };
    this.claimTimer.onReady = (text) => announce(this.ui, text);
    this.hint = new Hint(byId<HTMLButtonElement>("hint-button"), byId("hint-panel"), byId<HTMLOListElement>("hint-list"), byId("hint-status"), {
      ask: (ply) => { this.pacer.flush(); this.send({ t: "hint", d: { ply } }); },
      preview: (m) => board.preview(m),
    });
    this.phrases = new Phrases(this.model.game, (phrase) => this.send({ t: "phrase", d: { phrase } }),
      (seat) => words.seatLabel(viewOf(this.model), seat), () => (this.model.you.length === 1 ? this.model.you[0] : undefined));
    const waiting = this.beforeBuilt ?? [];
    this.beforeBuilt = null;
    for (const msg of waiting) this.dispatch(msg);
  }

  /** A message from the server: a phrase is shown at once (it is no part of the game the pacer shows step by step), the rest goes through the pacer. */
  private dispatch(msg: ServerMessage): void {
    if (msg.t === "phrase") this.phrases?.heard(msg.d.phrase, msg.d.seat);
    else if (msg.t === "hint") this.hint?.received(msg.d.ply, msg.d.moves);
    else this.pacer.push(msg);
  }

  render(): void {
    if (this.parts) render(this.model, this.parts);
    const s = this.model.state;
    const back = byId<HTMLButtonElement>("takeback-button");
    // Take-back: on one device and against the computer only; usable when the server says so (state `takeback`).
    back.hidden = !s || s.opponent === "friend" || !this.model.you.length || s.phase === "over" || s.phase === "waiting";
    back.disabled = !s?.takeback || busy(this.model);
    // Hints: on one device and against the computer only, while a move is due to this page.
    this.hint?.sync(s, offersHints(s, this.model.you), !!s && s.phase === "move" && canAct(this.model));
    this.phrases?.sync(offersPhrases(s?.opponent, this.model.you, !!s && s.phase !== "waiting" && s.seats.every((x) => x.taken)));
  }

  /** Connects (or takes over the first script's socket); true when the page's hello is about to go out on a socket already open. */
  connect(): boolean {
    return this.connection.connect();
  }

  send(msg: ClientMessage): boolean {
    if (msg.t !== "ping") this.pacer.flush();  // the player's own action is never held behind a queued one
    return this.connection.send(msg);
  }

  /** Sends a throw or a move and keeps it until its answer: a socket that closes first gets it again after the reconnect. */
  private act(msg: ActionMessage): void {
    this.model.pending = true;
    this.model.unsent = msg;
    this.send(msg);
    this.render();
  }

  /** The socket closed: both seats' presence is unknown and nothing can be sent until the next snapshot. */
  private onClosed(): void {
    this.pacer.flush();
    this.model.connected = false;
    this.model.pending = false;  // an action not answered is this.model.unsent: sent again after the reconnect
    this.render();
  }

  private hello(): void {
    const { secret, game } = this.model;
    // Only a seat contributes a seed; it is in the fragment before it goes out (seat.ts).
    this.send({ t: "hello", d: secret ? { secret, clientSeed: clientSeed(game) } : {} });
  }

  sendMove(m: LegalMove): void {
    this.pacer.flush();  // the player acts: nothing queued may hold the answer back
    const s = this.model.state;
    if (!s || !canAct(this.model) || s.phase !== "move") return;
    this.act({ t: "move", d: { ply: s.ply, move: m.move } });
  }

  throwSticks(): void {
    this.pacer.flush();
    const s = this.model.state;
    if (!s || !canAct(this.model)) return;
    this.act({ t: "throw", d: { ply: s.ply } });
  }

  /** The take-back button: the last move goes back (the same throw stays to be played again). */
  takeBack(): void {
    this.pacer.flush();
    const s = this.model.state;
    if (!s?.takeback || busy(this.model)) return;
    this.model.pending = true;
    this.send({ t: "takeback", d: { ply: s.ply } });
    this.render();
  }

  /** The rematch button: to the rematch once it exists, else the offer. */
  rematch(): void {
    const next = this.model.state?.rematch;
    if (next) { this.goToRematch(next); return; }
    this.send({ t: "rematch", d: {} });
    this.ui.rematchStatus.textContent = t("play.rematch-waiting");
  }

  /**
   * Sounds a message's events (through the sound switch, shown to seats, pass-and-play and
   * spectators alike): none before the first snapshot, whose events nothing shows.
   */
  private hear(msg: ServerMessage): void {
    if (this.model.state) this.sounds.hear(msg);
  }

  private onMessage(msg: ServerMessage): void {
    const m = this.model;
    if (msg.t === "snapshot") this.onSnapshot(msg.d);
    else if (msg.t === "events") this.onEvents(msg.d.events, msg.d.state);
    else if (msg.t === "watchers") renderWatchers(msg.d.count);
    else if (msg.t === "error" && isPhraseError(msg.d.code)) this.phrases?.refused(words.errorText(msg.d.code));
    // While the hint list waits nothing else is pending (an action closes it): the error is the hint's.
    else if (msg.t === "error" && this.hint?.waiting) this.hint.failed(words.errorText(msg.d.code));
    else if (msg.t === "error") {
      m.pending = false;
      m.unsent = null;
      if (pageState.showsError(msg.d.code)) { this.ui.message.textContent = words.errorText(msg.d.code); m.errorShown = true; }
      this.render();
    }
  }

  private onSnapshot(s: Snapshot): void {
    const m = this.model;
    m.pending = false;
    m.connected = true;
    m.you = s.you;
    m.seatsKnown = true;
    m.state = s;
    m.endHeld = false;  // a snapshot shows the game as it stands: nothing slides
    noteThrows(m, s);
    if (s.rematch && m.you.length) { /* a rematch exists: offer the way there */ this.ui.rematchStatus.textContent = t("ev.rematch"); }
    if (this.parts) {
      // The snapshot's record is the game as it stands (a take-back shortens it): its last move is
      // the one marked, or none; without a record the mark already shown stays.
      const last = this.parts.moveList.rebuild(s);
      m.lastMove = s.record ? last : last ?? m.lastMove;
    }
    this.render();
    // The board is drawn: now the headings' display face may load (site.css), outside the first load's budget.
    this.root.classList.add("display-face");
    announce(this.ui, this.ui.status.textContent ?? "");
    this.resend();
  }

  /** After a reconnect's snapshot: the action the closed socket never answered goes again if the game is still at its ply, else it is dropped (it was applied, or the game moved on). */
  private resend(): void {
    const m = this.model;
    const unsent = m.unsent;
    m.unsent = null;
    if (!unsent || !m.state || unsent.d.ply !== m.state.ply || !canAct(m)) return;
    const due = unsent.t === "throw" ? m.state.phase === "throw" || m.state.phase === "opening"
      : m.state.phase === "move" && m.state.legalMoves.some((l) => l.move === unsent.d.move);
    if (due) this.act(unsent);
  }

  private onEvents(events: GameEvent[], changed: Partial<State>): void {
    const m = this.model;
    // Frames of changes need a state to change: none comes before the first snapshot (PROTOCOL.md).
    if (!m.state || !this.parts) return;
    m.pending = false;
    const stepsBefore = stepsOf(m.state);
    m.state = pageState.afterEvents(m.state, changed, m.you);
    if (m.unsent && m.unsent.d.ply !== m.state.ply) m.unsent = null;  // answered: the game moved on
    // An error's words last until the game moves on.
    if (m.errorShown) { this.ui.message.textContent = ""; m.errorShown = false; }
    for (const ev of events) {
      if (ev.e === "thrown") m.seenThrows.set(ev.index, { index: ev.index, value: ev.value, sticks: ev.sticks });
      this.parts.moveList.onEvent(ev);
      if (ev.e === "moved") m.lastMove = { from: ev.from, to: ev.bearOff ? OFF_SQUARE : ev.dest };
      if (ev.e === "rematch" && m.you.length) { this.goToRematch(ev.game); return; }
      if (ev.e === "joined" && m.you.length && !m.you.includes(ev.seat)) friendJoined();
      if (ev.e === "thrown" || ev.e === "moved") this.feed.moveOn();  // the join notice has said it
      const said = words.describe(viewOf(m), ev);
      if (!said) continue;
      // Notable events go to the feed (a log region: announced once), the rest to the screen reader only.
      if (said.notable) this.feed.add(said.text, ev.e === "joined" ? JOINED_MS : 0);
      else announce(this.ui, said.text);
    }
    // Piccione: what is left of a throw after a step, a due entry throw and a change in the throws owed, said at once.
    for (const said of words.stepsNews(viewOf(m), stepsBefore, events.some((ev) => ev.e === "moved"))) announce(this.ui, said);
    // The move that ends the game is seen to its end before the end panel covers the turn.
    m.endHeld = m.state.phase === "over" && motionTime(events) > 0;
    this.render();
    const slide = playMotion(this.parts.board, events);
    if (m.endHeld) setTimeout(() => { m.endHeld = false; this.render(); }, slide);
    if (canAct(m)) announce(this.ui, this.ui.status.textContent ?? "");
  }

  private goToRematch(newGame: string): void {
    const { secret, lang } = this.model;
    if (secret) rememberSecret(newGame, secret);
    // The same secret holds the rematch's seat; the fragment carries it where storage is blocked.
    location.assign(`/${lang}/play/${newGame}${secret ? `#seat=${encodeURIComponent(secret)}` : ""}`);
  }
}

async function copy(ui: PlayUi, input: HTMLInputElement | HTMLTextAreaElement, button: HTMLButtonElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = t("play.copied");
  announce(ui, t("play.copied"));
  setTimeout(() => { button.textContent = label; }, 1500);
}

async function main(): Promise<void> {
  const root = byId("play");
  pageStarted();  // before anything is taken over: a first script that runs later starts nothing (shared/early.ts)
  keepFragmentInLangLinks();  // the language menu keeps the seat where storage is blocked
  // The seat (an invite's join request) is read at once; the strings come with the page (or, from
  // a page without them, beside the seat), and the socket (opened by the first script, or now)
  // says hello before the board is built, so its answer travels while this page draws (web/README.md "First load").
  const seatTaken = seatFromUrl(root.dataset.game ?? "", root.dataset.lang ?? "en");
  const page = new PlayPage(root, seatTaken);
  const { ui, model } = page;
  if (!usePageStrings()) await loadStrings(root.dataset.strings ?? "");
  // A socket the first script opened (boot/boot.ts) without its hello says the page's now, and
  // the snapshot travels while the board is drawn: one turn of the event loop first. Otherwise
  // (the first script said it, or the socket is still opening) the board is built at once, while
  // the module is evaluated: the page's first render (render-blocking until then, templates/layout.html) has it.
  if (page.connect()) await new Promise((resolve) => setTimeout(resolve, 0));
  // The seat when it is known at once (the fragment's or the stored one; an invite's join may
  // still be on its way): the first render, which may come with the board, shows it (the invite, the resume link).
  const known = await Promise.race([seatTaken, Promise.resolve(null)]);
  if (known) model.secret = known.secret;
  // A narrow screen (a phone held upright) gets the board down, three columns of ten; the
  // query matches the stylesheet's.
  setupAttention(model.game);  // before the board: building it shows the states that came first
  page.build(matchMedia("(max-width: 40rem)"));
  const seat = await seatTaken;
  model.secret = seat.secret;
  if (seat.problem) ui.message.textContent = words.inviteProblemText(seat.problem);
  ui.throwButton.addEventListener("click", () => { model.keepFocus = true; page.throwSticks(); });
  ui.resign.addEventListener("click", () => { if (confirm(t("play.confirm-resign"))) page.send({ t: "resign", d: {} }); });
  ui.claim.addEventListener("click", () => page.send({ t: "claim", d: {} }));
  byId("takeback-button").addEventListener("click", () => page.takeBack());
  ui.rematch.addEventListener("click", () => page.rematch());
  for (const b of document.querySelectorAll<HTMLButtonElement>("[data-copy]"))
    b.addEventListener("click", () => void copy(ui, byId<HTMLInputElement | HTMLTextAreaElement>(b.dataset.copy ?? ""), b));
  setInterval(() => page.send({ t: "ping", d: {} }), 25000);
}

void main();
