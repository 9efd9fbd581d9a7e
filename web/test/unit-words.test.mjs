// The play page's words (src/play/words.ts; a move's short label from src/shared/moves.ts) for each viewer, compared with English sentences written
// here: who is named, whose turn, the result's winner and reason, the claim countdown.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readPo } from "../scripts/po.mjs";
import { i18n, moves, words } from "../testlib/unit-env.mjs";

const human = { taken: true, kind: "human", online: true };
/** A view: a friend game in the move phase, seat 0 plays the cones, seen from seat 0 unless told. */
function view(over = {}, you = [0]) {
  const s = {
    game: "g", ruleset: "standard", opponent: "friend", level: null, ply: 4, phase: "throw", seatToAct: 0,
    players: [1, 2], board: [], off: [0, 0], turn: 1, lastThrow: null, legalMoves: [], opening: [],
    seats: [human, human], result: null, grace: 60, rematch: null, rematchOffered: [false, false], ...over,
  };
  return { s, you };
}

test("seat labels: you, opponent, computer with its level, seats for spectators and pass-and-play", () => {
  assert.equal(words.seatLabel(view(), 0), "You");
  assert.equal(words.seatLabel(view(), 1), "Opponent");
  // A lobby game's guest names; a program's marked (PROTOCOL.md "Bots").
  assert.equal(words.seatLabel(view({ seats: [human, { ...human, name: "Nefertari" }] }), 1), "Nefertari");
  assert.equal(words.seatLabel(view({ seats: [human, { ...human, name: "Sticks 0.3", bot: true }] }), 1), "Sticks 0.3, bot");
  assert.equal(words.seatLabel(view({ seats: [human, { ...human, name: "Sticks 0.3", bot: true }] }, []), 1), "Sticks 0.3, bot");
  assert.equal(words.seatLabel(view({}, []), 0), "First seat");
  assert.equal(words.seatLabel(view({}, []), 1), "Second seat");
  const computer = { seats: [human, { taken: true, kind: "computer", online: true }] };
  assert.equal(words.seatLabel(view({ ...computer, level: "expert" }), 1), "Expert computer");
  assert.equal(words.seatLabel(view({ ...computer, level: null }), 1), "Intermediate computer");
  assert.equal(words.seatLabel(view({ ...computer, level: "beginner" }, []), 1), "Beginner computer");
  assert.equal(words.nameOf(view({ ...computer, level: "expert" }), 1), "Spools (Expert computer)");
  assert.equal(words.seatLabel(view({ opponent: "local" }, [0, 1]), 0), "Cones");
  assert.equal(words.seatLabel(view({ opponent: "local", players: [2, 1] }, [0, 1]), 0), "Spools");
  assert.equal(words.seatLabel(view({ opponent: "local", players: null }, [0, 1]), 0), "First seat");
  assert.equal(words.seatLabel(view({ opponent: "local", players: null }, [0, 1]), 1), "Second seat");
});

test("names join the side and the seat; players and seats map both ways", () => {
  const v = view({ players: [2, 1] });
  assert.equal(words.playerOfSeat(v, 0), 2);
  assert.equal(words.playerOfSeat(view({ players: null }), 0), null);
  assert.equal(words.seatOfPlayer(v, 1), 1);
  assert.equal(words.seatOfPlayer(view({ players: null }), 1), -1);
  assert.equal(words.isLocal(v), false);
  assert.equal(words.isLocal(view({ opponent: "local" })), true);
  assert.equal(words.nameOf(v, 0), "Spools (You)");
  assert.equal(words.nameOf(v, 1), "Cones (Opponent)");
  assert.equal(words.nameOf(v, undefined, 1), "Cones (Opponent)");
  assert.equal(words.nameOf(v, 1, 2), "Spools (Opponent)");
  assert.equal(words.nameOf(v, undefined, undefined), "");
  assert.equal(words.nameOf(view({ players: null }), 0), "You");
  assert.equal(words.nameOf(view({ players: null }), undefined, 2), "Spools");
  assert.equal(words.nameOf(view({ opponent: "local" }, [0, 1]), 1), "Spools");
  assert.equal(words.person(v, 0), "you");
  assert.equal(words.person(v, 1), "other");
  assert.equal(words.person(v, undefined, 2), "you");
  assert.equal(words.person(v, undefined, 1), "other");
  assert.equal(words.person(v, undefined, null), "other");
  assert.equal(words.person(view({}, [1]), undefined, undefined), "other", "naming no seat nor player is never the viewer");
  assert.equal(words.person(view({ opponent: "local" }, [0, 1]), 0), "other");
  assert.equal(moves.moveText(9, 11), "9 → 11");
  assert.equal(moves.moveText(27, 31), "27 → off");
  assert.equal(moves.moveText(27, 30), "27 → 30");
});

