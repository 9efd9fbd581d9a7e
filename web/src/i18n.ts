// The client's strings: the same gettext catalogs as the pages, converted to JSON by the web
// build (scripts/build.mjs) and loaded from the URL the page gives in data-strings.

export type Params = Record<string, string | number>;

let strings: Record<string, string> = {};

/** Loads the catalog JSON of the page's language. */
export async function loadStrings(url: string): Promise<void> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`strings: HTTP ${response.status}`);
  strings = (await response.json()) as Record<string, string>;
}

/** Uses an already parsed catalog (tests, or a page that inlines nothing). */
export function setStrings(table: Record<string, string>): void {
  strings = table;
}

/** The string for `key` with every {name} replaced; "⟦key⟧" marks a missing string. */
export function t(key: string, params: Params = {}): string {
  const text = strings[key];
  if (text === undefined) return `\u27E6${key}\u27E7`;
  return text.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}
