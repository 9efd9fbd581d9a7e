// Analysis of a finished (or unfinished) game: the probability that player 1 wins at every
// position of the game, and for every ply with a choice the move the search prefers and the
// win probability the move played gave away. Plain C++, no I/O. engine/ai/README.md "Analysis".
//
// Indexing follows the record (engine/include/senet/record.hpp) and `senet replay`: a ply is one
// throw with the move made for it, a pass included. Position 0 is the position before the first
// ply (in Jéquier, after the opening throws), position i the position after ply i (1-based), so
// a record of N plies has N + 1 positions and N + 1 win probabilities.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "senet/ai_search.hpp"
#include "senet/record.hpp"

namespace senet::ai {

/// The search budget of one analysis.
struct AnalysisOptions {
    /// Plies searched below every position (the depth of `prunedExpectimax`); 0 means
    /// `defaultAnalysisDepth(ruleset)`. At most kMaxAnalysisDepth.
    int depth = 0;
    /// The evaluation at the leaves: the expert's (learned network; Full for Bell).
    Evaluation evaluation = Evaluation::Learned;
    /// Exact values (the endgame tables, senet/ai_tables.hpp): a position they know is valued
    /// exactly and marked so, and the search below every other one uses them. May be null.
    const ExactValues* exact = nullptr;
};

/// How a move is marked by the win chance it gave away (PlyAnalysis::loss), engine/ai/README.md
/// "Mistakes, accuracy and luck": a loss of at least 0.02 is an inaccuracy, 0.05 a mistake,
/// 0.10 a blunder.
enum class Mark : std::uint8_t { None, Inaccuracy, Mistake, Blunder };
inline constexpr double kInaccuracyLoss = 0.02;
inline constexpr double kMistakeLoss = 0.05;
inline constexpr double kBlunderLoss = 0.10;
/// The mark of a move that gave away `loss` (a win probability, >= 0).
Mark markOf(double loss);
/// "inaccuracy", "mistake", "blunder"; "" for Mark::None.
std::string_view markName(Mark mark);
/// The accuracy, in [0, 100], of one decision that gave away `loss` of win probability:
/// 103.1668 * exp(-4.354 * loss) - 3.1669, clamped (the curve Lichess publishes for its accuracy,
/// on win chances in percent: 100 for a best move, about 91 for a loss of 0.02, 64 for 0.10).
double moveAccuracy(double loss);

/// The deepest analysis accepted (the cost grows about tenfold per ply).
inline constexpr int kMaxAnalysisDepth = 4;

/// The depth used when AnalysisOptions::depth is 0: chosen so that a typical game of the
/// ruleset is analysed in well under a few seconds on one core (engine/ai/README.md).
int defaultAnalysisDepth(RulesetId id);

/// What the analysis says about one ply.
struct PlyAnalysis {
    int ply = 0;             ///< 1-based: the ply leading from position ply-1 to position ply
    Player player = Player::One;  ///< who threw and moved
    int throwValue = 0;
    Move move{};             ///< the move played (a pass when there was none)
    int legalMoves = 0;      ///< legal moves for this throw (0: a pass)
    /// The search's best move for this throw, when there was a choice (two or more legal
    /// moves); the move played when it is one of the best.
    std::optional<Move> best;
    /// Probability that player 1 wins after `best` (after `move` when there was no choice).
    double bestWinProbability = 0;
    /// Win probability of the mover given away by `move` against `best`: >= 0, 0 without a choice.
    double loss = 0;
    /// markOf(loss); None without a choice.
    Mark mark = Mark::None;
    /// The throw's luck for the mover: its win probability once the throw is known (with the
    /// best move for it, each move valued one ply shallower than the curve, as the chance node
    /// before it values them) minus before it (the position's value as a chance node), in
    /// [-1, 1]; its mean over the throws, weighted by their odds, is 0. 0 for a Piccione step
    /// that spends a remainder (no throw).
    double luck = 0;
    /// Whether every value the ply compared is exact (table values or finished games): the value
    /// after `move` (GameAnalysis::exact[ply]) and those of the other moves, so bestWinProbability
    /// and loss too. False when one of them is an estimate, even if the move played is exact.
    bool exact = false;
};

/// One player's figures over a game.
struct PlayerSummary {
    Player player = Player::One;
    int decisions = 0;      ///< plies with two or more legal moves
    int inaccuracies = 0;   ///< decisions marked Mark::Inaccuracy
    int mistakes = 0;
    int blunders = 0;
    double loss = 0;        ///< win probability given away, summed over the decisions
    /// Mean moveAccuracy over the decisions, in [0, 100]; 100 with no decision.
    double accuracy = 100;
    /// The luck of the player's throws, summed (in win probability; > 0 lucky).
    double luck = 0;
};

/// The whole analysis.
struct GameAnalysis {
    RulesetId rulesetId = RulesetId::Standard;
    int depth = 0;  ///< the depth used
    /// Probability that player 1 wins (a draw counted as half) at position 0 and after every
    /// ply: plies.size() + 1 values in [0, 1]. The last is the result when the game is over
    /// (1 player 1 won, 0 player 2 won, 0.5 a draw), else the search's value of the last position.
    std::vector<double> winProbability;
    std::vector<PlyAnalysis> plies;
    /// The result the last entry stands for; Outcome::Ongoing when the game is not over.
    Outcome result = Outcome::Ongoing;
    std::uint64_t searches = 0;  ///< chance nodes searched from (one per position after a move)
    /// Whether winProbability[i] is exact (a table value or a finished game): plies.size() + 1.
    std::vector<bool> exact;
    /// Player 1's and player 2's figures.
    std::array<PlayerSummary, 2> players{};
};

/// Analyses `record` (which must replay: see `replay`). `ending` gives the result of a game
/// ended off the board (a resignation or claim: Outcome::WinOne or WinTwo); the board's own
/// outcome takes precedence when the plies end the game. Errors: a record that does not replay
/// (the replay error), a depth outside 0..kMaxAnalysisDepth, an `ending` of Ongoing.
Result<GameAnalysis> analyseGame(const Record& record, const AnalysisOptions& options = {},
                                 std::optional<Outcome> ending = std::nullopt);

/// Probability that player 1 wins at the chance node `p` (the throw still to come), searched
/// `depth` plies deep with `kind` at the leaves: (1 + v) / 2 for the mover's value v, mirrored
/// for player 2. A finished game gives 1, 0 or 0.5.
double winProbability(const Position& p, int depth, Evaluation kind = Evaluation::Learned,
                      const ExactValues* exact = nullptr);

/// One legal move with what it is worth (a hint).
struct MoveValue {
    Move move{};
    /// The probability that the mover wins after the move, in [0, 1].
    double winChance = 0;
    /// Whether winChance is exact (a table value or a finished game).
    bool exact = false;
};

/// Every legal move of `p` for `throwValue` (a pass when there is none; in Piccione every single
/// step), valued as the analysis values them (`options`' depth and exact values), best first
/// (equal values in move generation order). `throwValue` must be legal for `p` (kNoThrow
/// for a Piccione remainder); errors: a throw the position cannot take, a finished game, a bad
/// depth.
Result<std::vector<MoveValue>> rankMoves(const Position& p, int throwValue, const AnalysisOptions& options = {});

}  // namespace senet::ai

