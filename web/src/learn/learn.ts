// The tutorial page (/{lang}/learn/{ruleset}): short lessons, each a set-up position with a
// throw where the learner makes the move asked for, checked at once by the engine in
// WebAssembly; a hint on request, the reason for a wrong move, and at the end a game against
// the beginner.
import { Board } from "../shared/board";
import { byId, el } from "../shared/dom";
import { loadEngine, type SenetEngine } from "../engine/wasm";
import { has, loadStrings, t } from "../shared/i18n";
import { type BoardInfo, type LastMove, OFF_SQUARE } from "../shared/model";
import type { LegalMove } from "../shared/protocol";
import "../shared/langmenu";
import { showThrow, oddsTable, pieceButtons, stepButtons } from "./ui";
import { whyIllegal, whyNoStep } from "./why";
import { lessonsFor } from "./lessons/index";
import { meetsGoal, moveSquares, parsePosition, type Lesson } from "./lessons/types";
import { localStore } from "../shared/storage";
import { type CreatedGame, openNewGame } from "../shared/new-game";

const root = byId("learn");
const info = JSON.parse(root.dataset.board ?? "{}") as BoardInfo;
const lessons = lessonsFor(info.ruleset);
const feedback = byId("lesson-feedback");
let engine: SenetEngine;
let board: Board;
let index = 0;
/** The lesson's current position (its set-up until the learner's move is made). */
let position = "";
let done = false;
let selected: number | null = null;

/** The engine's move that starts on `from` in the current position, or undefined. */
function legalFrom(from: number, legal: readonly string[]): string | undefined {
  return legal.find((m) => moveSquares(m)?.[0] === from);
}

/** A move as the board marks it; `to` may be off the board (OFF_SQUARE). */
function asLegalMove(move: string): LegalMove {
  const [from, to] = moveSquares(move) ?? [0, 0];
  const kind = move === "in-1" ? { enter: true } : info.ruleset === "piccione" && to === 27 ? { toHand: true, dest: 0 } : {};
  return { move, from, to, dest: to, bearOff: to > 30, backward: to < from, ...kind };
}

/** The key's touch wording (`key.tap`: "tap" for "click") on a touch screen, when the catalog has one. */
function pointerKey(key: string): string {
  return matchMedia("(pointer: coarse)").matches && has(`${key}.tap`) ? `${key}.tap` : key;
}

/** Where this browser remembers the lesson reached in this ruleset's tutorial. */
const progressKey = () => `senet.lesson.${info.ruleset}`;

/** The lesson to open with: the one this browser reached last time, else the first. */
function rememberedLesson(): number {
  const n = Number(localStore()?.getItem(progressKey()) ?? 0);
  return Number.isInteger(n) && n >= 0 && n < lessons.length ? n : 0;
}

/** Remembers lesson `n` as the one reached (storage may be refused: then nothing is kept). */
function rememberLesson(n: number): void {
  try {
    localStore()?.setItem(progressKey(), String(n));
  } catch {
    // Storage full or refused: the tutorial goes on, only the place is not kept.
  }
}

function say(text: string, kind: "good" | "wrong" | "hint" | "info"): void {
  feedback.className = `lesson-feedback ${kind}`;
  feedback.dataset.kind = kind;
  feedback.textContent = text;
}

/** True in Piccione's tutorial: a throw may be split, so a step names its target, not only its piece. */
const splits = info.ruleset === "piccione";

/** Draws the current position; `marks` are the moves whose piece and target are highlighted. */
function draw(marks: LegalMove[], last: LastMove | null = null): void {
  const p = parsePosition(position);
  board.render(p.board, p.off, marks, last);
  const hands = byId("lesson-hands");
  hands.hidden = !splits;
  if (splits) hands.textContent = t("learn.hands", { mine: p.hand[p.turn - 1] ?? 0, theirs: p.hand[2 - p.turn] ?? 0 });
  const buttons = byId("lesson-piece-buttons");
  if (splits) stepButtons(buttons, done ? [] : engine.moves(position, lesson().throwValue).filter((m) => m !== "pass"), tryMove);
  else pieceButtons(buttons, done ? [] : p.board.flatMap((o, i) => (o === p.turn ? [i + 1] : [])), attempt);
  byId("lesson-pieces-label").textContent = t(splits ? "learn.pieces-label.steps" : "learn.pieces-label");
  byId("lesson-pieces").hidden = done;
}

