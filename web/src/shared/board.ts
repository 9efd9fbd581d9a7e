// The SVG board: 3 × 10 squares in path order, the houses' signs, the two sides' pieces
// (cones and spools, told apart by shape as well as colour) and highlighted destinations.
import { afterPaint, svg } from "./dom";
import { formatList, has, t } from "./i18n";
import { type BoardInfo, type LastMove, OFF_SQUARE } from "./model";
import { kindOf, kindPath, kindWords } from "./moves";
import type { LegalMove } from "./protocol";
import { isEnter, isToHand, targetOf } from "./steps";

const SIZE = 100;
/** The bear-off tray's depth across the path, in board units. */
const TRAY = 110;

/**
 * Top-left corner of a square's cell. Across (desktop): row 1 is 1..10 left to right, row 2 is
 * 20..11, row 3 is 21..30. Down (a phone held upright) the same S turned: column 1 is 1..10 top
 * to bottom, column 2 is 20..11 (11 at the foot, beside 10), column 3 is 21..30, and the tray
 * lies below 30.
 */
export function cellOf(square: number, down = false): { x: number; y: number } {
  const lane = Math.floor((square - 1) / 10);
  const k = (square - 1) % 10;
  const along = (lane === 1 ? 9 - k : k) * SIZE;
  return down ? { x: lane * SIZE, y: along } : { x: along, y: lane * SIZE };
}

/** The label of a square for assistive technology, with its house name when it has one. */
export function squareName(info: BoardInfo, square: number): string {
  // A house whose name the catalog lacks is named by its number alone.
  const house = info.houses.find(([s, key]) => s === square && has(`house.${key}`));
  return house ? t("play.square-named", { square, name: t(`house.${house[1]}`) }) : t("play.square", { square });
}

/** Houses that share another's sign: Kendall's House of Rebirth and Piccione's ankh are the return square's ankh, the nefer is the House of Beauty's. */
const SAME_SIGN: Record<string, string> = { rebirth: "return", ankh: "return", nefer: "beauty", "three-birds": "three-truths" };

/**
 * The houses' signs as drawn on the old boards, in the 100 × 100 cell (its number in the upper
 * left): `line` paths are stroked, `fill` paths filled. The rules pages' and the home page's
 * diagram draws the same paths (server/site/src/diagram.cpp houseSignSvg): change both; e2e/house-signs.test.mjs compares them.
 */
export const SIGNS: Record<string, { line: string[]; fill: string[] }> = {
  // The water hieroglyph (N35): three rows of ripples.
  water: { line: ["M20 38 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7", "M20 54 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7",
    "M20 70 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7 l7.5 -7 l7.5 7"], fill: [] },
  // nefer (F35), "beautiful": a heart with the windpipe rising from it, two bars across.
  beauty: { line: ["M50 52 V20", "M42 30 H58", "M42 40 H58"], fill: ["M50 84 C34 76 30 66 30 60 C30 50 38 46 44 48 C47 49 49 51 50 53 C51 51 53 49 56 48 C62 46 70 50 70 60 C70 66 66 76 50 84 Z"] },
  // Three strokes, the plural of the Three Truths.
  "three-truths": { line: ["M34 30 V74", "M50 30 V74", "M66 30 V74"], fill: [] },
  // Re and Atum: the sun's disc with its dot (N5).
  "re-atoum": { line: ["M50 32 A22 22 0 1 1 49.9 32 Z"], fill: ["M50 48 A6 6 0 1 1 49.9 48 Z"] },
  // Two men: two figures standing side by side.
  "two-men": { line: ["M38 44 V74 M30 52 H46", "M62 44 V74 M54 52 H70"], fill: ["M38 28 A6 6 0 1 1 37.9 28 Z", "M62 28 A6 6 0 1 1 61.9 28 Z"] },
  // The eye of Horus (wedjat): the eye, its pupil, the falcon's marks below it.
  horus: { line: ["M24 48 Q50 28 78 48 Q50 64 24 48 Z", "M26 36 Q50 24 76 34", "M46 60 l-6 20", "M62 58 q4 14 14 14 q6 0 4 -6"], fill: ["M50 40 A8 8 0 1 1 49.9 40 Z"] },
  // The ankh (S34): its loop, the bar across and the foot.
  return: { line: [], fill: ["M50 22 C40 22 37 32 40 40 C42 44 45 47 47 49 H30 V56 H46 V86 H54 V56 H70 V49 H53 C55 47 58 44 60 40 C63 32 60 22 50 22 Z M50 29 C55 29 56 35 54 39 C53 42 51 44 50 45 C49 44 47 42 46 39 C44 35 45 29 50 29 Z"] },
  // The numerals of the marked squares: strokes, ten as the hobble (V20).
  iii: { line: ["M36 32 V72", "M50 32 V72", "M64 32 V72"], fill: [] },
  ii: { line: ["M42 32 V72", "M58 32 V72"], fill: [] },
  i: { line: ["M50 32 V72"], fill: [] },
  x: { line: ["M32 74 V50 A18 18 0 0 1 68 50 V74"], fill: [] },
};

