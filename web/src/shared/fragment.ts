// The play page's own state in its URL fragment (#seat=…&seed=…&commit=…): the seat secret,
// this browser's client seed and the commitment recorded before that seed went out. The
// fragment never reaches the server, survives a reload and works where storage is blocked
// (messengers' in-app browsers); localStorage is only a help.

/** Called after every setFragment (replaceState fires no hashchange): see onFragmentChange. */
const listeners: Array<() => void> = [];

/** Calls `listener` after each change setFragment makes (e.g. an invite exchanged for a seat). */
export function onFragmentChange(listener: () => void): void {
  listeners.push(listener);
}

/** The fragment's values (a fresh copy). */
export function fragment(): URLSearchParams {
  return new URLSearchParams(window.location.hash.slice(1));
}

/** One value of the fragment, or null. */
export function fragmentValue(name: string): string | null {
  return fragment().get(name);
}

/**
 * Sets (string) or removes (null) values of the fragment in place, keeping the others and
 * adding no history entry. An empty fragment leaves no "#" behind.
 */
export function setFragment(values: Record<string, string | null>): void {
  const params = fragment();
  for (const [name, value] of Object.entries(values)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const hash = params.toString();
  const url = window.location.pathname + window.location.search + (hash ? `#${hash}` : "");
  // Stryker disable next-line StringLiteral: browsers ignore replaceState's title argument
  history.replaceState(history.state, "", url);
  for (const listener of listeners) listener();
}
