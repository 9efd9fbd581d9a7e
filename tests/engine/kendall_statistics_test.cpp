// Random self-play statistics of Kendall against the published figures of the public solved
// implementation of the same reading (devinokeefe/senet, "Modern Kendall, 5 pieces"; RULES.md
// "Kendall"): over 200,000 random games there, the mean game lasts 181.3 throws and player 1
// wins 49.2 %. A seeded run of as many games here must agree within four standard errors of the
// difference of two independent estimates (each side's error estimated from this run's spread).
#include <cmath>

#include "senet/perft.hpp"
#include "senet_test_support.hpp"

namespace senet::test {
namespace {

TEST(KendallStatistics, RandomGamesMatchTheSolvedImplementation) {
    constexpr int kGames = 200'000;
    constexpr double kTheirMeanThrows = 181.3;
    constexpr double kTheirWinRateOne = 0.492;
    Rng rng(20261202);
    double sum = 0, sumSquares = 0;
    int winsOne = 0;
    for (int g = 0; g < kGames; ++g) {
        const PlayoutResult r = randomPlayout(startPosition(RulesetId::Kendall), rng);
        ASSERT_NE(r.outcome, Outcome::Ongoing);
        ASSERT_NE(r.outcome, Outcome::Draw);
        EXPECT_EQ(r.throws, r.plies);
        sum += r.throws;
        sumSquares += static_cast<double>(r.throws) * r.throws;
        winsOne += r.outcome == Outcome::WinOne;
    }
    const double mean = sum / kGames;
    const double sd = std::sqrt(sumSquares / kGames - mean * mean);
    // Both means come from kGames games with (about) this spread: the difference's error is
    // sqrt(2) times one estimate's. The published figures are rounded to 0.1 and 0.1 %.
    const double meanTolerance = 4 * std::sqrt(2.0) * sd / std::sqrt(kGames) + 0.05;
    const double rate = static_cast<double>(winsOne) / kGames;
    const double rateTolerance = 4 * std::sqrt(2.0) * std::sqrt(rate * (1 - rate) / kGames) + 0.0005;
    EXPECT_NEAR(mean, kTheirMeanThrows, meanTolerance) << "standard deviation " << sd;
    EXPECT_NEAR(rate, kTheirWinRateOne, rateTolerance);
    ::testing::Test::RecordProperty("mean_throws", std::to_string(mean));
    ::testing::Test::RecordProperty("win_rate_player_1", std::to_string(rate));
    std::printf("Kendall, %d random games: mean %.2f throws (sd %.1f, tolerance %.2f), player 1 wins %.2f %% (tolerance %.2f)\n",
                kGames, mean, sd, meanTolerance, 100 * rate, 100 * rateTolerance);
}

}  // namespace
}  // namespace senet::test