test("events are told in whole sentences; the notable ones go to the feed", () => {
  const v = view();
  const d = (ev, vv = v) => words.describe(vv, ev);
  assert.deepEqual(d({ e: "thrown", seat: 0, value: 3 }), { text: "You threw 3.", notable: false });
  assert.deepEqual(d({ e: "thrown", seat: 1, value: 2, opening: true }), { text: "Opening: Spools (Opponent) threw 2.", notable: false });
  assert.deepEqual(d({ e: "opening-decided", seat: 1 }),
    { text: "First 1 for Opponent: they take the spools on the even squares, move their piece on 10 to 11 and throw again.", notable: true });
  assert.deepEqual(d({ e: "opening-decided", seat: 0 }, view({}, [1])),
    { text: "First 1 for Opponent: they take the spools on the even squares, move their piece on 10 to 11 and throw again.", notable: true });
  assert.equal(d({ e: "moved", player: 1, from: 26, to: 31, bearOff: true }), null);
  assert.deepEqual(d({ e: "moved", player: 2, from: 4, to: 6 }), { text: "Spools (Opponent) moved 4 → 6.", notable: false });
  assert.deepEqual(d({ e: "moved", player: 1, from: 12, to: 9, backward: true }), { text: "You moved backward, 12 → 9.", notable: false });
  assert.deepEqual(d({ e: "swapped", player: 1, square: 14, to: 11 }), { text: "Swap: your piece on 14 goes back to 11.", notable: true });
  assert.deepEqual(d({ e: "captured", player: 2, square: 20 }), { text: "Captured: the piece of Spools (Opponent) on 20 leaves the game.", notable: true });
  assert.deepEqual(d({ e: "water", player: 1, square: 28, dest: 15 }), { text: "Your piece landed in the House of Water on 28 and goes back to 15.", notable: true });
  assert.deepEqual(d({ e: "borne-off", player: 1, from: 29, off: 1 }), { text: "You bear off from 29: 1 piece off.", notable: true });
  assert.deepEqual(d({ e: "borne-off", player: 2, from: 30, off: 3 }), { text: "Borne off from 30 by Spools (Opponent): 3 pieces off.", notable: true });
  assert.deepEqual(d({ e: "passed", player: 2, value: 4 }), { text: "No move with 4: a pass for Spools (Opponent).", notable: true });
  assert.deepEqual(d({ e: "turn-lost", player: 1, value: 2 }), { text: "No move with 2: you lose the turn.", notable: true });
  // Bell's rules call it a pass: there are no extra throws to lose.
  const bell = (ev) => words.describe(view({ ruleset: "bell" }), ev);
  assert.deepEqual(bell({ e: "turn-lost", player: 1, value: 2 }), { text: "No move with 2: you pass.", notable: true });
  assert.deepEqual(bell({ e: "turn-lost", player: 2, value: 3 }), { text: "No move with 3: a pass for Spools (Opponent).", notable: true });
  assert.deepEqual(d({ e: "extra-throw", player: 2 }), { text: "Another throw for Spools (Opponent).", notable: true });
  assert.deepEqual(d({ e: "turn", seat: 0 }), { text: "Your turn.", notable: false });
  assert.deepEqual(d({ e: "turn", seat: 1 }), { text: "Spools (Opponent) to play.", notable: false });
  assert.deepEqual(d({ e: "joined", seat: 1 }), { text: "Your opponent has joined. The game begins.", notable: true });
  assert.deepEqual(d({ e: "joined", seat: 1 }, view({}, [])), { text: "The second player has joined. The game begins.", notable: true });
  assert.deepEqual(d({ e: "presence", seat: 1, online: true }), { text: "Opponent is online.", notable: false });
  assert.deepEqual(d({ e: "presence", seat: 1, online: false }), { text: "Opponent went offline.", notable: false });
  assert.deepEqual(d({ e: "presence", seat: 0, online: false }, view({}, [])), { text: "First seat went offline.", notable: false });
  assert.equal(d({ e: "presence", seat: 0, online: false }), null);
  assert.equal(d({ e: "presence", seat: 1, online: true }, view({}, [1])), null);
  assert.deepEqual(d({ e: "presence", seat: 0, online: true }, view({}, [1])), { text: "Opponent is online.", notable: false });
  assert.equal(d({ e: "presence", seat: 1, online: false }, view({ opponent: "local" }, [0, 1])), null);
  assert.equal(d({ e: "rematch-offered", seat: 0 }), null);
  assert.equal(d({ e: "rematch-offered", seat: 1 }, view({}, [1])), null);
  assert.deepEqual(d({ e: "rematch-offered", seat: 1 }), { text: "Your opponent would like a rematch.", notable: true });
  assert.deepEqual(d({ e: "rematch-offered", seat: 1 }, view({}, [])), { text: "Spools (Second seat) would like a rematch.", notable: true });
  assert.deepEqual(d({ e: "rematch-offered", seat: 0 }, view({}, [1])), { text: "Your opponent would like a rematch.", notable: true });
  assert.deepEqual(d({ e: "rematch", game: "h" }), { text: "The rematch is ready.", notable: true });
  assert.equal(d({ e: "something-new" }), null);
});

