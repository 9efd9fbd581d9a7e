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
/** The member that holds the language's plural table (scripts/page-strings.mjs PLURAL_KEY). */
const PLURAL_KEY = "@plural";
/** The page's plural table: the category letter of each whole number from 0 (scripts/page-strings.mjs pluralTable), "" when it has none. */
let plurals = "";
const PLURAL_CATEGORIES: Record<string, string> = { z: "zero", o: "one", t: "two", f: "few", m: "many", x: "other" };

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
    const { [PARSED_KEY]: trees, [PLURAL_KEY]: pluralTable, ...texts } = table as Record<string, unknown>;
    setStrings(texts as Record<string, string>, lang, trees && typeof trees === "object" && !Array.isArray(trees) ? trees as Record<string, ParsedMessage> : {},
      typeof pluralTable === "string" ? pluralTable : "");
    return true;
  } catch {
    return false;
  }
}

/**
 * Uses an already parsed catalog (tests, or a page that inlines nothing); `trees`, messages of
 * it already parsed (key → syntax tree), are formatted without the parser. A tree that is not
 * an array is ignored (the text is parsed). `pluralTable`: the language's plural categories of
 * 0, 1, 2, … (scripts/page-strings.mjs pluralTable), with which quickFormat formats a tree.
 */
export function setStrings(table: Record<string, string>, lang = "en", trees: Record<string, ParsedMessage> = {}, pluralTable = ""): void {
  strings = table;
  locale = lang;
  parsed = trees;
  plurals = /^[zotfmx]*$/.test(pluralTable) ? pluralTable : "";
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

/**
 * Whether intl-messageformat writes the number `n` as String(n) in every language: it writes a
 * number with the locale's grouping and signs, so only whole numbers below 1000 and not negative
 * (a minus sign differs: "−5" in Finnish) read the same everywhere.
 */
function writtenPlainly(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n < 1000 && !Object.is(n, -0);
}

/** A simple message's parts (simpleParts) with `params` put in; null when a value would need a number format (a number other than a small whole one). */
function substitute(parts: string[], params: Params): string | null {
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = params[parts[i]!];
    if (typeof value === "number" && !writtenPlainly(value)) return null;
    if (value === undefined) return null;
    out += String(value) + parts[i + 1]!;
  }
  return out;
}

const simple = new Map<string, string[] | null>();

/** A syntax tree's element, as far as quickFormat reads it (intl-messageformat's TYPE: 0 literal, 1 argument, 5 select, 6 plural, 7 the plural's #). */
interface TreeElement { type: number; value?: unknown; options?: Record<string, { value: TreeElement[] }>; offset?: number; pluralType?: string }

/** A whole number the page's plural table covers, written the same in every language with Latin digits (no grouping, no sign). */
function tabled(n: number): boolean {
  return writtenPlainly(n) && n < plurals.length;
}

/**
 * Formats a parsed message (intl-messageformat's tree) as intl-messageformat would, without Intl:
 * text, arguments, select, and plurals of the whole numbers the page's plural table covers (with
 * `#`); null for anything else (number, date or tag elements, another number, a missing value),
 * which the formatter then does. The first Intl object of a page costs a slow phone about 200 ms
 * (the browser's locale data), and the play page's first render needs a plural ("0 off").
 * test/unit-i18n.test.mjs compares it with intl-messageformat for every message of every catalog.
 */
export function quickFormat(tree: readonly TreeElement[], params: Params, pound?: number): string | null {
  let out = "";
  for (const el of tree) {
    if (el.type === 0) { out += String(el.value); continue; }
    if (el.type === 7) {
      if (pound === undefined) continue;
      if (!tabled(pound)) return null;
      out += String(pound);
      continue;
    }
    const name = String(el.value);
    if (!Object.prototype.hasOwnProperty.call(params, name)) return null;
    const value = params[name]!;
    if (el.type === 1) {
      if (typeof value === "number" && !writtenPlainly(value)) return null;  // grouping or a sign: the formatter's
      out += String(value);
      continue;
    }
    let chosen: TreeElement[] | undefined;
    let inner: number | undefined;
    if (el.type === 5) {
      chosen = (Object.prototype.hasOwnProperty.call(el.options, value) ? el.options?.[value]?.value : undefined) ?? el.options?.other?.value;
    } else if (el.type === 6 && (el.pluralType ?? "cardinal") === "cardinal" && typeof value === "number") {
      inner = value - (el.offset ?? 0);
      const exact = `=${value}`;
      if (Object.prototype.hasOwnProperty.call(el.options, exact)) chosen = el.options?.[exact]?.value;
      else {
        if (!tabled(inner)) return null;
        const category = PLURAL_CATEGORIES[plurals[inner]!] ?? "other";
        chosen = (Object.prototype.hasOwnProperty.call(el.options, category) ? el.options?.[category]?.value : undefined) ?? el.options?.other?.value;
      }
    } else return null;
    if (!chosen) return null;
    const part = quickFormat(chosen, params, inner);
    if (part === null) return null;
    out += part;
  }
  return out;
}

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
  const tree = plurals && Object.prototype.hasOwnProperty.call(parsed, key) && Array.isArray(parsed[key]) ? parsed[key] as unknown as TreeElement[] : null;
  const quick = tree ? quickFormat(tree, params) : null;
  if (quick !== null) return quick;
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