function lesson(): Lesson {
  const l = lessons[index];
  if (!l) throw new Error(`no lesson ${index}`);
  return l;
}

/** Shows lesson `n` (0-based) from its set-up position. */
function show(n: number, focus = true): void {
  index = n;
  rememberLesson(n);
  const l = lesson();
  position = l.position;
  done = false;
  selected = null;
  byId("lesson").hidden = false;
  byId("lesson-end").hidden = true;
  byId("lesson").dataset.index = String(n);
  byId("lesson").dataset.done = "";
  byId("lesson-progress").textContent = t("learn.progress", { n: n + 1, count: lessons.length });
  byId("lesson-title").textContent = t(`${l.key}title`);
  const text = byId("lesson-text");
  text.replaceChildren(el("p", {}, t(`${l.key}text`)));
  // The lesson speaks of rows; a narrow screen draws them as columns (site.css shows this then).
  if (l.key === "learn.common.path.") text.append(el("p", { class: "narrow-only" }, t("learn.common.path.narrow")));
  if (l.odds) text.append(oddsTable(engine.throwOdds(info.ruleset)));
  showThrow(byId("lesson-sticks"), byId("lesson-throw-text"), l.throwValue, info.die);
  byId<HTMLButtonElement>("lesson-prev").disabled = n === 0;
  byId("lesson-next").textContent = t(n + 1 < lessons.length ? "learn.next" : "learn.finish");
  byId("lesson-retry").hidden = true;
  say("", "info");
  draw([]);
  if (focus) byId("lesson-title").focus();
}

/** The learner picks their piece on `from`: the engine judges the move at once. */
function attempt(from: number): void {
  if (done) return;
  const l = lesson();
  const legal = engine.moves(position, l.throwValue);
  const move = legalFrom(from, legal);
  selected = null;
  if (!move) {
    const why = whyIllegal(parsePosition(position), info, from, l.throwValue, legal);
    say(t("learn.wrong", { why: t(why.key, why.params) }), "wrong");
    draw([]);
    return;
  }
  tryMove(move);
}

/**
 * Piccione: the learner's step from `from` (0: the hand) to `to` (31: off the board); the engine
 * judges it, and a step it does not list is answered with the rule that refuses it.
 */
function attemptStep(from: number, to: number): void {
  if (done) return;
  const l = lesson();
  const legal = engine.moves(position, l.throwValue);
  const move = from === 0 ? "in-1" : `${from}-${to >= OFF_SQUARE ? "off" : to}`;
  selected = null;
  if (legal.includes(move)) return tryMove(move);
  const why = whyNoStep(parsePosition(position), from, to, l.throwValue, legal);
  say(t("learn.wrong", { why: t(why.key, why.params) }), "wrong");
  draw([]);
}

/** A legal move the learner made: done when it is what the lesson asks, else why it is not. */
function tryMove(move: string): void {
  if (done) return;
  const l = lesson();
  const before = parsePosition(position);
  selected = null;
  if (!meetsGoal(l.goal, move, before, l.throwValue)) {
    say(t(l.other ?? "learn.why.not-asked"), "wrong");
    draw([]);
    return;
  }
  const after = engine.apply(position, l.throwValue, move);
  position = after.position;
  done = true;
  byId("lesson").dataset.done = "1";
  const [f, to] = moveSquares(move) ?? [0, 0];
  say(t("learn.right", { done: t(`${l.key}done`) }), "good");
  byId("lesson-retry").hidden = false;
  draw([], { from: f, to });
  // Next gets the focus, the view moved no more than needed to show it (the board stays put).
  const next = byId("lesson-next");
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest" });
}

