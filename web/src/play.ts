// The play page: connects to the game's WebSocket, draws the board and the throw, offers
// the legal moves (one click, tap or key press each) and tells what happens in the viewer's language.
import { Board, type BoardInfo, type LegalMove } from "./board";
import { byId, el } from "./dom";
import { ensureCommitment, recordedCommitment, type SeenThrow, type Verdict, verifyGame } from "./fair";
import { loadStrings, t } from "./i18n";
import type { GameEvent, ServerMessage, Snapshot, State } from "./protocol";
import { clientSeed, rememberSecret, seatFromUrl } from "./seat";
import { inviteLink, renderRematchLink, renderWatchers } from "./share";
import { drawThrow } from "./sticks";

const root = byId("play");
const game = root.dataset.game ?? "";
const lang = root.dataset.lang ?? "en";
const info = JSON.parse(root.dataset.board ?? "{}") as BoardInfo;

let secret: string | null = null;
let state: Snapshot | null = null;
let you: number[] = [];
let socket: WebSocket | null = null;
let retryDelay = 500;
let pending = false;
/** True after the player acted through a button: the next due control then takes the focus (keyboard play). */
let keepFocus = false;
let shownThrow = -1;
let lastMove: { from: number; to: number } | null = null;
let throwOfPly: number | null = null;
let board: Board;
const log: string[] = [];
/** Every throw the page showed, by throw index (checked against the seeds at the end). */
const seenThrows = new Map<number, SeenThrow>();
let verdict: Verdict | "checking" | null = null;

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
};

// ---- words ---------------------------------------------------------------------------------

const isLocal = () => state?.opponent === "local";
const canAct = () => !!state && state.phase !== "over" && state.seatToAct !== null && you.includes(state.seatToAct) && !pending;
const playerOfSeat = (seat: number) => state?.players?.[seat] ?? null;
const seatOfPlayer = (player: number) => (state?.players ? state.players.indexOf(player as 1 | 2) : -1);

function seatLabel(seat: number): string {
  if (!state) return "";
  const player = playerOfSeat(seat);
  if (isLocal()) return player ? t(`play.side.${player}`) : t(seat === 0 ? "play.seat.first" : "play.seat.second");
  if (you.includes(seat)) return t("play.seat.you");
  if (state.seats[seat]?.kind === "computer") return t("play.seat.computer", { level: t(`level.${state.level ?? "intermediate"}`) });
  return you.length ? t("play.seat.opponent") : t(seat === 0 ? "play.seat.first" : "play.seat.second");
}

/** "Cones (You)", "Spools (Computer, Expert)", "Cones" in a local game, or the seat before sides are known. */
function nameOf(seat: number | undefined, player?: number | null): string {
  const p = player ?? (seat !== undefined ? playerOfSeat(seat) : null);
  const s = seat ?? (p ? seatOfPlayer(p) : -1);
  if (!p) return s >= 0 ? seatLabel(s) : "";
  if (isLocal() || s < 0) return t(`play.side.${p}`);
  return `${t(`play.side.${p}`)} (${seatLabel(s)})`;
}

const moveText = (from: number, to: number) => (to >= 31 ? t("play.choice-off", { from }) : t("play.choice-to", { from, to }));

/** The words for one event; `notable` events also go to the visible message line. */
function describe(ev: GameEvent): { text: string; notable: boolean } | null {
  const name = nameOf(ev.seat, ev.player);
  switch (ev.e) {
    case "thrown": return { text: t(ev.opening ? "ev.thrown-opening" : "ev.thrown", { name, value: ev.value ?? 0 }), notable: false };
    case "opening-decided": return { text: t("ev.opening-decided", { name: seatLabel(ev.seat ?? 0) }), notable: true };
    case "moved":
      if (ev.bearOff) return null;  // "borne-off" follows
      return { text: t(ev.backward ? "ev.moved-backward" : "ev.moved", { name, from: ev.from ?? 0, to: ev.to ?? 0 }), notable: false };
    case "swapped": return { text: t("ev.swapped", { name: nameOf(undefined, ev.player), square: ev.square ?? 0, to: ev.to ?? 0 }), notable: true };
    case "captured": return { text: t("ev.captured", { name: nameOf(undefined, ev.player), square: ev.square ?? 0 }), notable: true };
    case "water": return { text: t("ev.water", { square: ev.square ?? 0, dest: ev.dest ?? 0 }), notable: true };
    case "borne-off": return { text: t("ev.borne-off", { name, from: ev.from ?? 0, off: ev.off ?? 0 }), notable: true };
    case "passed": return { text: t("ev.passed", { name, value: ev.value ?? 0 }), notable: true };
    case "turn-lost": return { text: t("ev.turn-lost", { name, value: ev.value ?? 0 }), notable: true };
    case "extra-throw": return { text: t("ev.extra-throw", { name }), notable: true };
    case "turn": return { text: t("ev.turn", { name }), notable: false };
    case "joined": return { text: t("ev.joined"), notable: true };
    case "presence": return { text: t(ev.online ? "ev.online" : "ev.offline", { name: seatLabel(ev.seat ?? 0) }), notable: false };
    case "rematch-offered":
      return you.includes(ev.seat ?? -1) ? null : { text: t("play.rematch-offered"), notable: true };
    case "rematch": return { text: t("ev.rematch"), notable: true };
    default: return null;
  }
}