function houseSign(key: string, x: number, y: number): SVGGElement {
  const g = svg("g", { class: `sign sign-${key}`, "aria-hidden": "true", transform: `translate(${x} ${y})` });
  const drawing = SIGNS[SAME_SIGN[key] ?? key];
  for (const d of drawing?.fill ?? []) g.append(svg("path", { d, class: "sign-fill", "fill-rule": "evenodd" }));
  for (const d of drawing?.line ?? []) g.append(svg("path", { d, class: "sign-line" }));
  return g;
}

/** The sign of a house (water, beauty, three-truths, …) drawn in the 100 × 100 cell at (x, y). */
export function drawHouseSign(key: string, x = 0, y = 0): SVGGElement {
  return houseSign(key, x, y);
}

/** Where a piece is drawn: its 100 × 100 drawing moved to (x, y) and scaled by `scale` (board units). */
export interface Place { x: number; y: number; scale: number }

/**
 * A piece: player 1's cone or player 2's spool, drawn in the 100 × 100 cell at (x, y), scaled by
 * `scale`. The cone stands on its round foot with a knob at its tip; the spool is waisted, with a
 * rim at top and foot and a band round its waist. Each has a highlight down its side (turned wood
 * or glazed faience). The two differ in shape and in lightness (ivory against dark blue).
 */
export function piece(player: number, x: number, y: number, scale = 1): SVGGElement {
  const g = svg("g", { class: `piece piece-${player}`, transform: `translate(${x} ${y})${scale !== 1 ? ` scale(${scale})` : ""}` });
  if (player === 1) {
    g.append(svg("path", { d: "M46 20 L24 76 C24 86 76 86 76 76 L54 20 C52 15 48 15 46 20 Z", class: "piece-body" }));
    g.append(svg("path", { d: "M46 26 L32 72", class: "piece-shine" }));
    g.append(svg("path", { d: "M25 76 C30 81 70 81 75 76", class: "piece-rim" }));
  } else {
    // Its top edge stays below the square's number (two digits reach x = 28, y = 20).
    g.append(svg("path", { d: "M26 30 C26 22 74 22 74 30 C74 34 60 42 58 55 C60 68 74 76 74 80 C74 88 26 88 26 80 C26 76 40 68 42 55 C40 42 26 34 26 30 Z", class: "piece-body" }));
    g.append(svg("path", { d: "M27 30 C32 35 68 35 73 30", class: "piece-rim" }));
    g.append(svg("path", { d: "M41 55 H59", class: "piece-band" }));
    g.append(svg("path", { d: "M33 33 Q44 44 45 50 M45 60 Q44 66 34 76", class: "piece-shine" }));
  }
  return g;
}

/**
 * A piece as a small picture of its own (the seats, the pieces in hand): the board's drawing of
 * player 1's cone or player 2's spool in an svg that fills its box, hidden from screen readers
 * (the text beside it names the side).
 */
export function pieceIcon(player: number): SVGSVGElement {
  const icon = svg("svg", { class: "piece-icon", viewBox: "16 12 68 80", "aria-hidden": "true", focusable: "false" });
  icon.append(piece(player, 0, 0));
  return icon;
}