test("before the server says which seats the page holds, no event or status names a seat", () => {
  // The server's own presence event for the page's seat comes before the snapshot that says the
  // page holds that seat: worded then, it would announce the player's own seat as a stranger.
  const unknown = (over = {}) => ({ ...view(over, []), seatsKnown: false });
  assert.equal(words.describe(unknown(), { e: "presence", seat: 0, online: true }), null);
  assert.equal(words.describe(unknown(), { e: "presence", seat: 1, online: false }), null);
  assert.equal(words.describe(unknown(), { e: "joined", seat: 1 }), null);
  assert.equal(words.describe(unknown(), { e: "thrown", seat: 0, value: 3 }), null);
  assert.equal(words.statusText(unknown()), "Connecting to the game…");
  assert.equal(words.statusText(unknown({ seatToAct: null })), "Connecting to the game…");
  assert.equal(words.statusText(unknown({ phase: "waiting", seatToAct: null })), "Connecting to the game…");
  // Once known, a spectator is told as before.
  const known = { ...view({}, []), seatsKnown: true };
  assert.deepEqual(words.describe(known, { e: "presence", seat: 0, online: true }), { text: "First seat is online.", notable: false });
  assert.equal(words.statusText({ ...view({ seatToAct: null }, []), seatsKnown: true }), "You are watching. The game starts when both players are connected.");
});

test("a seat whose other page never said hello waits for the creator, the rematch's opponent, or the lobby guest by name", () => {
  const absent = { seatToAct: null, fairness: { clientSeeds: ["s0", null] } };
  assert.equal(words.statusText(view(absent)), "Waiting for the creator's page to connect. The game starts as soon as it does.");
  assert.equal(words.statusText(view({ ...absent, rematchOf: "g0" })), "Waiting for your opponent to come back. The rematch starts as soon as they do.");
  // A lobby game has no creator: the other guest is named.
  const lobby = { ...absent, seats: [human, { ...human, name: "Ḥor-Aḥa" }] };
  assert.equal(words.statusText(view(lobby)), "Waiting for Ḥor-Aḥa to connect. The game starts as soon as they do.");
  assert.notEqual(words.statusText(view(lobby, [])), "Waiting for Ḥor-Aḥa to connect. The game starts as soon as they do.", "not for spectators");
});

test("the status line says whose turn it is and what is due, for each viewer", () => {
  assert.equal(words.statusText(view({ phase: "waiting", seatToAct: null })), "Waiting for your friend to open the invite link.");
  assert.equal(words.statusText(view({ phase: "waiting", seatToAct: null }, [])), "You are watching. Waiting for the second player.");
  assert.equal(words.statusText(view({ phase: "over", seatToAct: null })), "The game is over.");
  assert.equal(words.statusText(view({ seatToAct: null })), "Both seats are taken. The game starts as soon as the other player's page connects.");
  assert.equal(words.statusText(view({ seatToAct: null }, [])), "You are watching. The game starts when both players are connected.");
  const thrown = { phase: "move", lastThrow: { value: 4, sticks: "1110", seat: 0 } };
  assert.equal(words.statusText(view({ ...thrown })), "Your turn: you threw 4. Choose a piece to move.");
  assert.equal(words.statusText(view({ ...thrown, seatToAct: 1 })), "Spools (Opponent) threw 4: waiting for their move.");
  assert.equal(words.statusText(view({ ...thrown }, [])), "You are watching. Cones (First seat) threw 4: waiting for their move.");
  assert.equal(words.statusText(view({ ...thrown, opponent: "local" }, [0, 1])), "Cones threw 4: choose a piece to move.");
  assert.equal(words.statusText(view({ phase: "move", lastThrow: null, seatToAct: 1 })), "Spools (Opponent) threw 0: waiting for their move.");
  assert.equal(words.statusText(view()), "Your turn: throw.");
  assert.equal(words.statusText(view({ seatToAct: 1 })), "Spools (Opponent) to throw.");
  assert.equal(words.statusText(view({ seatToAct: 1 }, [])), "You are watching. Spools (Second seat) to throw.");
  assert.equal(words.statusText(view({ phase: "opening", players: null })), "Opening: throw until someone gets a 1. Your turn to throw.");
  assert.equal(words.statusText(view({ phase: "opening", players: null, seatToAct: 1 })), "Opening: throw until someone gets a 1. Opponent to throw.");
  assert.equal(words.statusText(view({ phase: "opening", players: [1, 2], seatToAct: 1 })), "Opening: throw until someone gets a 1. Opponent to throw.");
});