function announce(text: string): void {
  ui.live.append(el("p", {}, text));
  while (ui.live.childElementCount > 6) ui.live.firstElementChild?.remove();
}

// ---- the move list -------------------------------------------------------------------------

function addLine(text: string): void {
  log.push(text);
  const li = el("li", {}, text);
  ui.moveList.querySelector(".empty")?.remove();
  ui.moveList.append(li);
  // The list scrolls inside its own box; scrollIntoView would scroll the page to it as well.
  ui.moveList.scrollTop = ui.moveList.scrollHeight;
}

function addMoveEntry(player: number | null | undefined, value: number, what: string): void {
  const side = player ? t(`play.side.${player}`) : "";
  addLine(`${side}: ${value} · ${what}`);
}

/** Jéquier's opening in the list: each throw, then the first 1 with its move from 10 to 11. */
const addOpeningThrow = (seat: number, value: number) => addLine(t("ev.thrown-opening", { name: seatLabel(seat), value }));
const addOpeningMove = () => addMoveEntry(2, 1, moveText(10, 11));

function rebuildMoveList(s: Snapshot): void {
  log.length = 0;
  ui.moveList.replaceChildren();
  const opening = s.opening ?? [];
  for (const o of opening) addOpeningThrow(o.seat, o.value);
  if (opening.length && s.players) addOpeningMove();
  for (const p of s.record?.plies ?? []) {
    const [from, to] = p.move.split("-");
    addMoveEntry(p.player, p.throw, p.move === "pass" ? "—" : moveText(Number(from), to === "off" ? 31 : Number(to)));
    if (p.move !== "pass") lastMove = { from: Number(from), to: to === "off" ? 31 : Number(to) };
  }
  if (!log.length) ui.moveList.append(el("li", { class: "empty" }, t("play.no-moves-yet")));
}

// ---- drawing -------------------------------------------------------------------------------

function render(): void {
  if (!state) return;
  const s = state;
  const mine = canAct() && s.phase === "move" ? s.legalMoves : [];
  board.render(s.board, s.off, mine, lastMove);

  if (s.lastThrow && s.lastThrow.index !== shownThrow) {
    const animate = shownThrow !== -1;
    shownThrow = s.lastThrow.index ?? -1;
    drawThrow(ui.sticks, s.lastThrow.sticks, s.lastThrow.value, info.die, animate);
    const up = [...s.lastThrow.sticks].filter((c) => c === "1").length;
    ui.throwValue.textContent = info.die ? t("play.die-shows", { value: s.lastThrow.value }) : t("play.sticks-up", { up, value: s.lastThrow.value });
  }

  const throwDue = canAct() && (s.phase === "throw" || s.phase === "opening");
  ui.throwButton.disabled = !throwDue;
  ui.throwButton.hidden = s.phase === "over" || !you.length;  // spectators get no throw button at all
  ui.throwButton.textContent = t(info.die ? "play.throw-die" : "play.throw");
  ui.throwButton.classList.toggle("due", throwDue);

  const active = document.activeElement;
  const focusFree = !active || active === document.body || !!active.closest("#move-choices, #throw-button");
  ui.choices.replaceChildren();
  for (const m of mine) {
    const b = el("button", { type: "button", class: "button choice-button", "data-move": m.move });
    b.append(el("span", { "aria-hidden": "true" }, moveText(m.from, m.bearOff ? 31 : m.to)),
      el("span", { class: "visually-hidden" }, m.bearOff ? t("play.move-off", { from: m.from }) : t("play.move-to", { from: m.from, to: m.to })));
    b.addEventListener("click", () => { keepFocus = true; sendMove(m); });
    b.addEventListener("focus", () => board.preview(m));
    b.addEventListener("mouseenter", () => board.preview(m));
    b.addEventListener("blur", () => board.preview(null));
    b.addEventListener("mouseleave", () => board.preview(null));
    ui.choices.append(b);
  }
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
  let text = "";
  let kind = "";
  if (recorded && shown && shown !== recorded) [text, kind] = [t("play.fair-changed"), "warning"];
  else if (verdict === "checking") [text, kind] = [t("play.fair-checking"), "checking"];
  else if (verdict?.kind === "verified") [text, kind] = [t("play.fair-verified", { count: verdict.throws }), "verified"];
  else if (verdict?.kind === "bad-commitment") [text, kind] = [t("play.fair-bad-commitment"), "warning"];
  else if (verdict?.kind === "bad-throw") [text, kind] = [t("play.fair-bad-throw", { number: verdict.index + 1 }), "warning"];
  else if (verdict?.kind === "unavailable") [text, kind] = [t("play.fair-unavailable"), "checking"];
  if (ui.fairVerdict.textContent !== text) ui.fairVerdict.textContent = text;
  ui.fairVerdict.className = `fair-verdict ${kind}`;
  ui.fairVerdict.hidden = !text;
}

