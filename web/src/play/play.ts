// The play page: connects to the game's WebSocket, draws the board and the throw, offers
// the legal moves (one click, tap or key press each) and tells what happens in the viewer's language.
import { friendJoined, inviteShown, setupAttention, yourTurn } from "./attention";
import { Board } from "../shared/board";
import { renderChoices } from "./choices";
import { byId, el } from "../shared/dom";
import { ensureCommitment, recordedCommitment, type SeenThrow, type Verdict, verifyGame } from "./fair";
import { ClaimTimer } from "./claim";
import { Feed } from "./feed";
import { loadStrings, t } from "../shared/i18n";
import { type BoardInfo, type LastMove, OFF_SQUARE } from "../shared/model";
import { createLegend } from "./legend";
import { MoveList } from "../shared/movelist";
import { reconnectAtOnce } from "./moved";
import { playMotion } from "./motion";
import { Pacer } from "./pacer";
import type { GameEvent, LegalMove, ServerMessage, Snapshot, State } from "../shared/protocol";
import * as pageState from "./state";
import { clientSeed, seatFromUrl } from "./seat";
import { rememberSecret } from "../shared/storage";
import { inviteLink, neutralLink, renderRematchLink, renderWatchers } from "./share";
import { keepFragmentInLangLinks } from "../shared/langmenu";
import { drawThrow } from "../shared/sticks";
import { afterRender } from "./after-render";
import * as words from "./words";

const root = byId("play");
const game = root.dataset.game ?? "";
const lang = root.dataset.lang ?? "en";
const info = JSON.parse(root.dataset.board ?? "{}") as BoardInfo;

let secret: string | null = null;
let state: Snapshot | null = null;
let you: number[] = [];
/** False until the first snapshot says which seats this page holds (words.ts View). */
let seatsKnown = false;
let socket: WebSocket | null = null;
let retryDelay = pageState.RETRY_FIRST_MS;
let pending = false;
/** True after the player acted through a button: the next due control then takes the focus (keyboard play). */
let keepFocus = false;
let shownThrow = -1;
let lastMove: LastMove | null = null;
let board: Board;
let moveList: MoveList;
/** Every throw the page showed, by throw index (checked against the seeds at the end). */
const seenThrows = new Map<number, SeenThrow>();
let verdict: Verdict | "checking" | null = null;
/** True while the message line shows an error (cleared by the next events). */
let errorShown = false;
/** Holds back the server's messages while a throw or a move is being shown (the computer's chained plies). */
const pacer = new Pacer((msg) => onMessage(msg));

