// The invite link as a QR code (loaded on demand: the play page's first load stays small).
// Drawn as SVG shapes with classes, no inline style, so the CSP's style-src 'self' holds.
import qrcode from "qrcode-generator";

/** An SVG element with attributes (not shared/dom.ts's: sharing code with the page's bundle would make
 * the bundler split that code into one more file the first load must fetch). */
function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The quiet zone around the code, in modules. */
const MARGIN = 4;

/**
 * Draws `text` as a QR code (error correction M, the smallest version that holds it) into
 * `container`, replacing what was there; `label` names it for assistive technology. The SVG
 * carries data-text (the encoded text) and data-modules (modules per side).
 */
export function drawQr(container: HTMLElement, text: string, label: string): SVGElement {
  const code = qrcode(0, "M");
  code.addData(text, "Byte");
  code.make();
  const n = code.getModuleCount();
  const side = n + 2 * MARGIN;
  const root = svg("svg", { viewBox: `0 0 ${side} ${side}`, class: "qr-code", role: "img", "aria-label": label,
    "data-text": text, "data-modules": n, "shape-rendering": "crispEdges" });
  root.append(svg("rect", { x: 0, y: 0, width: side, height: side, class: "qr-light" }));
  let d = "";
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) if (code.isDark(r, c)) d += `M${c + MARGIN} ${r + MARGIN}h1v1h-1z`;
  root.append(svg("path", { d, class: "qr-dark" }));
  container.replaceChildren(root);
  return root;
}
