// The win-probability graph of a replay: an SVG line of the chance that the cones (player 1)
// win at each position, a point per position (a ring where the value is exact, from the
// endgame tables), the marked moves (inaccuracy, mistake, blunder: a triangle the larger the
// worse), the position on the board shown by a vertical line. An image for assistive technology (role img
// with a title and a description that sums it up); the figures are also in a table beside it.
import { el, svg } from "../shared/dom";
import { percent, t } from "../shared/i18n";
import type { Mark } from "../shared/analysis";
import type { CurveSource } from "./data";
import { OFF_SQUARE } from "../shared/model";
import { moveText } from "../shared/moves";

// The drawing's height and margins in CSS pixels: the view box is as wide as the graph's box,
// so one unit is one CSS pixel and the labels keep their 12 px on a phone as on a desktop.
const H = 220, LEFT = 46, RIGHT = 10, TOP = 12, BOTTOM = 14, NARROWEST = 240, FALLBACK_WIDTH = 640;

/** A move in record notation ("7-9", "27-off", "pass") worded as the move list words it ("7 → 9"). */
export function bestMoveText(best: string): string {
  const m = /^(\d{1,2})-(\d{1,2}|off)$/.exec(best);
  if (!m) return best;
  return moveText(Number(m[1]), m[2] === "off" ? OFF_SQUARE : Number(m[2]));
}

/** Points of win probability lost (0.12 → 12). */
export const points = (loss: number) => Math.round(loss * 100);

/** The graph and its table; `pick(n)` is called when the reader clicks the graph near position n. */
export class WinGraph {
  private readonly root: SVGSVGElement;
  private readonly cursor: SVGLineElement;
  private count = 0;
  private width = FALLBACK_WIDTH;
  private current = 0;
  private last: Parameters<WinGraph["draw"]> | null = null;

  constructor(private readonly box: HTMLElement, private readonly tableBox: HTMLElement, private readonly pick: (n: number) => void) {
    this.root = svg("svg", { class: "win-graph", viewBox: `0 0 ${FALLBACK_WIDTH} ${H}`, role: "img", "aria-labelledby": "graph-svg-title", "aria-describedby": "graph-svg-desc" });
    this.cursor = svg("line", { class: "graph-cursor", y1: TOP, y2: H - BOTTOM });
    this.root.addEventListener("click", (ev) => {
      const r = this.root.getBoundingClientRect();
      if (!r.width || this.count < 2) return;
      const x = ((ev.clientX - r.left) / r.width) * this.width;
      this.pick(Math.max(0, Math.min(this.count - 1, Math.round((x - LEFT) / this.step()))));
    });
    box.append(this.root);
    // A new width (the page shown, a phone turned, a window resized) draws the graph again at its size.
    new ResizeObserver(() => { if (this.last && this.measure() !== this.width) this.draw(...this.last); }).observe(box);
  }

  /** The width the graph has on the page, in CSS pixels (the fallback before layout). */
  private measure(): number {
    const w = Math.round(this.box.clientWidth);
    return w > 0 ? Math.max(NARROWEST, w) : FALLBACK_WIDTH;
  }

  private step(): number {
    return (this.width - LEFT - RIGHT) / Math.max(1, this.count - 1);
  }

  private x(n: number): number {
    return LEFT + n * this.step();
  }

  private static y(p: number): number {
    return TOP + (1 - p) * (H - TOP - BOTTOM);
  }