test("the result names the winner and the reason for winner, loser, spectator and pass-and-play", () => {
  const over = (result, you = [0], extra = {}) => view({ phase: "over", seatToAct: null, result, ...extra }, you);
  assert.equal(words.resultText(view(), "standard"), "");
  assert.equal(words.resultText(over({ winner: null, player: null, reason: "bear-off" }), "bell"), "A draw: equal scores.");
  assert.equal(words.resultText(over({ winner: undefined, player: null, reason: "bear-off" }), "bell"), "A draw: equal scores.");
  const won = { winner: 0, player: 1, reason: "bear-off" };
  assert.equal(words.resultText(over(won), "standard"), "You win! All your pieces are borne off.");
  assert.equal(words.resultText(over(won, [1]), "standard"), "You lose: your opponent bore off all their pieces first.");
  assert.equal(words.resultText(over(won), "bell"), "You win: your opponent can no longer catch up.");
  assert.equal(words.resultText(over(won, [1]), "bell"), "You lose: you can no longer catch up.");
  assert.equal(words.resultText(over({ winner: 1, player: 2, reason: "resign" }), "standard"), "You resigned. Your opponent wins.");
  assert.equal(words.resultText(over({ winner: 0, player: 1, reason: "resign" }), "bell"), "Your opponent resigned: you win!");
  assert.equal(words.resultText(over({ winner: 0, player: 1, reason: "claim" }), "standard"), "Your opponent was offline too long: you win!");
  assert.equal(words.resultText(over({ winner: 0, player: 1, reason: "claim" }, [1]), "standard"), "You were offline too long: your opponent claimed the win.");
  assert.equal(words.resultText(over({ winner: 1, player: 2, reason: "bear-off" }, []), "standard"), "The win goes to Spools (Second seat): all their pieces are borne off.");
  assert.equal(words.resultText(over({ winner: 1, player: 2, reason: "resign" }, []), "standard"), "Cones (First seat) resigned: the win goes to Spools (Second seat).");
  assert.equal(words.resultText(over({ winner: 0, player: 1, reason: "claim" }, []), "jequier"), "Spools (Second seat) stayed offline too long: the win goes to Cones (First seat).");
  assert.equal(words.resultText(over({ winner: 0, player: 2, reason: "bear-off" }, [], { players: [2, 1] }), "bell"), "The win goes to Spools (First seat): the other side can no longer catch up.");
  assert.equal(words.resultText(over({ winner: 1, player: 2, reason: "bear-off" }, [0, 1], { opponent: "local" }), "bell"), "The win goes to Spools: the other side can no longer catch up.");
  assert.equal(words.resultText(over({ winner: 0, player: 1, reason: "resign" }, [0, 1], { opponent: "local" }), "standard"), "Spools resigned: the win goes to Cones.");
});

test("Bell's final score, only for Bell's game once it is over", () => {
  const s = { phase: "over", seatToAct: null, off: [3, 1] };
  assert.equal(words.scoreText(view(s), "bell"), "Final score: 3 points for the cones, 1 point for the spools (one point per piece borne off).");
  assert.equal(words.scoreText(view({ ...s, off: [1, 0] }), "bell"), "Final score: 1 point for the cones, 0 points for the spools (one point per piece borne off).");
  assert.equal(words.scoreText(view({ ...s, off: [] }), "bell"), "Final score: 0 points for the cones, 0 points for the spools (one point per piece borne off).");
  assert.equal(words.scoreText(view(s), "standard"), "");
  assert.equal(words.scoreText(view({ ...s, phase: "move" }), "bell"), "");
});

