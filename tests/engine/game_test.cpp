// Game flow (game.hpp): phases, throws and moves, Jéquier's opening and seats, automatic passes.
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

Throw sticks(int value, int pattern) { return Throw{static_cast<std::uint8_t>(value), static_cast<std::uint8_t>(pattern)}; }
Throw die(int value) { return Throw{static_cast<std::uint8_t>(value), 0}; }

Moves legalMovesOf(const Game& g) {
    Moves out;
    for (const Move& m : g.legalMoves()) out.push_back(formatMove(m));
    return out;
}

Move parsed(const Game& g, int throwValue, std::string_view text) {
    const auto m = parseMove(g.position(), throwValue, text);
    EXPECT_TRUE(m.ok()) << text;
    return m.ok() ? *m : Move::pass();
}

TEST(Game, StandardThrowThenMove) {
    Game g(RulesetId::Standard);
    EXPECT_EQ(g.phase(), Phase::Throw);
    EXPECT_EQ(g.seatToAct(), 0);
    EXPECT_EQ(g.playerOf(0), Player::One);
    EXPECT_EQ(g.playerOf(1), Player::Two);
    EXPECT_EQ(g.seatOf(Player::One), 0);
    EXPECT_FALSE(g.pendingThrow().has_value());

    const auto ev = g.applyThrow(sticks(2, 0b1010));
    ASSERT_TRUE(ev.ok()) << ev.error().message;
    EXPECT_FALSE(ev->noMove);
    EXPECT_EQ(g.phase(), Phase::Move);
    EXPECT_EQ(g.pendingThrow(), sticks(2, 0b1010));
    EXPECT_EQ(legalMovesOf(g), (Moves{"9-11"}));

    const auto played = g.applyMove(parsed(g, 2, "9-11"));
    ASSERT_TRUE(played.ok()) << played.error().message;
    EXPECT_EQ(played->player, Player::One);
    EXPECT_EQ(formatMove(played->move), "9-11");
    EXPECT_EQ(formatPosition(g.position()), "standard:12121212.21...................:2:0:0");
    EXPECT_EQ(g.phase(), Phase::Throw);
    EXPECT_EQ(g.seatToAct(), 1);
    ASSERT_EQ(g.record().plies.size(), 1u);
    EXPECT_EQ(g.record().plies[0].throw_, sticks(2, 0b1010));

    // Player 2 throws a 4 and keeps the throw after moving.
    ASSERT_TRUE(g.applyThrow(sticks(4, 0b1111)).ok());
    ASSERT_TRUE(g.applyMove(parsed(g, 4, "10-14")).ok());
    EXPECT_EQ(g.position().turn, Player::Two);
    EXPECT_EQ(g.seatToAct(), 1);
}

TEST(Game, ErrorsForTheWrongPhaseAndIllegalMoves) {
    Game g(RulesetId::Standard);
    EXPECT_FALSE(g.applyMove(Move{9, 11, 11, 0}).ok());  // a throw is due
    ASSERT_TRUE(g.applyThrow(sticks(2, 0b0011)).ok());
    EXPECT_FALSE(g.applyThrow(sticks(2, 0b0011)).ok());  // a move is due
    const auto illegal = g.applyMove(Move{1, 3, 3, 0});   // onto its own piece
    EXPECT_FALSE(illegal.ok());
    EXPECT_FALSE(illegal.error().message.empty());
    EXPECT_FALSE(g.applyMove(Move{9, 12, 12, 0}).ok());   // the wrong distance
    EXPECT_FALSE(g.applyMove(Move::pass()).ok());          // a move exists
    EXPECT_EQ(g.phase(), Phase::Move);
    EXPECT_TRUE(g.record().plies.empty());
    EXPECT_EQ(g.position(), startPosition(RulesetId::Standard));
}