const ui = {
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
const feed = new Feed(byId("feed"));
const claimTimer = new ClaimTimer(ui.claim, byId("claim-wait"));

// ---- words (words.ts) -----------------------------------------------------------------------

const isLocal = () => state?.opponent === "local";
const canAct = () => pageState.canAct(state, you, pending);
/** The viewer's side of the state, for the wording functions. */
const view = (s: State = state as State): words.View => ({ s, you, seatsKnown });

function announce(text: string): void {
  ui.live.append(el("p", {}, text));
  while (ui.live.childElementCount > 6) ui.live.firstElementChild?.remove();
}

// ---- drawing -------------------------------------------------------------------------------

function render(): void {
  if (!state) return;
  const s = state;
  const mine = pageState.movesOffered(s, you, pending);
  board.render(s.board, s.off, mine, lastMove);

  if (s.lastThrow && s.lastThrow.index !== shownThrow) {
    const animate = shownThrow !== -1;
    shownThrow = s.lastThrow.index;
    drawThrow(ui.sticks, s.lastThrow.sticks, s.lastThrow.value, info.die, animate);
    const up = [...s.lastThrow.sticks].filter((c) => c === "1").length;
    ui.throwValue.textContent = info.die ? t("play.die-shows", { value: s.lastThrow.value }) : t("play.sticks-up", { up, value: s.lastThrow.value });
  }

  const throwDue = pageState.throwDue(s, you, pending);
  ui.throwButton.disabled = !throwDue;
  // Spectators get no throw button at all, nor does a seat while the game waits for its other player.
  ui.throwButton.hidden = pageState.throwHidden(s, you);
  ui.throwButton.textContent = t(info.die ? "play.throw-die" : "play.throw");
  ui.throwButton.classList.toggle("due", throwDue);

  const active = document.activeElement;
  const focusFree = !active || active === document.body || !!active.closest("#move-choices, #throw-button");
  renderChoices(ui.choices, mine, { pick: (m) => { keepFocus = true; sendMove(m); }, preview: (m) => board.preview(m) });
  if (keepFocus && focusFree) {
    // The controls sit beside the board; moving the focus must never scroll the page away from it.
    if (mine.length) (ui.choices.firstElementChild as HTMLElement | null)?.focus({ preventScroll: true });
    else if (throwDue) ui.throwButton.focus({ preventScroll: true });
  }

  ui.status.textContent = statusText(s);
  renderSeats(s);
  renderShare(s);
  renderEnd(s);
  renderFairness(s);
  // Only once the page knows its seats (an `events` message may come before the first snapshot).
  if (you.length) yourTurn(!isLocal() && s.phase !== "over" && s.seatToAct !== null && you.includes(s.seatToAct));
  afterRender(game, lang, s, you, seatsKnown);  // replay link, "Your games" note, spectators' bar
}

function renderFairness(s: Snapshot): void {
  ui.commitment.textContent = s.fairness?.commitment ?? "";
  const seed = s.fairness?.serverSeed ?? null;
  ui.serverSeedRow.hidden = !seed;
  ui.serverSeed.textContent = seed ?? "";
  if (s.phase === "over" && seed && verdict === null) {
    verdict = "checking";
    // WebCrypto exists only in secure contexts (HTTPS, localhost): elsewhere the check is unavailable.
    void verifyGame(game, info.ruleset, info.die, seenThrows.values())
      .catch((): Verdict => ({ kind: "unavailable" }))
      .then((v) => { verdict = v; showVerdict(); });
  }
  showVerdict();
}

/** The Fair throws panel's verdict: checking, verified, or a warning (also when the commitment changed mid-game). */
function showVerdict(): void {
  const recorded = recordedCommitment(game);
  const shown = state?.fairness?.commitment;
  const [text, kind] = pageState.verdictWords(recorded, shown, verdict);
  if (ui.fairVerdict.textContent !== text) ui.fairVerdict.textContent = text;
  ui.fairVerdict.className = `fair-verdict ${kind}`;
  ui.fairVerdict.hidden = !text;
}

/** Notes the throws a snapshot shows with their throw index: the opening's and the last one. */
function noteThrows(s: Snapshot): void {
  s.opening.forEach((o, i) => seenThrows.set(i, { index: i, value: o.value, sticks: o.sticks }));
  const last = s.lastThrow;
  if (last) seenThrows.set(last.index, { index: last.index, value: last.value, sticks: last.sticks });
}

const statusText = (s: Snapshot) => words.statusText(view(s));

function renderSeats(s: Snapshot): void {
  for (const seat of [0, 1]) {
    const box = byId(`seat-${seat}`);
    const player = words.playerOfSeat(view(s), seat);
    const info = s.seats[seat];
    box.querySelector(".seat-piece")!.className = `seat-piece${player ? ` p${player}` : ""}`;
    box.querySelector(".seat-name")!.textContent = info?.taken ? words.nameOf(view(s), seat) : t("play.seat.waiting", { seat: words.seatLabel(view(s), seat) });
    box.querySelector(".seat-off")!.textContent = player ? t("play.off", { count: s.off[player - 1] ?? 0 }) : "";
    const presence = box.querySelector(".presence")!;
    const online = !!info?.taken && info.online;
    presence.textContent = info?.taken && info.kind !== "computer" && !isLocal() ? t(online ? "play.online" : "play.offline") : "";
    // The dot goes with the word: none for the computer, local games or empty seats.
    presence.className = presence.textContent ? `presence ${online ? "online" : "offline"}` : "presence";
    box.classList.toggle("to-act", s.seatToAct === seat && s.phase !== "over");
  }
}

function renderShare(s: Snapshot): void {
  const watch = `${location.origin}/${lang}/play/${game}`;
  byId<HTMLInputElement>("watch-link").value = neutralLink(game);  // a spectator reads their own language
  const invite = inviteLink(game, lang, s, secret, render);
  byId("share-invite").hidden = !invite;
  if (invite) byId<HTMLInputElement>("invite-link").value = invite;
  inviteShown();
  byId("share-resume").hidden = !secret || !you.length;
  // With the recorded commitment: another device then checks the throws against the same one.
  const commit = recordedCommitment(game);
  if (secret) byId<HTMLInputElement>("resume-link").value = `${watch}#seat=${secret}${commit ? `&commit=${commit}` : ""}`;
  ui.resign.hidden = !you.length || s.phase === "over" || s.phase === "waiting";
  // Sound and notifications are for a player who waits for a turn: not for spectators or pass-and-play.
  byId("alerts").hidden = !you.length || s.opponent === "local";
  claimTimer.update(view(s));
}

function renderEnd(s: Snapshot): void {
  ui.end.hidden = s.phase !== "over";
  if (s.phase !== "over" || !s.result) return;
  ui.result.textContent = words.resultText(view(s), info.ruleset);
  const score = words.scoreText(view(s), info.ruleset);
  ui.finalScore.textContent = score;
  ui.finalScore.hidden = !score;
  ui.rematch.hidden = !you.length;
  renderRematchLink(s, lang);
}

// ---- talking to the server -----------------------------------------------------------------

function send(type: string, data: Record<string, unknown> = {}): void {
  if (type !== "ping") pacer.flush();  // the player's own action is never held behind a queued one
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ t: type, d: data }));
}

