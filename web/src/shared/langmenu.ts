// The header's language menu (a <details class="lang-menu"> in templates/header.html): it closes
// on Escape (the focus goes back to its summary) and on a pointer press outside it. On the play
// page its links also carry the page's fragment (the seat, the seed and the commitment, see
// fragment.ts), so a browser that blocks storage keeps its seat in the other language.
import { onFragmentChange } from "./fragment";

/** The header's language menu, or null on a page without one. */
const menu = (): HTMLDetailsElement | null => document.querySelector<HTMLDetailsElement>(".lang-switch details.lang-menu");

/**
 * Makes the language menu close on Escape and on a press outside it. Safe to call more than
 * once (only the first call wires it) and on a page without the menu (then it does nothing).
 */
export function setupLangMenu(): void {
  const details = menu();
  if (!details || details.dataset.wired) return;
  details.dataset.wired = "1";
  const summary = details.querySelector("summary");
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !details.open) return;
    const active = document.activeElement;
    details.open = false;
    // The focus goes back to the summary when it was in the menu (or nowhere), never away from elsewhere.
    if (!active || active === document.body || details.contains(active)) summary?.focus();
  });
  document.addEventListener("pointerdown", (e) => {
    if (details.open && !(e.target instanceof Node && details.contains(e.target))) details.open = false;
  }, { capture: true });
}

/** Sets every language link's fragment to this page's current fragment (none when it has none). */
function carryFragment(): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>(".lang-switch a[hreflang]")) {
    const base = (a.getAttribute("href") ?? "").split("#")[0];
    a.setAttribute("href", base + window.location.hash);
  }
}

/**
 * Keeps the language links pointing at this page with its current fragment: now, on every
 * hashchange and whenever fragment.ts rewrites the fragment (e.g. an invite exchanged for a seat).
 * For the play page, whose fragment holds the seat.
 */
export function keepFragmentInLangLinks(): void {
  carryFragment();
  window.addEventListener("hashchange", carryFragment);
  onFragmentChange(carryFragment);
  carryFragmentOnClick();
}

/**
 * Gives a language link the page's fragment at the moment it is followed (a click, a tap, or
 * Enter on it), whether or not the link was in the page yet when this ran: the play page's first
 * module (boot/boot.ts) calls it before the header may be parsed, so a seat its join took goes
 * along to the other language even before the page's script runs. Safe to call more than once.
 */
export function carryFragmentOnClick(): void {
  if (document.documentElement.dataset.carryFragment) return;
  document.documentElement.dataset.carryFragment = "1";
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest(".lang-switch a[hreflang]")) carryFragment();
  }, { capture: true });
}

setupLangMenu();
