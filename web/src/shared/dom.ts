// Small DOM helpers shared by the page scripts.

/** The element with this id; throws when the page lacks it (a template and script mismatch). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

/** Creates an element with attributes and text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Creates an SVG element with attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * Runs `work` once the browser has painted what is on the page now (the next animation frame,
 * then a task after it); without animation frames (a hidden tab's may wait, a test's page has
 * none), after a task.
 */
export function afterPaint(work: () => void): void {
  if (typeof requestAnimationFrame === "function" && document.visibilityState !== "hidden") requestAnimationFrame(() => setTimeout(work, 0));
  else setTimeout(work, 0);
}
