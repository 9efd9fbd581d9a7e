// Pieces that travel: after the board is drawn in its new position, the pieces that moved slide
// there from where they stood, square by square along the S-shaped path (a House of Water move
// goes to the water, then on to where the piece ends; a swapped piece goes back to its square).
// Nothing moves when the user prefers reduced motion.
import type { Board, Place } from "../shared/board";
import { OFF_SQUARE } from "../shared/model";
import type { GameEvent } from "../shared/protocol";

/** Milliseconds for one leg of a move (from its square to where the throw lands). */
export const LEG_MS = 250;

/** True when the user asked for reduced motion (then no piece slides and nothing waits). */
export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** One slide: `player`'s piece going over these squares in order (the first is where it starts, the last where it ends). */
interface Slide { player: number; legs: number[][] }

/** The squares from `a` to `b` one by one along the path, both ends included (OFF_SQUARE is the tray). */
export function pathBetween(a: number, b: number): number[] {
  const squares: number[] = [];
  const step = b >= a ? 1 : -1;
  for (let s = a; ; s += step) {
    squares.push(s);
    if (s === b) break;
  }
  return squares;
}

/** The slides the events describe: moves (with their House of Water leg), swaps and Jéquier's opening move. */
export function slidesOf(events: GameEvent[]): Slide[] {
  const slides: Slide[] = [];
  for (const ev of events) {
    if (ev.e === "moved") {
      const to = ev.bearOff ? OFF_SQUARE : ev.to;
      // Piccione's entry comes from the hand, not from a square: the piece appears on 1.
      const legs = [ev.from < 1 ? [to] : pathBetween(ev.from, to)];
      if (ev.water && ev.dest !== to) legs.push(pathBetween(to, ev.dest));
      slides.push({ player: ev.player, legs });
    } else if (ev.e === "swapped") {
      slides.push({ player: ev.player, legs: [pathBetween(ev.square, ev.to)] });
    } else if (ev.e === "opening-decided") {
      slides.push({ player: 2, legs: [[10, 11]] });
    }
  }
  return slides;
}

/** How long the slides of these events take, in ms: 0 with reduced motion or when nothing moves. */
export function motionTime(events: GameEvent[]): number {
  if (reducedMotion()) return 0;
  return Math.max(0, ...slidesOf(events).map((s) => s.legs.length * LEG_MS));
}

/**
 * Slides the pieces these events moved on `board`, which already shows the position after them.
 * The pieces of one message move together (a swap: the two trade places). Returns the time it
 * takes in ms (0 when nothing moves or the user prefers reduced motion).
 */
export function playMotion(board: Board, events: GameEvent[]): number {
  if (reducedMotion()) return 0;
  let longest = 0;
  for (const slide of slidesOf(events)) {
    const squares = slide.legs.flat();
    const end = squares[squares.length - 1] ?? 0;
    const piece = board.pieceAt(end, slide.player);
    if (!piece) continue;
    // Each leg takes the same share of the time, its squares evenly spread over it; the last
    // square is where the render drew the piece (for a bear-off, its place in the tray).
    const places: (Place & { offset: number })[] = [];
    const count = slide.legs.length;
    slide.legs.forEach((leg, k) => {
      const span = Math.max(1, leg.length - 1);
      leg.forEach((square, i) => {
        if (k > 0 && i === 0) return;  // the junction square ends the previous leg
        if (k === count - 1 && i === leg.length - 1) return;
        places.push({ ...board.placeOf(square), offset: (k + i / span) / count });
      });
    });
    const ms = slide.legs.length * LEG_MS;
    if (board.animatePiece(piece, places, ms)) longest = Math.max(longest, ms);
  }
  return longest;
}
