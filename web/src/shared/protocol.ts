// The game server's messages (server/PROTOCOL.md), typed for the client: what the page sends,
// the snapshot and its parts, the events, and the server's messages as unions on their tag
// (`t` for a message, `e` for an event), so that each case has exactly its own fields.

/** One legal move as the server lists it (PROTOCOL.md "Snapshot": the flags appear only when true). */
export interface LegalMove {
  move: string;
  from: number;
  /** The square the throw lands on (OFF_SQUARE for a bear-off). */
  to: number;
  /** The square the piece ends on (differs from `to` only after the House of Water). */
  dest: number;
  swap?: boolean;
  capture?: boolean;
  water?: boolean;
  bearOff?: boolean;
  backward?: boolean;
  /** Piccione's `in-1`: a piece from the hand onto square 1 (`from` 0). */
  enter?: boolean;
  /** Piccione: the step ends on 27 and the piece goes back to the hand (`dest` 0). */
  toHand?: boolean;
}

/**
 * Piccione's turn beyond the board (PROTOCOL.md "Snapshot" `steps`; RULES.md Piccione 4–10):
 * the turn's direction once its first step fixed it, whether the entry throw is due, the pieces
 * in each player's hand, the extra throws owed and the throw's unspent remainder.
 */
export interface TurnSteps {
  direction: "forward" | "backward" | null;
  entry: boolean;
  hand: [number, number];
  owed: number;
  remainder: number;
}

/** A throw of the game: `lastThrow` carries its throw index, Jéquier's opening throws do not. */
export interface OpeningThrow { value: number; sticks: string; seat: number }
export interface ThrowInfo extends OpeningThrow { index: number }
/** A seat; `name`: the guest name of a lobby game's seat (someone's own text: shown only as text). */
export interface SeatInfo { taken: boolean; kind: "human" | "computer"; online: boolean; name?: string; /** a program plays this lobby seat (PROTOCOL.md "Bots") */ bot?: boolean }
/** The end of a game: the winning seat and its player (null for Bell's draw and an aborted lobby game), and how it ended. */
export interface Result { winner: number | null; player: number | null; reason: "bear-off" | "draw" | "resign" | "claim" | "aborted" }
export type Phase = "waiting" | "opening" | "throw" | "move" | "over";

/** The game state: a snapshot without `record` and `you`, as carried by `events`. */
export interface State {
  game: string;
  ruleset: string;
  opponent: "friend" | "computer" | "local";
  level: string | null;
  ply: number;
  throwIndex: number;
  phase: Phase;
  seatToAct: number | null;
  players: [number, number] | null;
  position: string;
  board: number[];
  off: [number, number];
  turn: number;
  lastThrow: ThrowInfo | null;
  legalMoves: LegalMove[];
  opening: OpeningThrow[];
  seats: [SeatInfo, SeatInfo];
  result: Result | null;
  fairness: { commitment: string; clientSeeds: (string | null)[]; serverSeed: string | null };
  grace: number;
  rematch: string | null;
  rematchOffered: [boolean, boolean];
  rematchOf: string | null;
  /** Piccione's turn state; null (or absent, from an older server) for the other rulesets. */
  steps?: TurnSteps | null;
  /** The seat to act may take back its last move (local and computer games; absent from an older server). */
  takeback?: boolean;
}

/** One ply of the game's record (PROTOCOL.md "Verifiable record"). */
export interface RecordPly { player: number; throw?: number; sticks?: string; move: string }
export interface Snapshot extends State {
  you: number[];
  record?: { plies: RecordPly[]; opening?: { seat: number; throw: number; sticks: string }[] };
}

/** The flags of a move event (PROTOCOL.md "moved": present only when true). */
type MoveFlags = Pick<LegalMove, "swap" | "capture" | "water" | "bearOff" | "backward" | "enter" | "toHand">;

/**
 * One event (PROTOCOL.md "Events"): `e` names it, the other fields are its parameters. `seat`
 * is the acting seat, `player` its player number (null in Jéquier's opening).
 */
