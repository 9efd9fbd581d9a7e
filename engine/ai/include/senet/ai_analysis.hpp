// Analysis of a finished (or unfinished) game: the probability that player 1 wins at every
// position of the game, and for every ply with a choice the move the search prefers and the
// win probability the move played gave away. Plain C++, no I/O. engine/ai/README.md "Analysis".
//
// Indexing follows the record (engine/include/senet/record.hpp) and `senet replay`: a ply is one
// throw with the move made for it, a pass included. Position 0 is the position before the first
// ply (in Jéquier, after the opening throws), position i the position after ply i (1-based), so
// a record of N plies has N + 1 positions and N + 1 win probabilities.
#pragma once

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
};

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
double winProbability(const Position& p, int depth, Evaluation kind = Evaluation::Learned);

}  // namespace senet::ai

namespace senet::ai {

/// Analyses a game record given as JSON (the format of record.hpp, or the verifiable record
/// of GET /api/games/{id}/record, whose "ending" {"reason", "player"} gives the result of a
/// resignation or claim) and returns the analysis as one line of JSON:
///   {"ruleset":"standard","depth":3,"result":"win 1"|"win 2"|"draw"|null,
///    "winProbability":[p0, p1, ...],
///    "plies":[{"ply":1,"player":1,"throw":2,"move":"9-11","legalMoves":3,  (no "throw" for a
///              Piccione step that spends a remainder, as in the record)
///              "best":"7-9"|null,"bestWinProbability":0.52,"loss":0.03}, ...]}
/// Probabilities are rounded to 4 decimals; "best" is null when there was no choice (fewer
/// than two legal moves); "result" is null for a game not over. Errors: malformed JSON or a
/// record that does not replay (parseRecord's message), a bad depth.
Result<std::string> analyseRecordJson(std::string_view json, const AnalysisOptions& options = {});

}  // namespace senet::ai
