// The site's chime: a few sine notes, each 0.3 s, 0.13 s apart, synthesised with Web Audio (no
// audio files). The play page's attention calls (a friend joined, your turn) and the lobby's
// tab (an opponent came) play it.

/** Plays `notes` (frequencies in Hz) on `ctx`, starting 20 ms from now. */
export function playChime(ctx: AudioContext, notes: readonly number[]): void {
  const start = ctx.currentTime + 0.02;
  notes.forEach((freq, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const at = start + i * 0.13;
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.32);
  });
}