/** Notes the throws a snapshot shows with their throw index: the opening's and the last one. */
function noteThrows(s: Snapshot): void {
  (s.opening ?? []).forEach((o, i) => seenThrows.set(i, { index: i, value: o.value, sticks: o.sticks ?? "" }));
  const last = s.lastThrow;
  if (last && typeof last.index === "number") seenThrows.set(last.index, { index: last.index, value: last.value, sticks: last.sticks ?? "" });
}

function statusText(s: Snapshot): string {
  const act = s.seatToAct;
  const value = s.lastThrow?.value ?? 0;
  let text: string;
  if (s.phase === "waiting") text = t(you.length ? "play.status.waiting" : "play.status.watching-waiting");
  else if (s.phase === "over") text = t("play.status.over");
  else if (act === null) text = "";
  else if (s.phase === "move")
    text = you.includes(act) && !isLocal() ? t("play.status.your-move", { value }) : isLocal()
      ? `${nameOf(act)}: ${t("play.status.your-move", { value })}` : t("play.status.their-move", { name: nameOf(act), value });
  else {
    const base = you.includes(act) && !isLocal() ? t("play.status.your-throw") : isLocal()
      ? `${nameOf(act)}: ${t("play.status.your-throw")}` : t("play.status.their-throw", { name: nameOf(act) });
    text = s.phase === "opening" ? `${t("play.status.opening-throw")} ${base}` : base;
  }
  return you.length ? text : `${t("play.watching")} ${text}`;
}

function renderSeats(s: Snapshot): void {
  for (const seat of [0, 1]) {
    const box = byId(`seat-${seat}`);
    const player = playerOfSeat(seat);
    const info = s.seats[seat];
    box.querySelector(".seat-piece")!.className = `seat-piece${player ? ` p${player}` : ""}`;
    box.querySelector(".seat-name")!.textContent = info?.taken ? nameOf(seat) : `${seatLabel(seat)}: ${t("play.seat.empty")}`;
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
  byId<HTMLInputElement>("watch-link").value = watch;
  const invite = inviteLink(game, lang, s, secret, render);
  byId("share-invite").hidden = !invite;
  if (invite) byId<HTMLInputElement>("invite-link").value = invite;
  byId("share-resume").hidden = !secret || !you.length;
  if (secret) byId<HTMLInputElement>("resume-link").value = `${watch}#seat=${secret}`;
  ui.resign.hidden = !you.length || s.phase === "over" || s.phase === "waiting";
  const other = you.length === 1 ? s.seats[1 - (you[0] ?? 0)] : undefined;
  ui.claim.hidden = !(s.opponent === "friend" && other?.taken && !other.online && s.phase !== "over" && s.phase !== "waiting");
}

function renderEnd(s: Snapshot): void {
  ui.end.hidden = s.phase !== "over";
  if (s.phase !== "over" || !s.result) return;
  const r = s.result;
  let text: string;
  if (r.winner === null || r.winner === undefined) text = t("play.result.draw");
  else if (you.length === 1) text = t(you.includes(r.winner) ? "play.result.you-win" : "play.result.you-lose");
  else text = t("play.result.wins", { name: nameOf(r.winner, r.player) });
  const reason = r.reason === "bear-off" ? (info.ruleset === "bell" ? "majority" : "bear-off") : r.reason;
  if (reason !== "draw") text += ` ${t(`play.reason.${reason}`)}`;
  ui.result.textContent = text;
  ui.rematch.hidden = !you.length;
  renderRematchLink(s, lang);
}

// ---- talking to the server -----------------------------------------------------------------

function send(type: string, data: Record<string, unknown> = {}): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ t: type, d: data }));
}

