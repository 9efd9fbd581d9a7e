// Getting the player's attention: "● Your turn" in the tab title, an optional synthesised sound
// on their turn and when the friend joins (off by default, the choice remembered; the same
// switch gives the game's sounds, sounds.ts, their audio context, also to pass-and-play and
// spectators), a
// notification while the tab is hidden (only after the player turned them on), and ways to pass
// the invite on: the device's share sheet and a QR code (its code is loaded only when opened).
import { byId } from "../shared/dom";
import { playChime } from "../shared/chime";
import { t } from "../shared/i18n";

const SOUND_KEY = "senet.sound";
const NOTIFY_KEY = "senet.notify";

let baseTitle = "";
let yours: boolean | null = null;
let soundOn = false;
let notifyOn = false;
let audio: AudioContext | null = null;
/** True once the player tapped, clicked or pressed a key: browsers start audio only after that. */
let gestured = false;
let game = "";
/** A seat in a game between two sides (turn chimes, notifications); else pass-and-play or a spectator, who get the game's sounds only. */
let forPlayer = true;

/** localStorage that tolerates a browser where storage is blocked (then nothing is remembered). */
function stored(key: string): string | null {
  try { return localStorage.getItem(key); } catch { return null; }
}
function store(key: string, value: string): void {
  try { localStorage.setItem(key, value); } catch { /* blocked: the choice lasts for this page only */ }
}

/** The page's audio context, created (or resumed) on a user gesture as browsers require; null without Web Audio. */
function audioContext(): AudioContext | null {
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  try { audio ??= new Ctor(); } catch { return null; }  // a browser may refuse another context
  if (audio.state === "suspended") void audio.resume().catch(() => {});
  return audio;
}

/**
 * The audio context for a sound, created or resumed now: null while sound is off, before the
 * player's first gesture on the page, or without Web Audio.
 */
export function soundContext(): AudioContext | null {
  return soundOn && gestured ? audioContext() : null;
}

/** Plays a short chime of sine notes (Hz), one after another; nothing when sound is off. */
function chime(notes: number[]): void {
  const ctx = soundContext();
  if (ctx) playChime(ctx, notes);
}

const notifications = () => typeof Notification === "function";

/** Shows a system notification when the tab is hidden and the player turned them on. */
function notify(title: string, body: string): void {
  if (!notifyOn || !notifications() || Notification.permission !== "granted" || document.visibilityState !== "hidden") return;
  try {
    const n = new Notification(title, { body, tag: `senet-${game}` });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* some browsers allow notifications only from a service worker */ }
}

function showNotifyButton(): void {
  const button = byId<HTMLButtonElement>("notify-button");
  button.hidden = !notifications() || !forPlayer;
  button.textContent = t(notifyOn ? "play.attention.notify-off" : "play.attention.notify-on");
  button.setAttribute("aria-pressed", String(notifyOn));
}

async function toggleNotifications(): Promise<void> {
  const status = byId("notify-status");
  if (notifyOn) {
    notifyOn = false;
    store(NOTIFY_KEY, "off");
  } else {
    // Asked only here, on the player's click, never when the page opens.
    const answer = await Notification.requestPermission();  // no prompt when already granted
    notifyOn = answer === "granted";
    if (notifyOn) store(NOTIFY_KEY, "on");
    status.textContent = notifyOn ? "" : t("play.attention.notify-blocked");
  }
  showNotifyButton();
}

/** The invite link as the share panel shows it, or "" when there is none. */
function inviteLink(): string {
  const input = document.getElementById("invite-link") as HTMLTextAreaElement | null;
  return input?.value ?? "";
}

async function showQr(): Promise<void> {
  const link = inviteLink();
  const box = byId("qr");
  if (!link || box.firstElementChild?.getAttribute("data-text") === link) return;
  const { drawQr } = await import("./qr");
  drawQr(box, link, t("play.attention.qr-label"));
}

/**
 * Wires the page's controls (sound switch, notification button, share button, QR code) and
 * remembers the title; `gameId` tags the notifications. Call once, after the strings are loaded.
 */
export function setupAttention(gameId: string): void {
  game = gameId;
  baseTitle ||= document.title;  // yourTurn may have read it first
  soundOn = stored(SOUND_KEY) === "on";
  notifyOn = stored(NOTIFY_KEY) === "on" && notifications() && Notification.permission === "granted";

  const sound = byId<HTMLInputElement>("sound-toggle");
  sound.checked = soundOn;
  sound.addEventListener("change", () => {
    soundOn = sound.checked;
    gestured = true;
    store(SOUND_KEY, soundOn ? "on" : "off");
    if (soundOn) chime([660]);  // a gesture: the audio may start, and the player hears what it sounds like
  });
  // Browsers start audio only after a gesture: with sound on from an earlier visit, the first tap, click or key opens it.
  const unlock = () => { gestured = true; if (soundOn) audioContext(); };
  for (const gesture of ["pointerdown", "keydown", "click"]) document.addEventListener(gesture, unlock, { once: true, capture: true });

  showNotifyButton();
  byId("notify-button").addEventListener("click", () => void toggleNotifications());

  const share = byId<HTMLButtonElement>("share-button");
  share.hidden = typeof navigator.share !== "function";
  share.addEventListener("click", () => {
    const url = inviteLink();
    if (url) void navigator.share({ title: baseTitle, text: t("play.attention.share-text"), url }).catch(() => { /* cancelled */ });
  });

  const details = byId<HTMLDetailsElement>("qr-details");
  details.addEventListener("toggle", () => { if (details.open) void showQr(); });
}

/**
 * Tells whether it is now the player's turn (false for spectators and pass-and-play). The tab
 * title says so while it is; when the turn comes (not on the page's first state) the sound plays
 * and, with the tab hidden, a notification shows.
 */
export function yourTurn(now: boolean): void {
  const was = yours;
  yours = now;
  // The page's own title, read before it is first changed (a state can come before setupAttention).
  baseTitle ||= document.title;
  document.title = now ? t("play.attention.tab-title", { turn: t("play.attention.your-turn"), title: baseTitle }) : baseTitle;
  if (now && was === false) {
    chime([587, 880]);
    notify(t("play.attention.notify-turn"), t("play.attention.notify-turn-body"));
  }
}

/** The friend took the other seat: a sound and, with the tab hidden, a notification. */
export function friendJoined(): void {
  chime([523, 659, 784]);
  notify(t("play.attention.notify-joined"), t("play.attention.notify-joined-body"));
}

/**
 * Who the alerts are for (the page calls it on every render): a seat in a game between two sides
 * gets the whole switch and the notifications; pass-and-play and a spectator the same switch, off
 * by default, for the game's sounds alone (no turn of their own to wait for, no friend to join).
 */
export function alertsFor(player: boolean): void {
  if (player === forPlayer) return;
  forPlayer = player;
  byId("sound-label").textContent = t(player ? "play.attention.sound" : "play.attention.sound-game");
  showNotifyButton();
}

/** Draws the QR code again if it is open and the invite changed (the share panel calls it). */
export function inviteShown(): void {
  const details = document.getElementById("qr-details") as HTMLDetailsElement | null;
  if (details?.open) void showQr();
}
