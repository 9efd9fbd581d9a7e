// Opening a game just created by POST /api/games (the home page's form, the tutorial's last
// step): the seat and the commitment go into storage and the play page's fragment.
import { rememberSecret, setGameValue } from "./storage";

/** What POST /api/games answers that the play page needs. */
export interface CreatedGame { game: string; secret: string; watchUrl: string; commitment?: string }

/**
 * Remembers the seat secret and (when it is 64 hex digits) the commitment, then goes to the
 * game's play page with both in the fragment. Storage only helps: a browser that blocks it keeps
 * both in the fragment over a reload; the play page checks the throws at the end against the
 * commitment recorded now, before it sends its seed.
 */
export function openNewGame(game: CreatedGame): void {
  rememberSecret(game.game, game.secret);
  const fragment = new URLSearchParams({ seat: game.secret });
  if (game.commitment && /^[0-9a-f]{64}$/.test(game.commitment)) {
    setGameValue(game.game, "commitment", game.commitment);
    fragment.set("commit", game.commitment);
  }
  location.assign(`${game.watchUrl}#${fragment.toString()}`);
}
