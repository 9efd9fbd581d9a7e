// The client's strings: the same gettext catalogs as the pages, converted to JSON by the web
// build (scripts/build.mjs) and loaded from the URL the page gives in data-strings. Every string
// is an ICU MessageFormat pattern ({name}, plural, select), formatted with intl-messageformat,
// the same syntax the server formats with ICU (server/site/src/message.cpp).
import { IntlMessageFormat } from "intl-messageformat";

export type Params = Record<string, string | number>;

let strings: Record<string, string> = {};
let locale = "en";
/** Compiled formats by key; null for a pattern that did not parse (reported once). */
const compiled = new Map<string, IntlMessageFormat | null>();

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
    setStrings(table as Record<string, string>, lang);
    return true;
  } catch {
    return false;
  }
}

/** Uses an already parsed catalog (tests, or a page that inlines nothing). */
export function setStrings(table: Record<string, string>, lang = "en"): void {
  strings = table;
  locale = lang;
  compiled.clear();
}

function compile(key: string, text: string): IntlMessageFormat | null {
  let fmt = compiled.get(key);
  if (fmt !== undefined) return fmt;
  try {
    // Latin digits in every language, as on the board and on the server (ICU, server/site).
    fmt = new IntlMessageFormat(text, `${locale}-u-nu-latn`, undefined, { ignoreTag: true });
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
  const fmt = compile(key, text);
  if (!fmt) return text;
  try {
    return String(fmt.format(params));
  } catch (err) {
    console.error(`strings: ${key}: ${String(err)}`);
    return text;
  }
}

/**
 * A chance as a percentage of the page's language (the document's `lang`), in Latin digits as on
 * the board ("62%", "62 %"), with at most `digits` decimals.
 */
export function percent(p: number, digits = 0): string {
  const lang = document.documentElement.lang || "en";
  return new Intl.NumberFormat(`${lang}-u-nu-latn`, { style: "percent", maximumFractionDigits: digits }).format(p);
}

/**
 * Joins `items` into one phrase of the page's language with Intl.ListFormat (CLDR, the data
 * the server's ICU ListFormatter uses): "1, 3 and 5", "1 و3 و5"; `type` "or" for "1, 4 or 5".
 * English is written in British style (no serial comma), as on the server (site_list.hpp).
 */
export function formatList(items: readonly (string | number)[], type: "and" | "or" = "and"): string {
  const tag = locale === "en" ? "en-GB" : locale;
  return new Intl.ListFormat(tag, { style: "long", type: type === "and" ? "conjunction" : "disjunction" }).format(items.map(String));
}

/** A lobby game's guest name as shown: marked "NAME, bot" when a program plays it (server/PROTOCOL.md "Bots"). */
export function guestShown(name: string, bot: boolean): string {
  return bot ? t("lobby.bot-name", { name }) : name;
}
