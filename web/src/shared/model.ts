// The game facts the pages share beside the server's messages (protocol.ts): the square number
// of the bear-off tray, the board facts the server renders into a page's data-board, and the
// last move as the board marks it.

/**
 * The bear-off tray as a square number: one past square 30, where the server's `to` and `dest`
 * put a piece borne off (PROTOCOL.md "Snapshot") and the record's "27-off" goes.
 */
export const OFF_SQUARE = 31;

/** The board facts the server renders into data-board (from the engine's Ruleset). */
export interface BoardInfo {
  ruleset: string;
  pieces: number;
  water: number;
  die: boolean;
  /** True when a throw with no legal move loses the turn (the server's `turn-lost`), false for a pass. */
  passLoses?: boolean;
  safe: number[];
  houses: [number, string][];
  /** The ruleset's name in the page's language (the replay page's boards only). */
  name?: string;
}

/** The move the board marks as the last one: where the piece came from and where it stands now. */
export interface LastMove { from: number; to: number }