function sendMove(m: LegalMove): void {
  pacer.flush();  // the player acts: nothing queued may hold the answer back
  if (!state || !canAct() || state.phase !== "move") return;
  pending = true;
  send("move", { ply: state.ply, move: m.move });
  render();
}

function throwSticks(): void {
  pacer.flush();
  if (!state || !canAct()) return;
  pending = true;
  send("throw", { ply: state.ply });
  render();
}

function onMessage(msg: ServerMessage): void {
  if (msg.t === "snapshot") {
    pending = false;
    you = msg.d.you;
    seatsKnown = true;
    state = msg.d;
    noteThrows(msg.d);
    if (state.rematch && you.length) { /* a rematch exists: offer the way there */ ui.rematchStatus.textContent = t("ev.rematch"); }
    lastMove = moveList.rebuild(msg.d) ?? lastMove;
    render();
    announce(ui.status.textContent ?? "");
  } else if (msg.t === "events") {
    // Frames of changes need a state to change: none comes before the first snapshot (PROTOCOL.md).
    if (!state) return;
    pending = false;
    const previous = state;
    state = pageState.afterEvents(previous, msg.d.state, you);
    // An error's words last until the game moves on.
    if (errorShown) { ui.message.textContent = ""; errorShown = false; }
    for (const ev of msg.d.events) {
      if (ev.e === "thrown") seenThrows.set(ev.index, { index: ev.index, value: ev.value, sticks: ev.sticks });
      moveList.onEvent(ev);
      if (ev.e === "moved") lastMove = { from: ev.from, to: ev.bearOff ? OFF_SQUARE : ev.dest };
      if (ev.e === "rematch" && you.length) { goToRematch(ev.game); return; }
      if (ev.e === "joined" && you.length && !you.includes(ev.seat)) friendJoined();
      const said = words.describe(view(), ev);
      if (!said) continue;
      // Notable events go to the feed (a log region: announced once), the rest to the screen reader only.
      if (said.notable) feed.add(said.text);
      else announce(said.text);
    }
    render();
    playMotion(board, msg.d.events);
    if (canAct()) announce(ui.status.textContent ?? "");
  } else if (msg.t === "watchers") {
    renderWatchers(msg.d.count);
  } else if (msg.t === "error") {
    pending = false;
    if (pageState.showsError(msg.d.code)) { ui.message.textContent = words.errorText(msg.d.code); errorShown = true; }
    render();
  }
}