/** Draws and redraws the board inside a container, across or (on a narrow screen) down. */
export class Board {
  private readonly root: SVGSVGElement;
  private readonly squaresLayer: SVGGElement;
  private readonly piecesLayer: SVGGElement;
  private readonly marksLayer: SVGGElement;
  /** Above the pieces: the kinds' icons on destinations (never in the way of a click). */
  private readonly topLayer: SVGGElement;
  private moves: LegalMove[] = [];
  private board: number[] = [];
  private off: [number, number] = [0, 0];
  private last: LastMove | null = null;
  /** The square of the piece tapped first when it has more than one move (Piccione's split throws), else null. */
  private selected: number | null = null;
  private down = false;
  /** A board title waits for the next paint (describe), for the borne-off counts `titleOff`. */
  private titleDue = false;
  private titleOff: [number, number] = [0, 0];
  /** The pieces drawn by the last render: on a square (1..30), and each side's in the tray, in order. */
  private onSquare = new Map<number, SVGGElement>();
  private inTray: [SVGGElement[], SVGGElement[]] = [[], []];
  private readonly places = new WeakMap<SVGGElement, Place>();
  /** Called when the player picks a move by clicking or tapping a piece or a destination. */
  onMove: (move: LegalMove) => void = () => {};

  constructor(container: HTMLElement, private readonly info: BoardInfo, down = false) {
    this.root = svg("svg", { class: "board", role: "img", "aria-labelledby": "board-title" });
    const title = svg("title", { id: "board-title" });
    this.root.append(title);
    this.squaresLayer = svg("g");
    this.marksLayer = svg("g", { class: "marks" });
    this.piecesLayer = svg("g");
    this.topLayer = svg("g", { class: "top-marks" });
    this.root.append(this.squaresLayer, this.marksLayer, this.piecesLayer, this.topLayer);
    this.setDown(down);
    container.append(this.root);
  }

  /** Lays the board across (three rows of ten) or down (three columns of ten, the tray below). */
  setDown(down: boolean): void {
    if (down === this.down && this.squaresLayer.childElementCount) return;
    this.down = down;
    const long = SIZE * 10 + TRAY + 10;
    this.root.setAttribute("viewBox", down ? `0 0 ${SIZE * 3} ${long}` : `0 0 ${long} ${SIZE * 3}`);
    this.root.classList.toggle("down", down);
    this.squaresLayer.replaceChildren();
    for (let s = 1; s <= 30; s++) {
      const { x, y } = cellOf(s, down);
      const cell = svg("g", { class: "square", "data-square": s });
      const classes = ["cell"];
      if (this.info.safe.includes(s)) classes.push("safe");
      if (s === this.info.water) classes.push("water");
      cell.append(svg("rect", { x: x + 2, y: y + 2, width: SIZE - 4, height: SIZE - 4, rx: 6, class: classes.join(" ") }));
      // Down, the board is drawn smaller: a larger number in the corner, the piece beside it.
      const num = svg("text", down ? { x: x + 7, y: y + 27, class: "square-number" } : { x: x + 8, y: y + 20, class: "square-number" });
      num.textContent = String(s);
      cell.append(num);
      const house = this.info.houses.find(([sq]) => sq === s);
      if (house) {
        const sign = houseSign(house[1], x, y);
        if (down) sign.setAttribute("transform", `translate(${x + 18} ${y + 16}) scale(0.8)`);
        cell.append(sign);
        // The house's name: a tooltip for the pointer, the square's name in the document.
        const name = svg("title");
        name.textContent = squareName(this.info, s);
        cell.prepend(name);
      }
      const exit = exitThrow(this.info, s);
      if (exit) {
        // Kendall's final houses leave only by their own throw (RULES.md Kendall 8): it stands on the square.
        const text = svg("text", { x: x + SIZE - 10, y: y + SIZE - 10, "text-anchor": "end", class: "exit-throw", "aria-hidden": "true" });
        text.textContent = `${exit}→`;
        cell.append(text);
      }
      if (stopsAt(this.info, s)) cell.append(svg("path", { d: this.stopLine(s), class: "beauty-stop", "aria-hidden": "true" }));
      const said = squareNote(this.info, s);
      if (said) {
        const title = cell.querySelector("title") ?? svg("title");
        title.textContent = said;
        cell.prepend(title);
      }
      cell.addEventListener("click", () => this.pick(s));
      this.squaresLayer.append(cell);
    }
    // The bear-off tray after square 30: to its right across, below it down.
    const off = svg("g", { class: "square off-tray", "data-square": OFF_SQUARE });
    const tray = this.trayBox(2);
    off.append(svg("rect", { ...tray, rx: 8, class: "cell tray" }));
    const label = svg("text", down
      ? { x: SIZE * 3 - 22, y: SIZE * 10 + 72, class: "square-number", "text-anchor": "middle" }
      : { x: SIZE * 10 + 63, y: SIZE * 3 - 14, class: "square-number", "text-anchor": "middle" });
    label.textContent = down ? "↓" : "⟶";
    off.append(label);
    off.addEventListener("click", () => this.pick(OFF_SQUARE));
    this.squaresLayer.append(off);
    this.render(this.board, this.off, this.moves, this.last);
  }

