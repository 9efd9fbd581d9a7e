// What this browser keeps about its games in localStorage: the seat secret of a game
// (`senet.seat.ID`) and named values per game (`senet.NAME.ID`: the invite link, the client
// seed, the commitment, the "Your games" note); the tutorial keeps the lesson reached per ruleset
// (`senet.lesson.RULESET`, learn/learn.ts). Storage only helps: every function works where
// it is blocked (nothing is kept, null is read), and the play page keeps what a reload needs in
// its URL fragment (play/seat.ts).

/** The storage key of a game's seat secret. */
const key = (game: string) => `senet.seat.${game}`;

/** This browser's localStorage, or null where reading it throws (storage blocked). */
export function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored seat secret of a game, if any (null where storage is blocked). */
export function storedSecret(game: string): string | null {
  try {
    // Stryker disable next-line OptionalChaining: a store that cannot be had throws inside the caller's try, which gives the same null (or writes nothing)
    return localStore()?.getItem(key(game)) ?? null;
  } catch {
    return null;
  }
}

/**
 * The seat secret another tab of this browser stores for `game` within `ms` milliseconds (its
 * `storage` event), else null; null at once where storage is blocked. For a join refused as full
 * because another tab's join with the same invite won a moment before and has not stored its
 * seat yet.
 */
export function storedSecretSoon(game: string, ms: number): Promise<string | null> {
  if (!localStore()) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (secret: string | null): void => {
      window.removeEventListener("storage", heard);
      clearTimeout(timer);
      resolve(secret);
    };
    const heard = (e: StorageEvent): void => { if (e.key === key(game) && e.newValue) done(e.newValue); };
    const timer = setTimeout(() => done(storedSecret(game)), ms);
    window.addEventListener("storage", heard);
  });
}

/** Remembers the seat secret of a game in storage, when there is any. */
export function rememberSecret(game: string, secret: string): void {
  try {
    // Stryker disable next-line OptionalChaining: a store that cannot be had throws inside the caller's try, which gives the same null (or writes nothing)
    localStore()?.setItem(key(game), secret);
  } catch {
    /* storage full or disabled: the fragment keeps it */
  }
}

/** A value remembered per game in storage (invite link, client seed, commitment); null without storage. */
export function gameValue(game: string, name: string): string | null {
  try {
    // Stryker disable next-line OptionalChaining: a store that cannot be had throws inside the caller's try, which gives the same null (or writes nothing)
    return localStore()?.getItem(`senet.${name}.${game}`) ?? null;
  } catch {
    return null;
  }
}

/** Stores a value per game, when storage works. */
export function setGameValue(game: string, name: string, value: string): void {
  try {
    // Stryker disable next-line OptionalChaining: a store that cannot be had throws inside the caller's try, which gives the same null (or writes nothing)
    localStore()?.setItem(`senet.${name}.${game}`, value);
  } catch {
    /* ignore */
  }
}
