// Random self-play with fixed seeds, checking the engine's invariants after every ply.
#include <algorithm>

#include "senet/perft.hpp"
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

constexpr int kGamesPerRuleset = 2000;
constexpr int kPlyBound = 20000;  // a random game that has not ended by then counts as a failure

/// Squares where no piece may ever stand: the House of Water (standard 28, Jéquier and Kendall
/// 27), Piccione's 27 and Jéquier's 30.
Bitboard forbiddenSquares(RulesetId id) {
    switch (id) {
        case RulesetId::Standard: return bit(28);
        case RulesetId::Jequier: return bit(27) | bit(30);
        case RulesetId::Bell: return 0;
        case RulesetId::Kendall: return bit(27);
        case RulesetId::Piccione: return bit(27);
    }
    return 0;
}

/// Every invariant of one position; returns false (after recording failures) when one breaks.
bool checkPosition(const Position& p, int& previousTotal) {
    const RulesetId id = p.rulesetId;
    const std::string text = formatPosition(p);
    bool ok = true;
    auto expect = [&](bool condition, const char* what) {
        if (!condition) {
            ADD_FAILURE() << what << " in " << text;
            ok = false;
        }
    };
    expect((p.board[0] & p.board[1]) == 0, "two pieces on one square");
    expect((p.occupied() & ~kAllSquares) == 0, "a piece outside squares 1..30");
    expect((p.occupied() & forbiddenSquares(id)) == 0, "a piece on a square where none can stand");
    for (Player pl : {Player::One, Player::Two}) {
        const int total = p.onBoard(pl) + p.borneOff(pl);
        if (id == RulesetId::Bell) {
            expect(total <= 10, "more than ten pieces");
        } else if (id == RulesetId::Piccione) {
            expect(total <= 5 && p.inHand(pl) == 5 - total, "pieces in hand not conserved");
        } else {
            expect(total == 5, "pieces not conserved");
        }
    }
    // Pieces leave the game (Bell's captures) but never come back; in Piccione pieces enter from
    // the hand, so there the count that never falls is the borne-off pieces.
    const int total = id == RulesetId::Piccione
                          ? -(p.borneOff(Player::One) + p.borneOff(Player::Two))
                          : p.onBoard(Player::One) + p.onBoard(Player::Two) + p.borneOff(Player::One) + p.borneOff(Player::Two);
    expect(total <= previousTotal, id == RulesetId::Piccione ? "a borne-off piece came back" : "the number of pieces grew");
    previousTotal = total;
    const auto back = parsePosition(text);
    expect(back.ok() && *back == p, "notation does not round-trip");
    return ok;
}

/// Every legal move of every throw value (or of the remainder, in Piccione): sorted by FROM and
/// TO (`in-1` first), one per piece except in Piccione, each from a piece of the player to move,
/// and re-parsed from its notation.
bool checkMoves(const Position& p) {
    bool ok = true;
    const bool split = p.rules().turnModel == TurnModel::SplitSteps;
    for (int v = 0; v <= 6; ++v) {
        if (p.throwDue() ? !p.rules().canThrow(v) : v != kNoThrow) continue;
        MoveList moves;
        generateMoves(p, v, moves);
        int lastKey = -1;
        for (const Move& m : moves) {
            const std::string text = formatMove(m);
            const auto again = parseMove(p, v, text);
            const int key = split ? m.from * 32 + m.to : m.from * 32;
            const bool ownPiece = m.has(kEnter) ? p.inHand(p.turn) > 0 : p.ownerAt(m.from) == number(p.turn);
            if (!again.ok() || !again->sameAs(m) || lastKey >= key || !ownPiece) {
                ADD_FAILURE() << "move " << text << " with a " << v << " in " << formatPosition(p);
                ok = false;
            }
            lastKey = key;
        }
        // The counted moves and those drawn by number are the listed ones (random playouts).
        if (countMoves(p, v) != moves.size()) {
            ADD_FAILURE() << "countMoves " << countMoves(p, v) << " for " << moves.size() << " moves with a " << v << " in " << formatPosition(p);
            ok = false;
        }
        for (int k = 0; k < std::min(countMoves(p, v), moves.size()); ++k) {
            const Move m = moveAt(p, v, k);
            if (std::find(moves.begin(), moves.end(), m) == moves.end()) {
                ADD_FAILURE() << "moveAt " << k << " gives " << formatMove(m) << ", not a listed move, with a " << v << " in " << formatPosition(p);
                ok = false;
            }
        }
        if (moves.empty() && !parseMove(p, v, "pass").ok()) {
            ADD_FAILURE() << "pass not accepted with a " << v << " in " << formatPosition(p);
            ok = false;
        }
    }
    return ok;
}