  /** The tray's rectangle, `inset` units inside its cell. */
  private trayBox(inset: number): { x: number; y: number; width: number; height: number } {
    const [along, across] = [SIZE * 10 + 10 + inset - 2, inset];
    const [length, depth] = [TRAY - 4 - 2 * (inset - 2), SIZE * 3 - 2 * inset];
    return this.down ? { x: across, y: along, width: depth, height: length } : { x: along, y: across, width: length, height: depth };
  }

  /** Shows a position: board[i] is the owner (0, 1, 2) of square i + 1; `off` per player. */
  render(board: number[], off: [number, number], moves: LegalMove[], last: LastMove | null): void {
    if (moves !== this.moves || !moves.some((m) => m.from === this.selected)) this.selected = null;
    this.board = board;
    this.off = off;
    this.moves = moves;
    this.last = last;
    this.draw();
  }

  /** Draws the pieces and the marks of the position held (after a render, or a piece picked or let go). */
  private draw(): void {
    const { board, off, moves, last } = this;
    this.piecesLayer.replaceChildren();
    this.marksLayer.replaceChildren();
    this.topLayer.replaceChildren();
    if (last) for (const sq of [last.from, last.to]) this.mark(sq, "last-move");
    // A piece picked first shows only its own destinations (Piccione: one per amount of the throw).
    for (const m of moves) if (this.selected === null || m.from === this.selected) this.markMove(m);
    if (this.selected !== null) this.mark(this.selected, "selected-from");
    this.onSquare = new Map();
    this.inTray = [[], []];
    board.forEach((owner, i) => {
      if (!owner) return;
      const at = this.placeOf(i + 1);
      const p = piece(owner, at.x, at.y, at.scale);
      p.setAttribute("data-at", String(i + 1));
      this.places.set(p, at);
      this.onSquare.set(i + 1, p);
      if (moves.some((m) => m.from === i + 1)) p.classList.add("movable");
      if (this.selected === i + 1) p.classList.add("selected");
      p.addEventListener("click", (ev) => { ev.stopPropagation(); this.pick(i + 1); });
      this.piecesLayer.append(p);
    });
    // Borne-off pieces in the tray. Across: player 1 in the upper half, player 2 in the lower,
    // two to a row. Down: one row each, player 1 above player 2, the arrow left free at the end.
    off.forEach((count, k) => {
      for (let n = 0; n < count; n++) {
        const at = this.down ? [2 + n * 25, SIZE * 10 + 8 + k * 50] : [SIZE * 10 + 14 + (n % 2) * 50, 6 + k * 148 + Math.floor(n / 2) * 28];
        const place = { x: at[0] ?? 0, y: at[1] ?? 0, scale: 0.5 };
        const p = piece(k + 1, place.x, place.y, place.scale);
        this.places.set(p, place);
        this.inTray[k]?.push(p);
        this.piecesLayer.append(p);
      }
    });
    this.describe(off);
  }

  /** Where a piece standing on `square` (1..30) is drawn in the current layout (OFF_SQUARE: the tray's middle). */
  placeOf(square: number): Place {
    if (square >= OFF_SQUARE) {
      const box = this.trayBox(2);
      return { x: box.x + box.width / 2 - 25, y: box.y + box.height / 2 - 25, scale: 0.5 };
    }
    const { x, y } = cellOf(square, this.down);
    return this.down ? { x: x + 18, y: y + 16, scale: 0.8 } : { x, y, scale: 1 };
  }

  /** The piece the last render drew on `square` (1..30), or for OFF_SQUARE `player`'s newest piece in the tray; null if none. */
  pieceAt(square: number, player = 0): SVGGElement | null {
    if (square >= OFF_SQUARE) {
      const tray = this.inTray[player - 1] ?? [];
      return tray[tray.length - 1] ?? null;
    }
    return this.onSquare.get(square) ?? null;
  }

