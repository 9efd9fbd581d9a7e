// The game server's messages (server/PROTOCOL.md), typed for the client.

/** One legal move as the server lists it. */
export interface LegalMove {
  move: string;
  from: number;
  to: number;
  dest: number;
  swap?: boolean;
  capture?: boolean;
  water?: boolean;
  bearOff?: boolean;
  backward?: boolean;
}

export interface ThrowInfo { value: number; sticks: string; seat: number; index?: number }
export interface SeatInfo { taken: boolean; kind: "human" | "computer" | string; online: boolean }
export interface Result { winner: number | null; player: number | null; reason: string }

/** The game state: a snapshot without `record` and `you`, as carried by `events`. */
export interface State {
  game: string;
  ruleset: string;
  opponent: "friend" | "computer" | "local";
  level: string | null;
  ply: number;
  phase: "waiting" | "opening" | "throw" | "move" | "over";
  seatToAct: number | null;
  players: [number, number] | null;
  board: number[];
  off: [number, number];
  turn: number;
  lastThrow: ThrowInfo | null;
  legalMoves: LegalMove[];
  opening: ThrowInfo[];
  seats: [SeatInfo, SeatInfo];
  result: Result | null;
  fairness: { commitment: string; clientSeeds: (string | null)[]; serverSeed: string | null };
  grace: number;
  rematch: string | null;
  rematchOffered: [boolean, boolean];
}

export interface RecordPly { player: number; throw: number; sticks: string; move: string }
export interface Snapshot extends State {
  you: number[];
  record?: { plies: RecordPly[]; opening?: { seat: number; throw: number; sticks: string }[] };
}

/** One event: `e` names it, the other fields are its parameters. */
export interface GameEvent {
  e: string;
  seat?: number;
  player?: number | null;
  value?: number;
  sticks?: string;
  index?: number;
  opening?: boolean;
  move?: string;
  from?: number;
  to?: number;
  dest?: number;
  square?: number;
  off?: number;
  online?: boolean;
  winner?: number | null;
  reason?: string;
  game?: string;
  backward?: boolean;
  bearOff?: boolean;
  water?: boolean;
  swap?: boolean;
  capture?: boolean;
}

export type ServerMessage =
  | { t: "snapshot"; d: Snapshot }
  /** `state` holds only the members that changed since the previous frame (PROTOCOL.md "events"). */
  | { t: "events"; d: { ply: number; events: GameEvent[]; state: Partial<State> } }
  | { t: "error"; d: { code: string; message: string; ply: number } }
  | { t: "watchers"; d: { count: number } }
  | { t: "pong"; d: { time: number } };
