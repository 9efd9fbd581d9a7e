// Calling the player back to the lobby's tab when an opponent comes while they play the
// computer in another tab: the tab title, a chime when the site's sound switch is on (the play
// page's switch, `senet.sound`), a system notification when the browser already allows them
// (never asked here), and a message to the play page's tabs (play/lobby-bar.ts), which offer the
// switch too.
import { playChime } from "../shared/chime";
import { t } from "../shared/i18n";

/** The BroadcastChannel the lobby's tab and the play page's tabs talk on. */
export const CHANNEL = "senet.lobby";

let baseTitle = "";
let channel: BroadcastChannel | null = null;

function stored(key: string): string | null {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** Three rising notes, as the play page's chime for a friend who joined. */
function chime(): void {
  if (stored("senet.sound") !== "on") return;
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return;
  try {
    playChime(new Ctor(), [523, 659, 784]);
  } catch { /* no audio: the title and the notification still tell */ }
}

function notify(text: string): void {
  if (typeof Notification !== "function" || Notification.permission !== "granted") return;
  try {
    const n = new Notification(t("lobby.notify-title"), { body: text, tag: "senet-lobby" });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* some browsers allow notifications only from a service worker */ }
}

/** An opponent came: says `text` by every means the browser allows, and tells the play page's tabs (`url`: the new game). */
export function alertPaired(text: string, url: string): void {
  baseTitle ||= document.title;
  document.title = t("lobby.tab-title", { title: baseTitle });
  chime();
  notify(text);
  try {
    channel ??= new BroadcastChannel(CHANNEL);
    channel.postMessage({ type: "paired", url, text });
  } catch { /* no BroadcastChannel: this tab alone offers the switch */ }
}

/** The call is answered or void: the title is the page's own again, the play page's bars go. */
export function clearAlert(): void {
  if (baseTitle) document.title = baseTitle;
  try { channel?.postMessage({ type: "gone" }); } catch { /* closed */ }
}
