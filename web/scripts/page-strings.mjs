// Which catalog strings the browser gets, and which of them a page's HTML carries inline.
// The web build (scripts/build.mjs) writes i18n/LANG.json from CLIENT_PREFIXES and, for each
// page of PAGE_STRINGS, i18n/PAGE-LANG.json with only that page's strings; the server puts the
// latter into the page as a JSON data block (server/site/src/pages.cpp), so the page's script
// has its words without a request of its own (test/page-strings.test.mjs checks that the
// play page's bundle asks for no key outside its list).

/** Catalog keys (prefixes) the browser needs; the rest is only used by the server-rendered pages. */
export const CLIENT_PREFIXES = ["play.", "ev.", "house.", "level.", "error.game-full.", "home.start.failed", "label.value", "replay.", "learn.", "lobby."];

/** Per page, the keys (prefixes) its HTML carries inline: the play page's script, the home page's "Your games". */
export const PAGE_STRINGS = {
  play: ["play.", "ev.", "house.", "level.", "label.value", "replay.bar", "replay.end-link", "replay.end-sum", "replay.end-retry", "lobby.bot-name"],
  home: ["replay.home.", "label.value", "lobby."],
};

/** The entries of `all` (key → message) whose key starts with one of `prefixes`. */
export function pick(all, prefixes) {
  return Object.fromEntries(Object.entries(all).filter(([k]) => prefixes.some((p) => k.startsWith(p))));
}
