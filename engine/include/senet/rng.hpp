// Seeded pseudo-random numbers for self-play, tests and the AI: the same seed gives the same
// sequence on every platform. The generator is xoshiro256** (Blackman & Vigna, 2018) seeded by
// splitmix64: fully specified, so portable, and about three times cheaper per draw than
// std::mt19937_64, which matters in random playouts. The standard distributions are not portable
// across standard libraries, so bounded draws are done here. Not for the server's throws, which
// come from a cryptographic source.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

#include "senet/ruleset.hpp"

namespace senet {

class Rng {
public:
    /// Any seed, 0 included, gives a good stream.
    explicit Rng(std::uint64_t seed) {
        for (auto& word : state_) {  // splitmix64
            seed += 0x9e3779b97f4a7c15ULL;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            word = z ^ (z >> 31);
        }
    }

    /// 64 uniformly random bits.
    std::uint64_t next() {
        const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = std::rotl(state_[3], 45);
        return result;
    }

    /// A uniform integer in [0, bound), without modulo bias (Lemire's method). `bound` must be
    /// at least 1 (asserted in debug builds).
    std::uint32_t below(std::uint32_t bound) {
        assert(bound >= 1);
        std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * bound;
        if (static_cast<std::uint32_t>(m) < bound) {
            const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
            while (static_cast<std::uint32_t>(m) < threshold)
                m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * bound;
        }
        return static_cast<std::uint32_t>(m >> 32);
    }

    /// A chance outcome of the ruleset drawn with its exact probability.
    const ChanceOutcome& throwOutcome(const Ruleset& rules) {
        // Every ruleset's outcomes are equally weighted (16 stick patterns, 4 die faces).
        return rules.outcomes[below(static_cast<std::uint32_t>(rules.outcomeCount))];
    }

private:
    std::uint64_t state_[4];
};

}  // namespace senet