  /**
   * Moves a drawn piece through `places` (board units; `offset` 0..1 is when it is at each, evenly
   * spread when absent) in `ms` milliseconds, ending where the render drew it, with the class `moving` meanwhile. Returns the animation, or null when the
   * piece is not on the board or the browser lacks the Web Animations API. A later render
   * replaces the piece, which ends its animation.
   */
  animatePiece(p: SVGGElement, places: (Place & { offset?: number })[], ms: number): Animation | null {
    const end = this.places.get(p);
    if (!end || typeof p.animate !== "function" || !places.length) return null;
    const css = (q: Place) => `translate(${q.x}px, ${q.y}px) scale(${q.scale})`;
    const frames: Keyframe[] = places.map((q) => (q.offset === undefined ? { transform: css(q) } : { transform: css(q), offset: q.offset }));
    frames.push({ transform: css(end), offset: 1 });
    p.classList.add("moving");
    // fill backwards: in the frame where the animation starts its time may be a hair below 0,
    // and without it the piece would flash at its end place.
    const animation = p.animate(frames, { duration: ms, easing: "ease-in-out", fill: "backwards" });
    animation.addEventListener("finish", () => p.classList.remove("moving"));
    return animation;
  }

  /** Emphasises the piece and destination of one move (while its button has focus or hover). */
  preview(move: LegalMove | null): void {
    this.root.querySelectorAll(".preview").forEach((n) => n.classList.remove("preview"));
    if (!move) return;
    this.root.querySelector(`.square[data-square="${targetOf(move)}"]`)?.classList.add("preview");
    this.root.querySelector(`.square[data-square="${move.from}"]`)?.classList.add("preview");
    if (move.water) this.root.querySelector(`.square[data-square="${move.dest}"]`)?.classList.add("preview");
  }

  /**
   * A legal move's destination: the dashed frame, and for a move that does more than move its
   * kind's icon in the corner with the words as a tooltip. A House of Water landing also marks
   * the square the piece ends on, and writes "→ N" on the House of Water.
   */
  private markMove(m: LegalMove): void {
    const target = targetOf(m);
    const kind = kindOf(m);
    const mark = this.mark(target, kind ? `destination kind-${kind}` : "destination");
    if (!mark) return;
    const title = svg("title");
    title.textContent = kind ? t("play.mark.destination-kind", { what: kindWords(m) }) : t("play.mark.destination");
    mark.append(title);
    if (!kind || this.topLayer.querySelector(`.kind-mark[data-square="${target}"]`)) return;
    const box = target >= OFF_SQUARE ? this.trayBox(6) : { ...cellOf(target, this.down), width: SIZE, height: SIZE };
    const icon = svg("g", { class: `kind-mark kind-${kind}`, "data-square": target, transform: `translate(${box.x + box.width - 36} ${box.y + 4})` });
    icon.append(svg("circle", { cx: 16, cy: 16, r: 16, class: "kind-disc" }), svg("path", { d: kindPath(kind), transform: "translate(4 4)", class: "kind-stroke" }));
    this.topLayer.append(icon);
    if (kind === "toHand") {
      const hand = svg("text", { x: box.x + box.width - 8, y: box.y + box.height - 8, "text-anchor": "end", class: "kind-text" });
      hand.textContent = "✋";
      this.topLayer.append(hand);
    }
    if (kind !== "water") return;
    const to = svg("text", { x: box.x + box.width - 8, y: box.y + box.height - 8, "text-anchor": "end", class: "kind-text" });
    to.textContent = `→${m.dest}`;
    this.topLayer.append(to);
    const landing = this.mark(m.dest, "water-landing");
    if (landing) {
      const words = svg("title");
      words.textContent = t("play.mark.water-landing", { square: m.to });
      landing.append(words);
    }
  }

  /** Draws a marking rectangle of class `cls` on a square (or the tray); returns its group. */
  private mark(square: number, cls: string): SVGGElement | null {
    if (square < 1) return null;
    const g = svg("g", { class: cls, "data-square": Math.min(square, OFF_SQUARE) });
    if (square >= OFF_SQUARE) g.append(svg("rect", { ...this.trayBox(6), rx: 6 }));
    else {
      const { x, y } = cellOf(square, this.down);
      g.append(svg("rect", { x: x + 6, y: y + 6, width: SIZE - 12, height: SIZE - 12, rx: 5 }));
    }
    this.marksLayer.append(g);
    return g;
  }