export type GameEvent =
  | { e: "thrown"; seat: number; player: number | null; value: number; sticks: string; index: number; opening: boolean }
  | { e: "opening-decided"; seat: number }
  | ({ e: "moved"; seat: number; player: number; move: string; from: number; to: number; dest: number } & MoveFlags)
  | { e: "swapped"; player: number; square: number; to: number }
  | { e: "captured"; player: number; square: number }
  | { e: "water"; seat: number; player: number; square: number; dest: number }
  | { e: "borne-off"; seat: number; player: number; from: number; off: number }
  /**
   * Piccione (PROTOCOL.md "Events"): `remainder` on the automatic pass of a remainder (`value`
   * is then the remainder), `toHand` when the pass sent the piece on square 1 back to the hand,
   * `entry` on the extra throw that is the entry throw.
   */
  | { e: "passed" | "turn-lost" | "extra-throw"; seat: number; player: number | null; value: number; remainder?: boolean; toHand?: boolean; entry?: boolean }
  | { e: "turn"; seat: number; player: number | null }
  | { e: "joined"; seat: number }
  | { e: "presence"; seat: number; online: boolean }
  | { e: "result"; winner: number | null; player: number | null; reason: Result["reason"]; serverSeed: string }
  | { e: "rematch-offered"; seat: number }
  | { e: "rematch-withdrawn"; seat: number }
  | { e: "rematch"; game: string }
  | { e: "seed"; seat: number; clientSeed: string }
  | { e: "taken-back"; seat: number; player: number | null; plies: number };

/** The error codes of PROTOCOL.md "Error codes". */
export type ErrorCode =
  | "bad-json" | "unknown-type" | "bad-field" | "hello-first" | "bad-secret" | "bad-seed" | "not-seated"
  | "not-your-turn" | "wrong-ply" | "wrong-phase" | "illegal-move" | "not-started" | "seeds-pending"
  | "game-over" | "not-over" | "cannot-claim" | "rate-limited" | "storage" | "internal"
  | "bad-phrase" | "no-opponent" | "phrase-limit" | "no-takeback" | "nothing-to-take-back" | "computer-thinking"
  | "no-hint";

/** One move of a hint: the mover's win chance after it, in [0, 1]; `exact` from the endgame tables (PROTOCOL.md "Hints"). */
export interface HintMove { move: string; winChance: number; exact: boolean }

/** The quick phrases a player of a friend game may send (PROTOCOL.md "Quick phrases"), in the menu's order. */
export const PHRASE_IDS = ["good-luck", "well-played", "good-game", "thanks", "oops", "your-turn"] as const;
export type PhraseId = (typeof PHRASE_IDS)[number];

export type ServerMessage =
  | { t: "snapshot"; d: Snapshot }
  /** `state` holds only the members that changed since the previous frame (PROTOCOL.md "events"). */
  | { t: "events"; d: { ply: number; events: GameEvent[]; state: Partial<State> } }
  | { t: "error"; d: { code: ErrorCode; message: string; ply: number } }
  | { t: "watchers"; d: { count: number } }
  | { t: "pong"; d: { time: number } }
  /** A quick phrase of a friend game's player (to both players' pages, never to spectators). */
  | { t: "phrase"; d: { phrase: PhraseId; seat: number } }
  /** The answer to this page's `hint`: every legal move at `ply`, best first (to the asking connection only). */
  | { t: "hint"; d: { ply: number; moves: HintMove[] } };

/** What the page sends (PROTOCOL.md "Client → server"). */
export type ClientMessage =
  | { t: "hello"; d: { secret?: string; clientSeed?: string } }
  | { t: "throw"; d: { ply: number } }
  | { t: "move"; d: { ply: number; move: string } }
  | { t: "phrase"; d: { phrase: PhraseId } }
  | { t: "takeback"; d: { ply: number } }
  | { t: "hint"; d: { ply: number } }
  | { t: "resign" | "rematch" | "claim" | "ping"; d: Record<string, never> };
