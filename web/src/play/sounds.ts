// The game's sounds: the sticks' throw, a piece's move, a swap, the House of Water, a capture
// (Bell) and a bearing off, synthesised with Web Audio (oscillators, a noise buffer, short
// envelopes; no audio files). Every action the server reports in an `events` message sounds,
// the player's own, the other player's and the computer's, timed to the slide (a piece sounds
// where it lands); a snapshot (the page's load, a reconnect) replays nothing. The sound switch
// (attention.ts) decides: its context is null while sound is off or before the player's first
// gesture, and then nothing plays.
import { LEG_MS, motionTime } from "./motion";
import type { GameEvent, ServerMessage } from "../shared/protocol";

/** The game's sounds. */
export type SoundName = "throw" | "move" | "swap" | "water" | "capture" | "bear-off";

/** One sound to play, `at` ms after the events are shown. */
export interface Cue { sound: SoundName; at: number }

/** A sound and the same sound again closer than this (ms) is heard once (a burst of queued messages). */
export const REPEAT_GAP_MS = 60;

/** The sound an event makes on its own (a move's swap, capture, water or bear-off has its own event), or null. */
function soundOf(ev: GameEvent): SoundName | null {
  switch (ev.e) {
    case "thrown": return "throw";
    case "moved": return ev.swap || ev.capture || ev.water || ev.bearOff ? null : "move";
    case "opening-decided": return "move";
    case "swapped": return "swap";
    case "water": return "water";
    case "captured": return "capture";
    case "borne-off": return "bear-off";
    default: return null;
  }
}

/**
 * The sounds these events make, in order, each once: a throw at once, a piece's sound when it
 * lands (after its first leg when the pieces slide, at once when they do not).
 */
export function cuesOf(events: GameEvent[]): Cue[] {
  const landing = motionTime(events) > 0 ? LEG_MS : 0;
  const cues: Cue[] = [];
  for (const ev of events) {
    const sound = soundOf(ev);
    if (!sound || cues.some((c) => c.sound === sound)) continue;
    cues.push({ sound, at: sound === "throw" ? 0 : landing });
  }
  return cues;
}

/** One second of white noise, made once per context. */
const noiseBuffers = new WeakMap<BaseAudioContext, AudioBuffer>();
function noise(ctx: BaseAudioContext): AudioBuffer {
  let buffer = noiseBuffers.get(ctx);
  if (!buffer) {
    buffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    noiseBuffers.set(ctx, buffer);
  }
  return buffer;
}

/** A gain that rises quickly to `peak` at `at` (s) and dies away over `decay` s, into the speakers. */
function envelope(ctx: BaseAudioContext, at: number, peak: number, decay: number): GainNode {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.004);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + decay);
  gain.connect(ctx.destination);
  return gain;
}

/** A tone of `type` gliding from `from` to `to` Hz, at `at` s, `peak` loud, dying over `decay` s. */
function tone(ctx: BaseAudioContext, at: number, type: OscillatorType, from: number, to: number, peak: number, decay: number): void {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(from, at);
  osc.frequency.exponentialRampToValueAtTime(to, at + decay);
  osc.connect(envelope(ctx, at, peak, decay));
  osc.start(at);
  osc.stop(at + decay + 0.02);
}

/** A burst of noise through a band-pass at `freq` Hz (sweeping to `to`), at `at` s, `peak` loud, over `decay` s. */
function hiss(ctx: BaseAudioContext, at: number, freq: number, to: number, q: number, peak: number, decay: number): void {
  const src = ctx.createBufferSource();
  src.buffer = noise(ctx);
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(freq, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + decay);
  src.connect(filter).connect(envelope(ctx, at, peak, decay));
  src.start(at, Math.random() * 0.5);
  src.stop(at + decay + 0.02);
}

/** A short wooden knock: a hollow tone falling in pitch and a click of noise. */
function knock(ctx: BaseAudioContext, at: number, pitch: number, peak: number): void {
  tone(ctx, at, "triangle", pitch, pitch * 0.7, peak, 0.09);
  hiss(ctx, at, pitch * 5, pitch * 4, 3, peak * 0.6, 0.03);
}

/** Draws one sound into `ctx`, starting at `at` (the context's time, s). */
export function synthesise(ctx: BaseAudioContext, sound: SoundName, at: number): void {
  switch (sound) {
    case "throw":  // four sticks falling on wood, one after another, each its own pitch
      [0, 0.05, 0.085, 0.14].forEach((dt, i) => knock(ctx, at + dt, [780, 920, 700, 860][i]!, 0.11));
      break;
    case "move":
      knock(ctx, at, 420, 0.14);
      break;
    case "swap":  // the two pieces trading places: two knocks
      knock(ctx, at, 460, 0.12);
      knock(ctx, at + 0.09, 360, 0.12);
      break;
    case "water":  // a splash and a bubble
      hiss(ctx, at, 1800, 350, 1.2, 0.12, 0.45);
      tone(ctx, at + 0.04, "sine", 260, 620, 0.08, 0.18);
      break;
    case "capture":  // the piece leaves the game: a knock and a falling tone
      knock(ctx, at, 380, 0.12);
      tone(ctx, at + 0.03, "sine", 520, 230, 0.09, 0.35);
      break;
    case "bear-off":  // the piece home: two soft rising notes
      knock(ctx, at, 440, 0.1);
      tone(ctx, at + 0.06, "sine", 660, 660, 0.08, 0.4);
      tone(ctx, at + 0.18, "sine", 990, 990, 0.07, 0.5);
      break;
  }
}

/** Plays the game's sounds for the server's messages, through the context the sound switch gives (null: silence). */
export class GameSounds {
  private readonly last = new Map<SoundName, number>();

  /** `context` is the sound switch's audio context, null while sound is off (attention.ts soundContext). */
  constructor(private readonly context: () => BaseAudioContext | null) {}

  /** Takes a message as the page shows it: an `events` message sounds, anything else (a snapshot) does not. */
  hear(msg: ServerMessage): void {
    if (msg.t !== "events") return;
    const cues = cuesOf(msg.d.events);
    if (!cues.length) return;
    const ctx = this.context();
    if (!ctx) return;
    try {
      const now = ctx.currentTime + 0.01;
      for (const cue of cues) {
        const at = now + cue.at / 1000;
        const before = this.last.get(cue.sound);
        if (before !== undefined && Math.abs(at - before) < REPEAT_GAP_MS / 1000) continue;
        this.last.set(cue.sound, at);
        synthesise(ctx, cue.sound, at);
      }
    } catch (err) {
      console.error(err);  // a sound must never stop the page
    }
  }
}