void selfPlay(RulesetId id, std::uint64_t seedBase) {
    const Ruleset& r = ruleset(id);
    int longest = 0;
    int decided[4] = {0, 0, 0, 0};
    for (int game = 0; game < kGamesPerRuleset; ++game) {
        Rng rng(seedBase + static_cast<std::uint64_t>(game));
        Game g(id);
        while (g.phase() == Phase::Opening) ASSERT_TRUE(g.applyThrow(rng.throwOutcome(r).throw_).ok());
        int previousTotal = id == RulesetId::Piccione ? 0 : 2 * r.piecesPerSide;
        ASSERT_TRUE(checkPosition(g.position(), previousTotal));
        int plies = 0;
        while (g.phase() != Phase::Over && plies < kPlyBound) {
            ++plies;
            const auto ev = g.applyThrow(rng.throwOutcome(r).throw_);
            ASSERT_TRUE(ev.ok()) << ev.error().message;
            // In Piccione a throw may be spent by several steps, each checked.
            while (g.phase() == Phase::Move) {
                const MoveList& moves = g.legalMoves();
                ASSERT_TRUE(g.applyMove(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size())))]).ok());
                if (g.phase() == Phase::Move) {
                    ASSERT_TRUE(checkPosition(g.position(), previousTotal)) << "game " << game << " ply " << plies;
                    ASSERT_TRUE(checkMoves(g.position())) << "game " << game << " ply " << plies;
                }
            }
            ASSERT_TRUE(checkPosition(g.position(), previousTotal)) << "game " << game << " ply " << plies;
            if (g.phase() != Phase::Over) {
                ASSERT_TRUE(checkMoves(g.position())) << "game " << game << " ply " << plies;
            }
        }
        ASSERT_EQ(g.phase(), Phase::Over) << r.key << " game " << game << " did not end within " << kPlyBound << " plies";
        EXPECT_EQ(g.outcome(), outcome(g.position()));
        longest = std::max(longest, plies);
        ++decided[static_cast<int>(g.outcome())];

        // The record replays to the same final position; every 10th also through JSON.
        const auto replayed = replay(g.record());
        ASSERT_TRUE(replayed.ok()) << replayed.error().message;
        EXPECT_EQ(replayed->position(), g.position());
        EXPECT_EQ(replayed->outcome(), g.outcome());
        if (game % 10 == 0) {
            const auto parsed = parseRecord(recordToJson(g.record(), g.outcome()));
            ASSERT_TRUE(parsed.ok()) << parsed.error().message;
            const auto again = replay(*parsed);
            ASSERT_TRUE(again.ok());
            EXPECT_EQ(again->position(), g.position());
        }
    }
    // Both players win some games; only Bell can draw.
    EXPECT_GT(decided[static_cast<int>(Outcome::WinOne)], 0) << r.key;
    EXPECT_GT(decided[static_cast<int>(Outcome::WinTwo)], 0) << r.key;
    if (id != RulesetId::Bell) {
        EXPECT_EQ(decided[static_cast<int>(Outcome::Draw)], 0) << r.key;
    }
    ::testing::Test::RecordProperty("longest_game_plies", longest);
}

TEST(SelfPlay, StandardInvariants) { selfPlay(RulesetId::Standard, 1000); }
TEST(SelfPlay, JequierInvariants) { selfPlay(RulesetId::Jequier, 2000); }
TEST(SelfPlay, BellInvariants) { selfPlay(RulesetId::Bell, 3000); }
TEST(SelfPlay, KendallInvariants) { selfPlay(RulesetId::Kendall, 4000); }
TEST(SelfPlay, PiccioneInvariants) { selfPlay(RulesetId::Piccione, 5000); }

TEST(SelfPlay, RandomPlayoutsEndAndAreReproducible) {
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall, RulesetId::Piccione}) {
        Rng a(42), b(42);
        for (int game = 0; game < 200; ++game) {
            const PlayoutResult x = randomPlayout(startPosition(id), a, kPlyBound);
            const PlayoutResult y = randomPlayout(startPosition(id), b, kPlyBound);
            EXPECT_NE(x.outcome, Outcome::Ongoing) << ruleset(id).key;
            EXPECT_GT(x.plies, 0);
            EXPECT_EQ(x.outcome, y.outcome);
            EXPECT_EQ(x.plies, y.plies);
            EXPECT_EQ(x.throws, y.throws);
            if (ruleset(id).turnModel == TurnModel::OneMovePerThrow) EXPECT_EQ(x.throws, x.plies);
            else EXPECT_LE(x.throws, x.plies);
        }
    }
}

// The playout's fast paths (bitboards kept in registers; Piccione's k-th piece by the CPU's
// deposit instruction where it has one) draw exactly the moves the public API draws from the same
// numbers: the low bits the throw, the high 32 bits the move among countMoves by moveAt.
TEST(SelfPlay, RandomPlayoutsDrawWhatThePublicMoveListDraws) {
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell, RulesetId::Kendall, RulesetId::Piccione}) {
        const Ruleset& r = ruleset(id);
        Rng fast(7), slow(7);
        for (int game = 0; game < 100; ++game) {
            const PlayoutResult x = randomPlayout(startPosition(id), fast, kPlyBound);
            Position p = startPosition(id);
            int plies = 0, throws = 0;
            while (outcome(p) == Outcome::Ongoing && plies < kPlyBound) {
                const std::uint64_t draw = slow.next();
                int v = kNoThrow;
                if (p.throwDue()) {
                    v = r.outcomes[draw & static_cast<std::uint64_t>(r.outcomeCount - 1)].throw_.value;
                    ++throws;
                }
                const int n = countMoves(p, v);
                const Move m = n ? moveAt(p, v, static_cast<int>(((draw >> 32) * static_cast<std::uint64_t>(n)) >> 32)) : Move::pass();
                p = applyMove(p, v, m);
                ++plies;
            }
            ASSERT_EQ(x.plies, plies) << r.key << " game " << game;
            EXPECT_EQ(x.throws, throws) << r.key << " game " << game;
            EXPECT_EQ(x.outcome, outcome(p)) << r.key << " game " << game;
        }
    }
}

}  // namespace
}  // namespace senet::test