namespace senet::ai {

/// Analyses a game record given as JSON (the format of record.hpp, or the verifiable record
/// of GET /api/games/{id}/record, whose "ending" {"reason", "player"} gives the result of a
/// resignation or claim) and returns the analysis as one line of JSON:
///   {"ruleset":"standard","depth":3,"result":"win 1"|"win 2"|"draw"|null,
///    "winProbability":[p0, p1, ...],
///    "plies":[{"ply":1,"player":1,"throw":2,"move":"9-11","legalMoves":3,  (no "throw" for a
///              Piccione step that spends a remainder, as in the record)
///              "best":"7-9"|null,"bestWinProbability":0.52,"loss":0.03,
///              "mark":"inaccuracy"|"mistake"|"blunder"|null,"luck":-0.04,"exact":false}, ...],
///    "exact":[false, ..., true],  (per position: winProbability[i] is a table value or a result)
///    "players":[{"player":1,"decisions":40,"accuracy":91.3,"loss":0.21,"luck":-0.12,
///                "inaccuracies":3,"mistakes":1,"blunders":0}, {"player":2,...}],
///    "thresholds":{"inaccuracy":0.02,"mistake":0.05,"blunder":0.1}}
/// Probabilities are rounded to 4 decimals; "best" is null when there was no choice (fewer
/// than two legal moves); "result" is null for a game not over. Errors: malformed JSON or a
/// record that does not replay (parseRecord's message), a bad depth.
Result<std::string> analyseRecordJson(std::string_view json, const AnalysisOptions& options = {});

}  // namespace senet::ai