/** Piccione's board taps: a piece, then the square it steps to; an empty square 1 enters a piece. */
function onSplitClick(square: number, p: ReturnType<typeof parsePosition>, onPiece: boolean): void {
  const l = lesson();
  if (selected !== null && square !== selected && !(onPiece && p.board[square - 1] === p.turn)) return attemptStep(selected, square);
  if (onPiece && p.board[square - 1] === p.turn) {
    if (selected === square) {
      selected = null;
      draw([]);
      return;
    }
    selected = square;
    const steps = engine.moves(position, l.throwValue).filter((m) => moveSquares(m)?.[0] === square);
    draw(steps.map(asLegalMove));
    say(t(pointerKey("learn.selected.steps"), { square }), "info");
    return;
  }
  if (square === 1 && !p.board[0]) return attemptStep(0, 1);
  if (onPiece && p.board[square - 1]) say(t("learn.why.not-yours"), "wrong");
}

/** A click or tap on the board: the first picks one of the learner's pieces, the second its target. */
function onBoardClick(ev: Event): void {
  const target = ev.target as Element;
  const pieceEl = target.closest("[data-at]");
  const squareEl = target.closest("[data-square]");
  const square = Number(pieceEl?.getAttribute("data-at") ?? squareEl?.getAttribute("data-square") ?? 0);
  ev.stopPropagation();
  if (done || !square) return;
  const p = parsePosition(position);
  if (splits) return onSplitClick(square, p, !!pieceEl);
  const l = lesson();
  // A second click on the chosen piece's target (even one the rules refuse, such as your own
  // piece) tries the move, so the learner hears why it is refused.
  if (selected !== null) {
    const legal = engine.moves(position, l.throwValue);
    const move = legalFrom(selected, legal);
    const aim = move ? (moveSquares(move)?.[1] ?? 0) : Math.min(selected + l.throwValue, OFF_SQUARE);
    if (square === aim || square === selected) return attempt(selected);
  }
  if (pieceEl && p.board[square - 1] === p.turn) {
    selected = square;
    const legal = engine.moves(position, l.throwValue);
    const move = legalFrom(square, legal) ?? `${square}-${square + l.throwValue > 30 ? "off" : square + l.throwValue}`;
    draw([asLegalMove(move)]);
    say(t(pointerKey("learn.selected"), { square }), "info");
    return;
  }
  if (pieceEl && p.board[square - 1]) say(t("learn.why.not-yours"), "wrong");
}

function hint(): void {
  const l = lesson();
  say(t(pointerKey(`${l.key}hint`)), "hint");
  if (!done) draw([asLegalMove(l.answer)]);
}

function showEnd(): void {
  rememberLesson(0);  // all done: a later visit starts from the first lesson again
  byId("lesson").hidden = true;
  byId("lesson-end").hidden = false;
  byId("lesson-end-title").focus();
}

/** Creates a game against the beginner in this ruleset (as the home page's form does) and opens it. */
async function playBeginner(): Promise<void> {
  const button = byId<HTMLButtonElement>("learn-play");
  const status = byId("learn-play-status");
  button.disabled = true;
  status.textContent = t("learn.end.creating");
  try {
    const body = { ruleset: info.ruleset, opponent: "computer", level: "beginner", side: "first", lang: root.dataset.lang ?? "en" };
    const response = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(String(response.status));
    const game = (await response.json()) as CreatedGame;
    openNewGame(game);
  } catch {
    status.textContent = t("home.start.failed");
    button.disabled = false;
  }
}

async function main(): Promise<void> {
  await loadStrings(root.dataset.strings ?? "");
  try {
    engine = await loadEngine();
  } catch {
    say(t("learn.engine-failed"), "wrong");
    byId("lesson").hidden = false;
    return;
  }
  const narrow = matchMedia("(max-width: 40rem)");
  const container = byId("lesson-board");
  board = new Board(container, info, narrow.matches);
  narrow.addEventListener("change", () => board.setDown(narrow.matches));
  container.addEventListener("click", onBoardClick, true);
  byId("lesson-hint").addEventListener("click", hint);
  byId("lesson-retry").addEventListener("click", () => show(index));
  byId("lesson-prev").addEventListener("click", () => index > 0 && show(index - 1));
  byId("lesson-next").addEventListener("click", () => (index + 1 < lessons.length ? show(index + 1) : showEnd()));
  byId("lesson-restart").addEventListener("click", () => show(0));
  byId("learn-play").addEventListener("click", () => void playBeginner());
  root.dataset.ready = "1";
  show(rememberedLesson(), false);
}

void main();