  /**
   * Draws `curve` (one chance per position) with `marks` (by ply number: the position after
   * the ply carries the mark) and `exact` (per position); `moves[i]` words ply i + 1 for the table.
   */
  draw(curve: number[], marks: Map<number, Mark>, exact: boolean[], moves: string[], source: CurveSource): void {
    this.last = [curve, marks, exact, moves, source];
    this.count = curve.length;
    this.width = this.measure();
    this.root.setAttribute("viewBox", `0 0 ${this.width} ${H}`);
    const title = svg("title", { id: "graph-svg-title" });
    title.textContent = t("replay.graph-svg-title");
    const desc = svg("desc", { id: "graph-svg-desc" });
    const lowest = curve.reduce((a, b) => Math.min(a, b), 1), highest = curve.reduce((a, b) => Math.max(a, b), 0);
    desc.textContent = t("replay.graph-summary", {
      positions: curve.length, first: percent(curve[0] ?? 0.5), last: percent(curve[curve.length - 1] ?? 0.5),
      low: percent(lowest), high: percent(highest), marks: marks.size, exact: exact.filter(Boolean).length,
    });
    const grid = svg("g", { class: "graph-grid" });
    for (const p of [0, 0.5, 1]) {
      const y = WinGraph.y(p);
      grid.append(svg("line", { x1: LEFT, x2: this.width - RIGHT, y1: y, y2: y, class: p === 0.5 ? "graph-mid" : "graph-edge" }));
      const label = svg("text", { x: LEFT - 6, y: y + 5, "text-anchor": "end", class: "graph-label" });
      label.textContent = percent(p);
      grid.append(label);
    }
    const d = curve.map((p, n) => `${n ? "L" : "M"}${this.x(n).toFixed(1)} ${WinGraph.y(p).toFixed(1)}`).join(" ");
    const area = svg("path", { class: "graph-area", d: `${d} L${this.x(curve.length - 1).toFixed(1)} ${WinGraph.y(0)} L${LEFT} ${WinGraph.y(0)} Z` });
    const line = svg("path", { class: "graph-line", d });
    const dots = svg("g", { class: "graph-points" });
    const small = curve.length > 120;
    curve.forEach((p, n) => {
      // An exact value: a ring, larger than an estimate's dot.
      const ring = exact[n] === true;
      dots.append(svg("circle", { class: ring ? "graph-point exact" : "graph-point", cx: this.x(n).toFixed(1), cy: WinGraph.y(p).toFixed(1),
        r: ring ? (small ? 2.6 : 3.4) : small ? 1.6 : 2.6, "data-n": n, "data-p": p, ...(ring ? { "data-exact": "true" } : {}) }));
    });
    const flags = svg("g", { class: "graph-marks" });
    for (const m of marks.values()) {
      const p = curve[m.ply];
      if (p === undefined) continue;
      const [x, y] = [this.x(m.ply), WinGraph.y(p)];
      const half = { inaccuracy: 4, mistake: 5.5, blunder: 7 }[m.kind];
      flags.append(svg("path", { class: `graph-mark mark-${m.kind}`, "data-n": m.ply, "data-mark": m.kind,
        d: `M${x.toFixed(1)} ${(y - 3 - half).toFixed(1)} l${half} ${(half * 1.7).toFixed(1)} h${-2 * half} Z` }));
    }
    this.root.replaceChildren(title, desc, grid, area, line, this.cursor, dots, flags);
    this.setCurrent(this.current);
    this.table(curve, marks, exact, moves, source);
  }

  /** Moves the vertical line to position `n`. */
  setCurrent(n: number): void {
    this.current = n;
    const x = this.x(n).toFixed(1);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
  }

  private table(curve: number[], marks: Map<number, Mark>, exact: boolean[], moves: string[], source: CurveSource): void {
    const table = el("table", { class: "graph-figures" });
    const caption = el("caption", {}, t(source === "server" ? "replay.source.server" : "replay.source.browser"));
    const head = el("tr");
    for (const key of ["replay.col.position", "replay.col.move", "replay.col.chance", "replay.col.better"]) head.append(el("th", { scope: "col" }, t(key)));
    const body = el("tbody");
    curve.forEach((p, n) => {
      const row = el("tr");
      const m = marks.get(n);
      row.append(el("th", { scope: "row" }, String(n)), el("td", {}, n ? moves[n - 1] ?? "" : t("replay.start")),
        el("td", {}, exact[n] ? `${percent(p)} · ${t("replay.exact")}` : percent(p)),
        el("td", {}, m ? t("replay.better", { best: bestMoveText(m.best), points: points(m.loss) }) : ""));
      body.append(row);
    });
    table.append(caption, el("thead"), body);
    table.querySelector("thead")?.append(head);
    this.tableBox.replaceChildren(table);
  }
}
