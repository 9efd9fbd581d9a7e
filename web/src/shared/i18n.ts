// The client's strings: the same gettext catalogs as the pages, converted to JSON by the web
// build (scripts/build.mjs) and loaded from the URL the page gives in data-strings. Every string
// is an ICU MessageFormat pattern ({name}, plural, select), formatted with intl-messageformat,
// the same syntax the server formats with ICU (server/site/src/message.cpp).
import { IntlMessageFormat } from "intl-messageformat";

/** A message's syntax tree as intl-messageformat parses it (what a page's strings carry under "@parsed"). */
type ParsedMessage = ConstructorParameters<typeof IntlMessageFormat>[0];

export type Params = Record<string, string | number>;

let strings: Record<string, string> = {};
let locale = "en";
/** The member of a page's strings block that holds its parsed messages (scripts/page-strings.mjs PARSED_KEY). */
const PARSED_KEY = "@parsed";

/** Messages the page carries already parsed (scripts/page-strings.mjs), by key. */
let parsed: Record<string, ParsedMessage> = {};
/** Compiled formats by key: the text itself for a plain one, null for a pattern that did not parse (reported once). */
const compiled = new Map<string, IntlMessageFormat | string | null>();

/**
 * Whether `text` is plain: no argument, plural, select or quoting (`{`, `}`, `'`), so that
 * formatting it gives it back unchanged (test/unit-i18n.test.mjs checks this for every string of
 * every catalog). Most strings are: they skip intl-messageformat's parsing and compiling, much
 * of it during the first load on a slow phone.
 */
export function isPlain(text: string): boolean {
  return !/[{}']/.test(text);
}

// The formatter looks the locale up among the browser's (Intl.NumberFormat.supportedLocalesOf)
// for every message it compiles, and makes an Intl.Locale of it: the first lookup builds the
// browser's whole list of locales (about 200 ms at a slow phone's speed) and the first
// Intl.Locale loads locale data (80 ms). It formats with the tag it was given; the resolved
// locale only feeds the parser's date skeletons (the site has none) and resolvedOptions (never
// called here). So the page resolves nothing (the library's own answer where Intl.Locale is
// missing; its public static, replaced).
IntlMessageFormat.resolveLocale = () => undefined;

/** One Intl formatter per locale and options, shared by every compiled message (intl-messageformat's `formatters` option). */
function memo<A extends unknown[], R>(make: (...args: A) => R): (...args: A) => R {
  const made = new Map<string, R>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    let found = made.get(key);
    if (found === undefined) { found = make(...args); made.set(key, found); }
    return found;
  };
}
const formatters = {
  getNumberFormat: memo((locales?: string | string[], opts?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locales, opts)),
  getDateTimeFormat: memo((locales?: string | string[], opts?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locales, opts)),
  getPluralRules: memo((locales?: string | string[], opts?: Intl.PluralRulesOptions) => new Intl.PluralRules(locales, opts)),
};

/** Loads the catalog JSON of the page's language (`lang`, a BCP 47 tag, picks the plural rules). */
export async function loadStrings(url: string, lang = document.documentElement.lang || "en"): Promise<void> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`strings: HTTP ${response.status}`);
  setStrings((await response.json()) as Record<string, string>, lang);
}

/**
 * Takes the strings the page carries (the server writes its page's strings into a
 * `<script type="application/json" id="page-strings">`, web/scripts/page-strings.mjs): true when
 * it did, false when the page has none or they do not parse (then loadStrings fetches them).
 */
export function usePageStrings(lang = document.documentElement.lang || "en"): boolean {
  const block = document.getElementById("page-strings");
  if (!block?.textContent) return false;
  try {
    const table = JSON.parse(block.textContent) as unknown;
    if (!table || typeof table !== "object" || Array.isArray(table)) return false;
    const { [PARSED_KEY]: trees, ...texts } = table as Record<string, unknown>;
    setStrings(texts as Record<string, string>, lang, trees && typeof trees === "object" && !Array.isArray(trees) ? trees as Record<string, ParsedMessage> : {});
    return true;
  } catch {
    return false;
  }
}

/**
 * Uses an already parsed catalog (tests, or a page that inlines nothing); `trees`, messages of
 * it already parsed (key → syntax tree), are formatted without the parser. A tree that is not
 * an array is ignored (the text is parsed).
 */
