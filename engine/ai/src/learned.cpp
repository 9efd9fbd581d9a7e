// The trained networks of Evaluation::Learned, one per ruleset that has one. The weights files
// are written by senet-train-value (tools/train_value.cpp); README "The learned evaluation"
// gives the command that produced each.
#include <cstring>

#include "senet/ai_search.hpp"
#include "value_net.hpp"

namespace senet::ai {

namespace detail {

namespace {

constexpr float kStandardWeights[] =
#include "weights_standard.inc"
    ;
constexpr float kJequierWeights[] =
#include "weights_jequier.inc"
    ;
constexpr float kKendallWeights[] =
#include "weights_kendall.inc"
    ;
constexpr float kPiccioneWeights[] =
#include "weights_piccione.inc"
    ;

static_assert(sizeof(kStandardWeights) == sizeof(NetWeights), "weights file does not match the network's shape");
static_assert(sizeof(kJequierWeights) == sizeof(NetWeights), "weights file does not match the network's shape");
static_assert(sizeof(kKendallWeights) == sizeof(NetWeights), "weights file does not match the network's shape");
static_assert(sizeof(kPiccioneWeights) == sizeof(NetWeights), "weights file does not match the network's shape");

NetWeights load(const float* flat) {
    NetWeights w;
    std::memcpy(static_cast<void*>(&w), flat, sizeof w);
    return w;
}

}  // namespace

const NetWeights* learnedWeights(RulesetId id) {
    static const NetWeights standard = load(kStandardWeights);
    static const NetWeights jequier = load(kJequierWeights);
    static const NetWeights kendall = load(kKendallWeights);
    static const NetWeights piccione = load(kPiccioneWeights);
    switch (id) {
        case RulesetId::Standard: return &standard;
        case RulesetId::Jequier: return &jequier;
        case RulesetId::Kendall: return &kendall;
        case RulesetId::Piccione: return &piccione;
        default: return nullptr;
    }
}

}  // namespace detail

bool hasLearnedEvaluation(RulesetId id) { return detail::learnedWeights(id) != nullptr; }

}  // namespace senet::ai