TEST(Game, ImpossibleThrowsAreRejected) {
    Game standard(RulesetId::Standard);
    EXPECT_FALSE(standard.applyThrow(sticks(6, 0)).ok());       // standard counts none up as 5
    EXPECT_FALSE(standard.applyThrow(sticks(2, 0b0001)).ok());  // one stick up counts 1, not 2
    EXPECT_FALSE(standard.applyThrow(sticks(1, 0b0000)).ok());
    EXPECT_FALSE(standard.applyThrow(sticks(0, 0)).ok());
    EXPECT_FALSE(standard.applyThrow(sticks(4, 0b10111)).ok());  // a fifth stick
    EXPECT_EQ(standard.phase(), Phase::Throw);
    EXPECT_TRUE(standard.applyThrow(sticks(5, 0)).ok());

    Game jequier(RulesetId::Jequier);
    EXPECT_FALSE(jequier.applyThrow(sticks(5, 0)).ok());
    EXPECT_FALSE(jequier.applyThrow(sticks(3, 0b0011)).ok());
    EXPECT_TRUE(jequier.record().opening.empty());
    EXPECT_TRUE(jequier.applyThrow(sticks(6, 0)).ok());

    Game bell(RulesetId::Bell);
    EXPECT_FALSE(bell.applyThrow(die(5)).ok());
    EXPECT_FALSE(bell.applyThrow(die(0)).ok());
    EXPECT_FALSE(bell.applyThrow(sticks(2, 0b0011)).ok());  // a die has no sticks
    EXPECT_TRUE(bell.applyThrow(die(4)).ok());
}

TEST(Game, JequierOpeningSecondSeatThrowsTheOne) {
    Game g(RulesetId::Jequier);
    EXPECT_FALSE(g.playerOf(0).has_value());
    EXPECT_FALSE(g.playerOf(1).has_value());
    EXPECT_FALSE(g.applyMove(Move{9, 10, 10, 0}).ok());  // nothing moves during the opening
    // Seats alternate whatever they throw: 4 and 6 give no extra throw in the opening.
    const Throw throws[] = {sticks(4, 0b1111), sticks(6, 0), sticks(2, 0b0101), sticks(1, 0b1000)};
    const int seats[] = {0, 1, 0, 1};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(g.phase(), Phase::Opening);
        EXPECT_EQ(g.seatToAct(), seats[i]) << i;
        const auto ev = g.applyThrow(throws[i]);
        ASSERT_TRUE(ev.ok()) << ev.error().message;
        EXPECT_TRUE(ev->openingThrow);
        EXPECT_EQ(ev->seat, seats[i]);
        EXPECT_EQ(ev->openingDecided, i == 3);
        EXPECT_EQ(g.lastThrow(), throws[i]);
    }
    // Seat 1 threw the 1: it is player 2, moved 10->11 and throws again.
    //   1 2 1 2 1 2 1 2 1 .    squares  1..10
    //   . . . . . . . . . 2    squares 20..11
    //   . . . . . . . . . .    squares 21..30   (jequier, player 2 to throw, borne off 0:0)
    EXPECT_EQ(formatPosition(g.position()), "jequier:121212121.2...................:2:0:0");
    EXPECT_EQ(g.playerOf(1), Player::Two);
    EXPECT_EQ(g.playerOf(0), Player::One);
    EXPECT_EQ(g.seatOf(Player::Two), 1);
    EXPECT_EQ(g.seatOf(Player::One), 0);
    EXPECT_EQ(g.seatToAct(), 1);
    ASSERT_EQ(g.record().opening.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(g.record().opening[i], throws[i]);
    EXPECT_TRUE(g.record().plies.empty());

    // Player 2 (seat 1) throws a 2 and moves 11-13; then seat 0, player 1, throws.
    ASSERT_TRUE(g.applyThrow(sticks(2, 0b1001)).ok());
    EXPECT_EQ(legalMovesOf(g), (Moves{"8-10", "11-13"}));
    ASSERT_TRUE(g.applyMove(parsed(g, 2, "11-13")).ok());
    EXPECT_EQ(formatPosition(g.position()), "jequier:121212121...2.................:1:0:0");
    EXPECT_EQ(g.seatToAct(), 0);
    EXPECT_EQ(g.record().plies[0].player, Player::Two);
}