export function setStrings(table: Record<string, string>, lang = "en", trees: Record<string, ParsedMessage> = {}): void {
  strings = table;
  locale = lang;
  parsed = trees;
  compiled.clear();
  simple.clear();
}

/**
 * A message whose only syntax is simple arguments (`{name}`, no plural, select, number style or
 * quoting), split at them: the even items are text, the odd ones argument names. Null for any
 * other message. test/unit-i18n.test.mjs checks for every such string of every catalog that
 * substituting gives what intl-messageformat gives.
 */
export function simpleParts(text: string): string[] | null {
  if (text.includes("'")) return null;
  const parts = text.split(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/);
  for (let i = 0; i < parts.length; i += 2) if (/[{}]/.test(parts[i]!)) return null;
  return parts;
}

/** A simple message's parts (simpleParts) with `params` put in; null when a value would need a number format (a number other than a small whole one). */
function substitute(parts: string[], params: Params): string | null {
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = params[parts[i]!];
    // intl-messageformat writes a number with the locale's grouping and signs: only whole numbers
    // below 1000 and not negative (a minus sign differs: "−5" in Finnish) read the same everywhere.
    if (typeof value === "number" && !(Number.isInteger(value) && value >= 0 && value < 1000 && !Object.is(value, -0))) return null;
    if (value === undefined) return null;
    out += String(value) + parts[i + 1]!;
  }
  return out;
}

const simple = new Map<string, string[] | null>();

function compile(key: string, text: string): IntlMessageFormat | string | null {
  let fmt = compiled.get(key);
  if (fmt !== undefined) return fmt;
  if (isPlain(text)) { compiled.set(key, text); return text; }
  try {
    // Latin digits in every language, as on the board and on the server (ICU, server/site).
    const tree = Object.prototype.hasOwnProperty.call(parsed, key) && Array.isArray(parsed[key]) ? parsed[key]! : text;
    fmt = new IntlMessageFormat(tree, `${locale}-u-nu-latn`, undefined, { ignoreTag: true, formatters });
  } catch (err) {
    console.error(`strings: ${key} is not a valid message: ${String(err)}`);
    fmt = null;
  }
  compiled.set(key, fmt);
  return fmt;
}

/** True when the catalog has `key`. */
export function has(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(strings, key);
}

/** The string for `key` formatted with `params`; "⟦key⟧" marks a missing string. A string that
 *  fails to parse or format shows its raw text (and is reported on the console), never throws. */
export function t(key: string, params: Params = {}): string {
  const text = strings[key];
  if (text === undefined) return `\u27E6${key}\u27E7`;
  // Simple messages skip intl-messageformat's parser, whose first runs are slow on a phone.
  let parts = simple.get(key);
  if (parts === undefined) { parts = isPlain(text) ? null : simpleParts(text); simple.set(key, parts); }
  if (parts) {
    const done = substitute(parts, params);
    if (done !== null) return done;
  }
  const fmt = compile(key, text);
  if (!fmt || typeof fmt === "string") return text;
  try {
    return String(fmt.format(params));
  } catch (err) {
    console.error(`strings: ${key}: ${String(err)}`);
    return text;
  }
}

/**
 * A chance as a percentage of the page's language (the document's `lang`), in Latin digits as on
 * the board ("62%", "62 %"), with at most `digits` decimals (exactly `digits` when `fixed`: a column of them).
 */
export function percent(p: number, digits = 0, fixed = false): string {
  const lang = document.documentElement.lang || "en";
  return new Intl.NumberFormat(`${lang}-u-nu-latn`, { style: "percent", maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 }).format(p);
}

/**
 * Joins `items` into one phrase of the page's language with Intl.ListFormat (CLDR, the data
 * the server's ICU ListFormatter uses): "1, 3 and 5", "1 و3 و5"; `type` "or" for "1, 4 or 5".
 * English is written in British style (no serial comma), as on the server (site_list.hpp).
 */
export function formatList(items: readonly (string | number)[], type: "and" | "or" = "and"): string {
  return listFormat(locale === "en" ? "en-GB" : locale, type).format(items.map(String));
}
const listFormat = memo((tag: string, type: "and" | "or") => new Intl.ListFormat(tag, { style: "long", type: type === "and" ? "conjunction" : "disjunction" }));

/** A lobby game's guest name as shown: marked "NAME, bot" when a program plays it (server/PROTOCOL.md "Bots"). */
export function guestShown(name: string, bot: boolean): string {
  return bot ? t("lobby.bot-name", { name }) : name;
}