function goToRematch(newGame: string): void {
  if (secret) rememberSecret(newGame, secret);
  // The same secret holds the rematch's seat; the fragment carries it where storage is blocked.
  location.assign(`/${lang}/play/${newGame}${secret ? `#seat=${encodeURIComponent(secret)}` : ""}`);
}

async function connect(): Promise<void> {
  // The commitment is recorded before the seed goes out (server/PROTOCOL.md "Fairness"); the
  // hello below carries the seed, so without the commitment the page waits and tries again.
  if (!(await ensureCommitment(game))) {
    ui.status.textContent = t("play.status.reconnecting");
    setTimeout(() => void connect(), retryDelay);
    retryDelay = pageState.nextRetryDelay(retryDelay);
    return;
  }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${encodeURIComponent(game)}`);
  socket = ws;
  ws.addEventListener("open", () => {
    // Only a seat contributes a seed; it is in the fragment before it goes out (seat.ts).
    const hello: Record<string, string> = secret ? { secret, clientSeed: clientSeed(game) } : {};
    send("hello", hello);
  });
  ws.addEventListener("message", (e) => {
    try {
      const msg = JSON.parse(String(e.data)) as ServerMessage;
      // The delay between tries starts again only once the server has answered the hello: a
      // connection it closes at once (a refused hello) keeps backing off.
      if (msg.t === "snapshot") retryDelay = pageState.RETRY_FIRST_MS;
      pacer.push(msg);
    } catch (err) {
      console.error(err);
    }
  });
  ws.addEventListener("close", (ev) => {
    if (socket !== ws) return;
    if (reconnectAtOnce(ev)) { void connect(); return; }  // the game moved to another server instance
    ui.status.textContent = t("play.status.reconnecting");
    setTimeout(() => void connect(), retryDelay);
    retryDelay = pageState.nextRetryDelay(retryDelay);
  });
}

async function copy(input: HTMLInputElement, button: HTMLButtonElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = t("play.copied");
  announce(t("play.copied"));
  setTimeout(() => { button.textContent = label; }, 1500);
}

async function main(): Promise<void> {
  keepFragmentInLangLinks();  // the language menu keeps the seat where storage is blocked
  await loadStrings(root.dataset.strings ?? "");
  // A narrow screen (a phone held upright) gets the board down, three columns of ten; the
  // query matches the stylesheet's.
  const narrow = matchMedia("(max-width: 40rem)");
  board = new Board(byId("board"), info, narrow.matches);
  moveList = new MoveList(ui.moveList, info, (seat) => words.seatLabel(view(), seat));
  root.querySelector(".table")?.append(createLegend(info, !narrow.matches));
  narrow.addEventListener("change", () => board.setDown(narrow.matches));
  board.onMove = (m) => { keepFocus = false; sendMove(m); };
  setupAttention(game);
  const seat = await seatFromUrl(game, lang);
  secret = seat.secret;
  if (seat.problem) ui.message.textContent = words.inviteProblemText(seat.problem);
  claimTimer.onReady = announce;
  ui.throwButton.addEventListener("click", () => { keepFocus = true; throwSticks(); });
  ui.resign.addEventListener("click", () => { if (confirm(t("play.confirm-resign"))) send("resign"); });
  ui.claim.addEventListener("click", () => send("claim"));
  ui.rematch.addEventListener("click", () => {
    if (state?.rematch) { goToRematch(state.rematch); return; }
    send("rematch");
    ui.rematchStatus.textContent = t("play.rematch-waiting");
  });
  for (const b of document.querySelectorAll<HTMLButtonElement>("[data-copy]"))
    b.addEventListener("click", () => void copy(byId<HTMLInputElement>(b.dataset.copy ?? ""), b));
  void connect();
  setInterval(() => send("ping"), 25000);
}

void main();
