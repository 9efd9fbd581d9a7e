// The setting of the node unit tests of the browser modules: the bundle of src/ modules
// (scripts/bundle-units.mjs; under Stryker, of the mutated sources), the English catalog loaded
// into i18n as the page loads it, and a page address with history and storage for the fragment
// and seat modules (see `openPage`). The tests of modules that build elements also import
// unit-dom.mjs (a DOM from linkedom).
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readPo } from "../scripts/po.mjs";
import * as units from "../.units/units.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
units.i18n.setStrings(readPo(join(web, "po", "en.po")), "en");

/** A Storage-like store kept in a Map; `broken` makes every call throw (storage disabled). */
export class MemoryStorage {
  constructor(broken = false) { this.map = new Map(); this.broken = broken; }
  getItem(k) { if (this.broken) throw new Error("blocked"); return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { if (this.broken) throw new Error("blocked"); this.map.set(k, String(v)); }
  removeItem(k) { if (this.broken) throw new Error("blocked"); this.map.delete(k); }
}

/**
 * Puts the modules on the page `url` (a URL object keeps location, history.replaceState moves
 * it and counts its calls); `storage` is window.localStorage (null: reading it throws, as in a
 * sandboxed frame). Returns the page: { url(), replaced, storage, storageEvent(key, value) }.
 */
export function openPage(href, storage = new MemoryStorage()) {
  let url = new URL(href);
  const listeners = new Map();
  // page.storageEvent(key, value): another tab of this browser stored `value` under `key`.
  const page = {
    replaced: 0, storage, url: () => url.href,
    storageEvent(key, newValue) { storage?.setItem(key, newValue); for (const l of listeners.get("storage") ?? []) l({ key, newValue }); },
  };
  globalThis.window = {
    get location() { return url; },
    get localStorage() { if (storage === null) throw new Error("SecurityError"); return storage; },
    addEventListener(type, l) { listeners.set(type, [...(listeners.get(type) ?? []), l]); },
    removeEventListener(type, l) { listeners.set(type, (listeners.get(type) ?? []).filter((x) => x !== l)); },
  };
  globalThis.history = { state: null, replaceState(_s, _t, next) { page.replaced++; url = new URL(next, url); } };
  return page;
}

export const { i18n, board, moves, words, movelist, choices, pacer, claim, feed, fragment, storage, seat, seed, state, sounds, attention, replay_graph: replayGraph, analysis, replay_marks: replayMarks, end_analysis: endAnalysis, steps, hand, lobby_client: lobbyClient, guest } = units;
