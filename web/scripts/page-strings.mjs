// Which catalog strings the browser gets, and which of them a page's HTML carries inline.
// The web build (scripts/build.mjs) writes i18n/LANG.json from CLIENT_PREFIXES and, for each
// page of PAGE_STRINGS, i18n/PAGE-LANG.json with only that page's strings; the server puts the
// latter into the page as a JSON data block (server/site/src/pages.cpp), so the page's script
// has its words without a request of its own (test/page-strings.test.mjs checks that the
// play page's bundle asks for no key outside its list). Each such file also carries, under
// PARSED_KEY, the messages that need intl-messageformat (plural, select, number styles) already
// parsed into its syntax tree, so the page formats them without running the parser while it
// loads (src/shared/i18n.ts).
import { IntlMessageFormat } from "intl-messageformat";

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

/** The member of a page's strings file that holds its parsed messages (no catalog key starts with "@"). */
export const PARSED_KEY = "@parsed";

/**
 * The member of a page's strings file that holds the language's plural categories of the whole
 * numbers 0 to PLURAL_TABLE_SIZE - 1, one letter each (PLURAL_LETTERS), as Intl.PluralRules
 * gives them: the page formats a plural of such a number without Intl, whose first use costs a
 * slow phone about 200 ms (src/shared/i18n.ts quickFormat).
 */
export const PLURAL_KEY = "@plural";
export const PLURAL_TABLE_SIZE = 1000;
/** A plural category's letter in the PLURAL_KEY table. */
export const PLURAL_LETTERS = { zero: "z", one: "o", two: "t", few: "f", many: "m", other: "x" };

/** The PLURAL_KEY table of `lang` (cardinal categories of 0 … PLURAL_TABLE_SIZE - 1). */
export function pluralTable(lang) {
  const rules = new Intl.PluralRules(lang);
  let table = "";
  for (let n = 0; n < PLURAL_TABLE_SIZE; n++) table += PLURAL_LETTERS[rules.select(n)];
  return table;
}

/**
 * Whether `text` needs intl-messageformat: anything beyond plain text and simple `{name}`
 * arguments (the same test as isPlain and simpleParts of src/shared/i18n.ts).
 */
export function needsFormatter(text) {
  if (!/[{}']/.test(text)) return false;
  if (text.includes("'")) return true;
  return text.split(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/).some((part, i) => i % 2 === 0 && /[{}]/.test(part));
}

/**
 * A page's strings file: `strings` (key → message) and, under PARSED_KEY, each message that
 * needs the formatter as the syntax tree intl-messageformat parses it to (ignoreTag, as the
 * page formats; `lang`, its BCP 47 tag), and under PLURAL_KEY the language's plural table.
 * Throws for a message that does not parse.
 */
export function pageStringsFile(strings, lang) {
  const parsed = {};
  for (const [key, text] of Object.entries(strings))
    if (needsFormatter(text)) parsed[key] = new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).getAst();
  return { ...strings, [PARSED_KEY]: parsed, [PLURAL_KEY]: pluralTable(lang) };
}
