// The lobby's guest: the name the player may type (kept in this browser only, sent with each
// seek, never stored by the server beyond the game) and the random browser token that keeps two
// tabs of one browser from being paired with each other. The server checks the name again
// (server/PROTOCOL.md "Lobby"); this check only answers the player before the round trip.
import { localStore } from "../shared/storage";

const NAME_KEY = "senet.guest-name";
const TOKEN_KEY = "senet.browser";
/** The longest name, in characters (code points after NFC). */
export const NAME_MAX = 20;

/** Why a typed name cannot be used: "long", "chars", "link", or "" when it can (an empty name is fine: the server draws one). */
export function nameProblem(raw: string): "" | "long" | "chars" | "link" {
  const name = cleanName(raw);
  if ([...name].length > NAME_MAX) return "long";
  if (/:\/\/|www\.|\.(com|net|org|io|ru|de|info|xyz|ly|me)\b/iu.test(name)) return "link";
  if (!/^[\p{L}\p{M}\p{N} ._-]*$/u.test(name)) return "chars";
  return "";
}

/** The name as it is sent: NFC, runs of spaces made one, trimmed. */
export function cleanName(raw: string): string {
  return raw.normalize("NFC").replace(/\s+/gu, " ").trim();
}

/** The name remembered in this browser ("" when none or storage is blocked). */
export function savedName(): string {
  try { return localStore()?.getItem(NAME_KEY) ?? ""; } catch { return ""; }
}

/** Remembers the name (or forgets it, when empty). */
export function saveName(name: string): void {
  try {
    const store = localStore();
    if (name) store?.setItem(NAME_KEY, name);
    else store?.removeItem(NAME_KEY);
  } catch { /* storage blocked: the name lasts for this page */ }
}

let pageToken = "";

/** This browser's random token (22 base64url characters), made once and kept in storage; where storage is blocked, one per page. */
export function browserToken(): string {
  try {
    const store = localStore();
    const kept = store?.getItem(TOKEN_KEY);
    if (kept && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return kept;
    const made = pageToken || randomToken();
    store?.setItem(TOKEN_KEY, made);
    pageToken = made;
    return made;
  } catch {
    pageToken ||= randomToken();
    return pageToken;
  }
}

function randomToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
