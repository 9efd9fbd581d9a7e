// The throw as it fell: four sticks (which are marked side up) or Bell's four-sided die. The
// drawing leaves room around each stick for its tumble (site.css `tumble`): turned and lifted as
// far as the animation takes it, no stick reaches the edge of its box, which clips.
import { svg } from "./dom";

/** Draws a throw into `container`; animates unless the user prefers reduced motion (CSS decides). */
export function drawThrow(container: HTMLElement, sticks: string, value: number, die: boolean, animate: boolean): void {
  const root = svg("svg", { viewBox: die ? "0 0 120 120" : "0 0 200 120", class: `sticks-svg${animate ? " tumbling" : ""}`, "aria-hidden": "true" });
  if (die) {
    root.append(svg("path", { d: "M60 22 L106 106 H14 Z", class: "die-face" }));
    const text = svg("text", { x: 60, y: 96, "text-anchor": "middle", class: "die-value" });
    text.textContent = String(value);
    root.append(text);
  } else {
    for (let k = 0; k < 4; k++) {
      const up = sticks[k] === "1";
      const g = svg("g", { class: `stick ${up ? "up" : "down"}` });
      const x = 20 + k * 44;
      g.append(svg("rect", { x, y: 18, width: 26, height: 84, rx: 13, class: "stick-body" }));
      if (up) for (const y of [34, 52, 70]) g.append(svg("path", { d: `M${x + 6} ${y} l7 7 l7 -7`, class: "stick-mark" }));
      root.append(g);
    }
  }
  container.replaceChildren(root);
}