TEST(Game, JequierOpeningFirstSeatThrowsTheOneAtOnce) {
    Game g(RulesetId::Jequier);
    const auto ev = g.applyThrow(sticks(1, 0b0001));
    ASSERT_TRUE(ev.ok());
    EXPECT_TRUE(ev->openingDecided);
    EXPECT_EQ(ev->seat, 0);
    EXPECT_EQ(g.playerOf(0), Player::Two);
    EXPECT_EQ(g.playerOf(1), Player::One);
    EXPECT_EQ(g.seatOf(Player::Two), 0);
    EXPECT_EQ(g.seatToAct(), 0);
    EXPECT_EQ(g.phase(), Phase::Throw);
    EXPECT_EQ(formatPosition(g.position()), "jequier:121212121.2...................:2:0:0");
}

/// The turn after a pass with `v`, by RULES.md: standard keeps it after 1, 4, 5 (rule 9);
/// Jéquier loses it (rule 7); Bell always hands it over (rule 2).
Player turnAfterPass(RulesetId id, Player mover, int v) {
    if (id == RulesetId::Standard && (v == 1 || v == 4 || v == 5)) return mover;
    return opponent(mover);
}

TEST(Game, AutoPassWhenAThrowHasNoLegalMove) {
    for (RulesetId id : {RulesetId::Standard, RulesetId::Jequier, RulesetId::Bell}) {
        const Ruleset& r = ruleset(id);
        int passes = 0;
        for (std::uint64_t seed = 1; seed <= 60 && passes < 20; ++seed) {
            Rng rng(seed);
            Game g(id);
            while (g.phase() == Phase::Opening) ASSERT_TRUE(g.applyThrow(rng.throwOutcome(r).throw_).ok());
            for (int ply = 0; ply < 2000 && g.phase() != Phase::Over; ++ply) {
                const Throw t = rng.throwOutcome(r).throw_;
                const Position before = g.position();
                MoveList expected;
                generateMoves(before, t.value, expected);
                const std::size_t pliesBefore = g.record().plies.size();
                const auto ev = g.applyThrow(t);
                ASSERT_TRUE(ev.ok()) << ev.error().message;
                if (expected.empty()) {
                    ++passes;
                    EXPECT_TRUE(ev->noMove);
                    ASSERT_EQ(g.record().plies.size(), pliesBefore + 1);
                    EXPECT_TRUE(g.record().plies.back().move.isPass());
                    EXPECT_EQ(g.position().board, before.board);
                    EXPECT_EQ(g.position().turn, turnAfterPass(id, before.turn, t.value))
                        << formatPosition(before) << " throw " << int(t.value);
                    EXPECT_EQ(ev->keepsTurn, g.position().turn == before.turn);
                    EXPECT_NE(g.phase(), Phase::Move);
                    continue;
                }
                EXPECT_FALSE(ev->noMove);
                ASSERT_EQ(g.phase(), Phase::Move);
                EXPECT_EQ(g.legalMoves().size(), expected.size());
                ASSERT_TRUE(g.applyMove(g.legalMoves()[static_cast<int>(rng.below(expected.size()))]).ok());
            }
        }
        EXPECT_GT(passes, 0) << r.key << ": no pass happened in the sample games";
    }
}

TEST(Game, FinishedGameRefusesThrowsAndMoves) {
    Rng rng(7);
    Game g(RulesetId::Standard);
    for (int ply = 0; ply < 5000 && g.phase() != Phase::Over; ++ply) {
        ASSERT_TRUE(g.applyThrow(rng.throwOutcome(g.rules()).throw_).ok());
        if (g.phase() == Phase::Move) {
            ASSERT_TRUE(g.applyMove(g.legalMoves()[0]).ok());
        }
    }
    ASSERT_EQ(g.phase(), Phase::Over);
    EXPECT_NE(g.outcome(), Outcome::Ongoing);
    EXPECT_EQ(g.outcome(), outcome(g.position()));
    EXPECT_TRUE(g.position().borneOff(Player::One) == 5 || g.position().borneOff(Player::Two) == 5);
    EXPECT_FALSE(g.applyThrow(sticks(2, 0b0011)).ok());
    EXPECT_FALSE(g.applyMove(Move::pass()).ok());
}

}  // namespace
}  // namespace senet::test