test("errors, invite problems and the claim countdown in the viewer's words", () => {
  assert.equal(words.errorText("not-your-turn"), "It is not your turn.");
  assert.equal(words.errorText("no-such-code"), "That did not work. Please try again.");
  assert.equal(words.inviteProblemText("full"), "Both seats are already taken: someone has used this invite link. You can still watch the game.");
  assert.equal(words.inviteProblemText("bad-invite"), "This invite link is not valid: it may be cut short or mistyped. Ask your friend to send it again. Meanwhile you can watch the game.");
  assert.equal(words.inviteProblemText("bad-seat"), "This link does not hold a seat in this game, so you are watching it.");
  assert.equal(words.inviteProblemText("over"), "This game ended before anyone joined it. You can still look at it here.");
  assert.equal(words.inviteProblemText("failed"), "Could not join the game. Check your connection and reload the page.");
  const ready = "Your opponent has been offline for too long. You can claim the win, or wait for them.";
  assert.equal(words.claimText(0), ready);
  assert.equal(words.claimText(-3), ready);
  const wait = (rest) => `Your opponent is offline. If they do not come back, you can claim the win in ${rest}.`;
  assert.equal(words.claimText(0.2), wait("1 second"));
  assert.equal(words.claimText(12.2), wait("13 seconds"));
  assert.equal(words.claimText(90), wait("90 seconds"));
  assert.equal(words.claimText(90.5), wait("2 minutes"));
  assert.equal(words.claimText(300), wait("5 minutes"));
  assert.equal(words.claimText(301), wait("6 minutes"));
});

test("each catalog words the computer's seat from the level's id, cased as in the middle of its phrase", () => {
  // The level reaches the catalog as its id (a select), never as the level chooser's capitalised
  // label: "Ordinateur, niveau Débutant" was the old result.
  const expected = {
    en: ["Beginner computer", "Intermediate computer", "Expert computer", "Computer"],
    nl: ["Computer op beginnersniveau", "Computer op gevorderd niveau", "Computer op expertniveau", "Computer"],
    fi: ["Aloittelijatason tietokone", "Keskitason tietokone", "Mestaritason tietokone", "Tietokone"],
    it: ["Computer di livello principiante", "Computer di livello intermedio", "Computer di livello esperto", "Computer"],
    pl: ["Komputer, poziom początkujący", "Komputer, poziom średnio zaawansowany", "Komputer, poziom ekspercki", "Komputer"],
    de: ["Computer auf Anfängerniveau", "Computer auf Fortgeschrittenenniveau", "Computer auf Expertenniveau", "Computer"],
    fr: ["Ordinateur, niveau débutant", "Ordinateur, niveau intermédiaire", "Ordinateur, niveau expert", "Ordinateur"],
    es: ["Ordenador, nivel principiante", "Ordenador, nivel intermedio", "Ordenador, nivel experto", "Ordenador"],
    ar: ["الحاسوب، مستوى المبتدئين", "الحاسوب، المستوى المتوسط", "الحاسوب، مستوى الخبراء", "الحاسوب"],
  };
  const po = join(dirname(fileURLToPath(import.meta.url)), "..", "po");
  const computer = { seats: [human, { taken: true, kind: "computer", online: true }] };
  try {
    for (const [lang, [beginner, intermediate, expert, other]] of Object.entries(expected)) {
      i18n.setStrings(readPo(join(po, `${lang}.po`)), lang);
      assert.equal(words.seatLabel(view({ ...computer, level: "beginner" }), 1), beginner, lang);
      assert.equal(words.seatLabel(view({ ...computer, level: "intermediate" }), 1), intermediate, lang);
      assert.equal(words.seatLabel(view({ ...computer, level: null }), 1), intermediate, lang);
      assert.equal(words.seatLabel(view({ ...computer, level: "expert" }), 1), expert, lang);
      assert.equal(words.seatLabel(view({ ...computer, level: "unheard-of" }), 1), other, lang);
    }
  } finally {
    i18n.setStrings(readPo(join(po, "en.po")), "en");
  }
});