function sendMove(m: LegalMove): void {
  if (!state || !canAct() || state.phase !== "move") return;
  pending = true;
  send("move", { ply: state.ply, move: m.move });
  render();
}

function throwSticks(): void {
  if (!state || !canAct()) return;
  pending = true;
  send("throw", { ply: state.ply });
  render();
}

function onMessage(msg: ServerMessage): void {
  if (msg.t === "snapshot") {
    pending = false;
    you = msg.d.you;
    state = msg.d;
    noteThrows(msg.d);
    if (state.rematch && you.length) { /* a rematch exists: offer the way there */ ui.rematchStatus.textContent = t("ev.rematch"); }
    rebuildMoveList(msg.d);
    render();
    announce(ui.status.textContent ?? "");
  } else if (msg.t === "events") {
    pending = false;
    const previous = state;
    state = { ...msg.d.state, you, record: previous?.record } as Snapshot;
    let notable = "";
    for (const ev of msg.d.events) {
      if (ev.e === "thrown") throwOfPly = ev.value ?? null;
      if (ev.e === "thrown" && typeof ev.index === "number")
        seenThrows.set(ev.index, { index: ev.index, value: ev.value ?? 0, sticks: ev.sticks ?? "" });
      if (ev.e === "thrown" && ev.opening) addOpeningThrow(ev.seat ?? 0, ev.value ?? 0);
      if (ev.e === "opening-decided") addOpeningMove();
      if (ev.e === "moved") {
        lastMove = { from: ev.from ?? 0, to: ev.bearOff ? 31 : ev.dest ?? ev.to ?? 0 };
        addMoveEntry(ev.player, throwOfPly ?? 0, moveText(ev.from ?? 0, ev.bearOff ? 31 : ev.to ?? 0));
      }
      if (ev.e === "passed" || ev.e === "turn-lost") addMoveEntry(ev.player, ev.value ?? 0, "—");
      if (ev.e === "rematch" && ev.game && you.length) { goToRematch(ev.game); return; }
      const words = describe(ev);
      if (!words) continue;
      announce(words.text);
      if (words.notable) notable = words.text;
    }
    ui.message.textContent = notable;
    render();
    if (canAct()) announce(ui.status.textContent ?? "");
  } else if (msg.t === "watchers") {
    renderWatchers(typeof msg.d.count === "number" ? msg.d.count : 0);
  } else if (msg.t === "error") {
    pending = false;
    if (msg.d.code !== "wrong-ply" && msg.d.code !== "rate-limited") ui.message.textContent = t("play.error", { message: msg.d.message });
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
    retryDelay = Math.min(retryDelay * 2, 8000);
    return;
  }
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${encodeURIComponent(game)}`);
  socket = ws;
  ws.addEventListener("open", () => {
    retryDelay = 500;
    // Only a seat contributes a seed; it is in the fragment before it goes out (seat.ts).
    const hello: Record<string, string> = secret ? { secret, clientSeed: clientSeed(game) } : {};
    send("hello", hello);
  });
  ws.addEventListener("message", (e) => {
    try {
      onMessage(JSON.parse(String(e.data)) as ServerMessage);
    } catch (err) {
      console.error(err);
    }
  });
  ws.addEventListener("close", () => {
    if (socket !== ws) return;
    ui.status.textContent = t("play.status.reconnecting");
    setTimeout(() => void connect(), retryDelay);
    retryDelay = Math.min(retryDelay * 2, 8000);
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
  await loadStrings(root.dataset.strings ?? "");
  // A narrow screen (a phone held upright) gets the board down, three columns of ten; the
  // query matches the stylesheet's.
  const narrow = matchMedia("(max-width: 40rem)");
  board = new Board(byId("board"), info, narrow.matches);
  narrow.addEventListener("change", () => board.setDown(narrow.matches));
  board.onMove = (m) => { keepFocus = false; sendMove(m); };
  const seat = await seatFromUrl(game, lang);
  secret = seat.secret;
  if (seat.problem === "full") ui.message.textContent = t("error.game-full.text");
  else if (seat.problem === "over") ui.message.textContent = t("play.invite-over");
  else if (seat.problem) ui.message.textContent = t("home.start.failed");
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