  /**
   * A tap on a square or a piece. A piece with one move makes it; a piece with several (a split
   * throw) is picked, and the next tap on one of its destinations makes that move (a tap on it
   * again lets it go). An empty square 1 enters a piece from the hand when `in-1` is legal. A
   * destination only one move reaches makes that move.
   */
  private pick(square: number): void {
    const sel = this.selected;
    if (sel !== null) {
      const chosen = this.moves.find((m) => m.from === sel && targetOf(m) === square);
      if (chosen) { this.selected = null; this.onMove(chosen); return; }
      if (square === sel) { this.selected = null; this.draw(); return; }
    }
    const own = this.moves.filter((m) => m.from === square && !isEnter(m));
    if (own.length > 1) { this.selected = square; this.draw(); return; }
    if (own.length === 1 && own[0]) { this.selected = null; this.onMove(own[0]); return; }
    const reaching = this.moves.filter((m) => targetOf(m) === square);
    const enter = reaching.find(isEnter);
    const move = enter ?? (reaching.length === 1 ? reaching[0] : undefined);
    if (move) { this.selected = null; this.onMove(move); }
  }

  /** Enters a piece from the hand (Piccione's `in-1`) when it is legal; false when it is not. */
  enterFromHand(): boolean {
    const enter = this.moves.find(isEnter);
    if (enter) this.onMove(enter);
    return !!enter;
  }

  /** The bar across the far edge of `square` (Kendall's House of Beauty: no piece passes it on the way). */
  private stopLine(square: number): string {
    const { x, y } = cellOf(square, this.down);
    return this.down ? `M${x + 8} ${y + SIZE - 4} H${x + SIZE - 8}` : `M${x + SIZE - 4} ${y + 8} V${y + SIZE - 8}`;
  }

  /**
   * Sets the board's text for screen readers to the position held, once the browser has painted
   * (its plural and list formatting are the slowest part of a first render on a phone, and
   * nothing on the screen waits for it); several renders before then set it once.
   */
  private describe(off: [number, number]): void {
    this.titleOff = off;
    // No position yet (the board just built, before the game's first state): nothing to say.
    if (!this.board.length) return;
    if (this.titleDue) return;
    this.titleDue = true;
    const set = () => {
      this.titleDue = false;
      const title = this.root.querySelector("title");
      if (title) title.textContent = boardTitle(this.board, this.titleOff);
    };
    afterPaint(set);
  }

}

/** Kendall: the throw that bears a piece off its final house (3 from 28, 2 from 29, 1 from 30; RULES.md Kendall 8), else 0. */
export function exitThrow(info: BoardInfo, square: number): number {
  return info.ruleset === "kendall" && square >= 28 && square <= 30 ? 31 - square : 0;
}

/** Kendall: true on the House of Beauty, 26, which no piece from 1–25 passes (RULES.md Kendall 5). */
export function stopsAt(info: BoardInfo, square: number): boolean {
  return info.ruleset === "kendall" && square === 26;
}

/** A square's name with what its rule asks (Kendall's exit throws and stop), "" when there is nothing to add to squareName. */
export function squareNote(info: BoardInfo, square: number): string {
  const exit = exitThrow(info, square);
  if (exit) return t("play.square-exit", { name: squareName(info, square), value: exit });
  if (stopsAt(info, square)) return t("play.square-stop", { name: squareName(info, square) });
  return "";
}

/**
 * The board's text for screen readers: per side its squares and its borne-off count, e.g.
 * "Cones: 1, 3, 5; 2 off. Spools: 2, 4; 3 off". `board` holds 30 squares (0 empty, 1 or 2 the
 * player), `off` the pieces each player has borne off. A side with no piece left on the board
 * is only its count ("Cones: 5 off"), never an empty list.
 */
export function boardTitle(board: readonly number[], off: readonly [number, number]): string {
  const parts: string[] = [];
  for (const player of [1, 2]) {
    const squares = board.flatMap((o, i) => (o === player ? [i + 1] : []));
    const borne = t("play.off", { count: off[player - 1] ?? 0 });
    const onBoard = squares.length > 0 ? `${formatList(squares)}; ` : "";
    parts.push(t("label.value", { label: t(`play.side.${player}`), value: `${onBoard}${borne}` }));
  }
  return parts.join(". ");
}
