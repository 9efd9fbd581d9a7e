// Seeded pseudo-random numbers for self-play, tests and the AI: the same seed gives the same
// sequence on every platform (std::mt19937_64 is fully specified by the standard; the standard
// distributions are not, so bounded draws are done here). Not for the server's throws, which
// come from a cryptographic source.
#pragma once

#include <cstdint>
#include <random>

#include "senet/ruleset.hpp"

namespace senet {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}

    /// 64 uniformly random bits.
    std::uint64_t next() { return engine_(); }

    /// A uniform integer in [0, bound), bound >= 1, without modulo bias (Lemire's method).
    std::uint32_t below(std::uint32_t bound) {
        std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(engine_())) * bound;
        if (static_cast<std::uint32_t>(m) < bound) {
            const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
            while (static_cast<std::uint32_t>(m) < threshold)
                m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(engine_())) * bound;
        }
        return static_cast<std::uint32_t>(m >> 32);
    }

    /// A chance outcome of the ruleset drawn with its exact probability.
    const ChanceOutcome& throwOutcome(const Ruleset& rules) {
        // Every ruleset's outcomes are equally weighted (16 stick patterns, 4 die faces).
        return rules.outcomes[below(static_cast<std::uint32_t>(rules.outcomeCount))];
    }

private:
    std::mt19937_64 engine_;
};

}  // namespace senet
