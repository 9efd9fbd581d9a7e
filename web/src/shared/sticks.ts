// The throw as it fell: four sticks (which are marked side up) or Bell's four-sided die.
import { svg } from "./dom";

/** Draws a throw into `container`; animates unless the user prefers reduced motion (CSS decides). */
export function drawThrow(container: HTMLElement, sticks: string, value: number, die: boolean, animate: boolean): void {
  const root = svg("svg", { viewBox: die ? "0 0 120 120" : "0 0 200 120", class: `sticks-svg${animate ? " tumbling" : ""}`, "aria-hidden": "true" });
  if (die) {
    root.append(svg("path", { d: "M60 8 L110 100 H10 Z", class: "die-face" }));
    const text = svg("text", { x: 60, y: 88, "text-anchor": "middle", class: "die-value" });
    text.textContent = String(value);
    root.append(text);
  } else {
    for (let k = 0; k < 4; k++) {
      const up = sticks[k] === "1";
      const g = svg("g", { class: `stick ${up ? "up" : "down"}` });
      const x = 14 + k * 46;
      g.append(svg("rect", { x, y: 8, width: 30, height: 104, rx: 15, class: "stick-body" }));
      if (up) for (const y of [30, 52, 74]) g.append(svg("path", { d: `M${x + 7} ${y} l8 8 l8 -8`, class: "stick-mark" }));
      root.append(g);
    }
  }
  container.replaceChildren(root);
}
