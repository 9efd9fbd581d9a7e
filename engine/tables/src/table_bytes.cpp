// A table as bytes and back (format in senet/endgame_table.hpp, toBytes). Every field is little
// endian; a buffer is accepted only when every byte of it is accounted for and the checksum holds.
#include <bit>
#include <cmath>
#include <cstring>

#include "senet/endgame_table.hpp"
#include "table_index.hpp"

namespace senet::tables {

namespace {

constexpr std::uint8_t kMagic[4] = {'S', 'N', 'T', 'B'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 32;
constexpr std::size_t kLayerBytes = 32;
constexpr std::size_t kChecksumBytes = 8;

std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::uint8_t b : bytes) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    return h;
}

void put(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void putDouble(std::vector<std::uint8_t>& out, double d) { put(out, std::bit_cast<std::uint64_t>(d), 8); }

std::uint64_t get(std::span<const std::uint8_t> in, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t{in[at + i]} << (8 * i);
    return v;
}
double getDouble(std::span<const std::uint8_t> in, std::size_t at) { return std::bit_cast<double>(get(in, at, 8)); }

}  // namespace

std::vector<std::uint8_t> EndgameTable::toBytes() const {
    std::vector<std::uint8_t> out;
    out.reserve(kHeaderBytes + kLayerBytes * stats_.size() + 4 * values_.size() + kChecksumBytes);
    for (std::uint8_t c : kMagic) out.push_back(c);
    put(out, kVersion, 4);
    put(out, static_cast<std::uint8_t>(spec_.ruleset), 1);
    put(out, static_cast<std::uint8_t>(spec_.maxPerSide), 1);
    put(out, static_cast<std::uint8_t>(spec_.maxTotal), 1);
    put(out, 0, 1);
    put(out, stats_.size(), 4);
    putDouble(out, spec_.tolerance);
    put(out, static_cast<std::uint32_t>(spec_.maxSweeps), 4);
    put(out, 0, 4);
    for (const LayerStats& l : stats_) {
        put(out, static_cast<std::uint8_t>(l.mover), 1);
        put(out, static_cast<std::uint8_t>(l.other), 1);
        put(out, 0, 2);
        put(out, l.entries, 4);
        put(out, l.sweeps, 4);
        put(out, 0, 4);
        putDouble(out, l.seconds);
        putDouble(out, l.residual);
    }
    for (std::uint32_t v : values_) put(out, v, 4);
    put(out, fnv1a(out), 8);
    return out;
}

Result<EndgameTable> EndgameTable::fromBytes(std::span<const std::uint8_t> in) {
    if (in.size() < kHeaderBytes + kChecksumBytes) return fail("the table is too short for its header");
    if (std::memcmp(in.data(), kMagic, 4) != 0) return fail("not an endgame table (wrong magic)");
    if (get(in, 4, 4) != kVersion)
        return fail("endgame table format version " + std::to_string(get(in, 4, 4)) + ", expected " + std::to_string(kVersion));
    TableSpec spec;
    if (in[8] >= kRulesetCount || !supportsRuleset(static_cast<RulesetId>(in[8])))
        return fail("the table's ruleset id " + std::to_string(in[8]) + " is not standard, jequier or kendall");
    spec.ruleset = static_cast<RulesetId>(in[8]);
    const int n = tableSquares(spec.ruleset);
    spec.maxPerSide = in[9];
    spec.maxTotal = in[10];
    spec.tolerance = getDouble(in, 16);
    const std::uint64_t sweeps = get(in, 24, 4);
    if (spec.maxPerSide < 1 || spec.maxPerSide > 5 || spec.maxTotal < 2 || spec.maxTotal > 10 || in[11] != 0 ||
        !(spec.tolerance > 0) || sweeps < 1 || sweeps > 0x7fffffff || get(in, 28, 4) != 0)
        return fail("the table's header is malformed");
    spec.maxSweeps = static_cast<int>(sweeps);
    const auto order = detail::layerOrder(spec);
    const std::uint64_t layerCount = get(in, 12, 4);
    if (layerCount != order.size()) return fail("the table's layer count does not match its spec");
    std::uint64_t entries = 0;
    for (auto [m, o] : order) entries += detail::layerEntries(n, m, o);
    const std::uint64_t expected = kHeaderBytes + kLayerBytes * layerCount + 4 * entries + kChecksumBytes;
    if (in.size() != expected)
        return fail("the table has " + std::to_string(in.size()) + " bytes, its layers need " + std::to_string(expected));
    const std::size_t body = in.size() - kChecksumBytes;
    if (fnv1a(in.first(body)) != get(in, body, 8)) return fail("the table's checksum does not match (damaged file)");
    EndgameTable t;
    t.spec_ = spec;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t at = kHeaderBytes + kLayerBytes * k;
        LayerStats l;
        l.mover = in[at];
        l.other = in[at + 1];
        l.entries = static_cast<std::uint32_t>(get(in, at + 4, 4));
        l.sweeps = static_cast<std::uint32_t>(get(in, at + 8, 4));
        l.seconds = getDouble(in, at + 16);
        l.residual = getDouble(in, at + 24);
        if (l.mover != order[k].first || l.other != order[k].second || l.entries != detail::layerEntries(n, l.mover, l.other) ||
            get(in, at + 2, 2) != 0 || get(in, at + 12, 4) != 0)
            return fail("the table's layer record " + std::to_string(k + 1) + " does not match its spec");
        t.stats_.push_back(l);
    }
    t.values_.resize(entries);
    const std::size_t valuesAt = kHeaderBytes + kLayerBytes * layerCount;
    for (std::size_t i = 0; i < entries; ++i) t.values_[i] = static_cast<std::uint32_t>(get(in, valuesAt + 4 * i, 4));
    t.indexLayers();
    return t;
}

}  // namespace senet::tables