test("before the first throw a seated player is told whose page is missing: the creator's, or the rematch opponent's", () => {
  const seeds = (a, b) => ({ fairness: { commitment: "c", clientSeeds: [a, b], serverSeed: null }, seatToAct: null });
  assert.equal(words.statusText(view(seeds(null, "b"), [1])), "Waiting for the creator's page to connect. The game starts as soon as it does.");
  assert.equal(words.statusText(view({ ...seeds(null, "b"), rematchOf: "old" }, [1])), "Waiting for your opponent to come back. The rematch starts as soon as they do.");
  assert.equal(words.statusText(view({ ...seeds("a", null), rematchOf: "old" }, [0])), "Waiting for your opponent to come back. The rematch starts as soon as they do.");
  // One's own seed missing (its hello is on its way), a spectator: the general words.
  assert.equal(words.statusText(view(seeds(null, "b"), [0])), "Both seats are taken. The game starts as soon as the other player's page connects.");
  assert.equal(words.statusText(view(seeds(null, "b"), [])), "You are watching. The game starts when both players are connected.");
});

test("a withdrawn rematch offer is told to the player who stays, not to its maker or a spectator", () => {
  const ev = { e: "rematch-withdrawn", seat: 1 };
  assert.deepEqual(words.describe(view({ phase: "over" }, [0]), ev), { text: "Your opponent left: their rematch offer is withdrawn.", notable: true });
  assert.equal(words.describe(view({ phase: "over" }, [1]), ev), null);
  assert.equal(words.describe(view({ phase: "over" }, []), ev), null);
});

test("Bell has no extra throws: a throw without a move is a pass there, in every language, never a lost turn", () => {
  const bell = (you = [0]) => view({ ruleset: "bell" }, you);
  assert.deepEqual(words.describe(bell(), { e: "turn-lost", player: 1, value: 2 }), { text: "No move with 2: you pass.", notable: true });
  assert.deepEqual(words.describe(bell(), { e: "turn-lost", player: 2, value: 3 }), { text: "No move with 3: a pass for Spools (Opponent).", notable: true });
  assert.deepEqual(words.describe(bell(), { e: "passed", player: 2, value: 3 }), { text: "No move with 3: a pass for Spools (Opponent).", notable: true });
  // Jéquier's lost turn (its extra throw is gone) keeps its words.
  assert.deepEqual(words.describe(view({ ruleset: "jequier" }), { e: "turn-lost", player: 1, value: 4 }), { text: "No move with 4: you lose the turn.", notable: true });
  const web = join(dirname(fileURLToPath(import.meta.url)), "..");
  const langs = readFileSync(join(web, "po", "languages.txt"), "utf8").split("\n").map((l) => l.replace(/#.*/, "").trim().split(/\s+/)[0]).filter(Boolean);
  assert.equal(langs.length, 9);
  try {
    for (const lang of langs) {
      i18n.setStrings(readPo(join(web, "po", `${lang}.po`)), lang);
      for (const [you, player] of [[[0], 1], [[0], 2], [[], 1]]) {
        const text = words.describe(bell(you), { e: "turn-lost", player, value: 2 }).text;
        assert.equal(text, i18n.t("ev.passed", { person: you.length && player === 1 ? "you" : "other", name: words.nameOf(bell(you), undefined, player), value: 2 }), `${lang}`);
        assert.notEqual(text, i18n.t("ev.turn-lost", { person: you.length && player === 1 ? "you" : "other", name: words.nameOf(bell(you), undefined, player), value: 2 }), `${lang}: not the lost turn's words`);
      }
    }
  } finally {
    i18n.setStrings(readPo(join(web, "po", "en.po")), "en");
  }
});

test("a lobby game names the opponent by their guest name, as given, and an aborted game says it was called off", () => {
  const named = { seats: [{ ...human, name: "Guest 4821" }, { ...human, name: "<img src=x onerror=alert(1)>" }] };
  assert.equal(words.seatLabel(view(named), 0), "You");
  assert.equal(words.seatLabel(view(named), 1), "<img src=x onerror=alert(1)>");
  assert.equal(words.nameOf(view(named), 1), "Spools (<img src=x onerror=alert(1)>)");
  assert.equal(words.seatLabel(view(named, []), 0), "Guest 4821");
  assert.equal(words.seatLabel(view({ seats: [human, { ...human, name: "  " }] }), 1), "Opponent");
  const aborted = view({ phase: "over", result: { winner: null, player: null, reason: "aborted" } });
  assert.equal(words.resultText(aborted, "standard"), "Game called off: the first throw was not made within 30 seconds. Nobody wins or loses.");
  assert.equal(words.resultText({ ...aborted, you: [] }, "bell"), "Game called off: the first throw was not made within 30 seconds. Nobody wins or loses.");
});
