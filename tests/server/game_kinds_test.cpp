// The kinds of a game's row (storage/game_kinds.hpp): each type's strings are exactly the
// stored and wire ones (API.md, PROTOCOL.md), both ways, and no other string parses.
#include <gtest/gtest.h>

#include <string>

#include "storage.hpp"

namespace senet::server {
namespace {

TEST(GameKinds, OpponentStrings) {
    EXPECT_EQ(toString(Opponent::Friend), "friend");
    EXPECT_EQ(toString(Opponent::Computer), "computer");
    EXPECT_EQ(toString(Opponent::Local), "local");
    for (const Opponent o : {Opponent::Friend, Opponent::Computer, Opponent::Local}) EXPECT_EQ(parseOpponent(toString(o)), o);
    for (const char* bad : {"", "Friend", "computer ", "human", "playing", "locals"}) EXPECT_FALSE(parseOpponent(bad)) << bad;
}

TEST(GameKinds, StatusStrings) {
    EXPECT_EQ(toString(GameStatus::Playing), "playing");
    EXPECT_EQ(toString(GameStatus::Over), "over");
    EXPECT_EQ(toString(GameStatus::Expired), "expired");
    for (const GameStatus s : {GameStatus::Playing, GameStatus::Over, GameStatus::Expired}) EXPECT_EQ(parseGameStatus(toString(s)), s);
    for (const char* bad : {"", "Over", "finished", "friend"}) EXPECT_FALSE(parseGameStatus(bad)) << bad;
}

TEST(GameKinds, SeatKinds) {
    EXPECT_EQ(toString(SeatKind::Human), "human");
    EXPECT_EQ(toString(SeatKind::Computer), "computer");
    EXPECT_EQ(seatKindOf(kComputerSeatHash), SeatKind::Computer);
    EXPECT_EQ(seatKindOf("computer"), SeatKind::Computer);  // the stored marker
    EXPECT_EQ(seatKindOf(""), SeatKind::Human);              // a free seat is a person's to take
    EXPECT_EQ(seatKindOf(std::string(64, 'a')), SeatKind::Human);
}

TEST(GameKinds, AStoredStringNoServerWritesIsAStorageError) {
    EXPECT_EQ(storedOpponent("g", "local"), Opponent::Local);
    EXPECT_EQ(storedStatus("g", "expired"), GameStatus::Expired);
    EXPECT_THROW(storedOpponent("g", "tournament"), StorageError);
    EXPECT_THROW(storedStatus("g", "paused"), StorageError);
}

}  // namespace
}  // namespace senet::server
