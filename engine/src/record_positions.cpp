#include "senet/record_positions.hpp"

namespace senet {

std::vector<Position> recordPositions(const Record& record) {
    std::vector<Position> out;
    out.reserve(record.plies.size() + 1);
    out.push_back(startPosition(record.rulesetId));
    for (const Ply& ply : record.plies) out.push_back(applyMove(out.back(), ply.throw_.value, ply.move));
    return out;
}

}  // namespace senet
