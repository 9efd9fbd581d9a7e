// Fair, checkable throws (server/PROTOCOL.md "Fairness"): the server commits to a secret seed by
// publishing its SHA-256; every throw is HMAC-SHA-256(server seed, clientSeed0|clientSeed1|index)
// mapped without bias to a chance outcome. OpenSSL only.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace senet::fairness {

/// Bytes of a server seed.
inline constexpr std::size_t kServerSeedBytes = 32;
/// Longest client seed, in characters.
inline constexpr std::size_t kMaxClientSeed = 64;

/// `n` bytes from OpenSSL's CSPRNG (RAND_bytes). Throws std::runtime_error if it fails.
std::vector<std::uint8_t> randomBytes(std::size_t n);
/// A URL-safe random token: `bytes` random bytes in unpadded base64url (22 chars for 16 bytes).
std::string randomToken(std::size_t bytes);

/// Unpadded base64url of `size` bytes (ceil(size * 4 / 3) characters of A-Z a-z 0-9 - _).
std::string toBase64Url(const std::uint8_t* data, std::size_t size);

/// Lower-case hex of bytes.
std::string toHex(const std::uint8_t* data, std::size_t size);
inline std::string toHex(const std::vector<std::uint8_t>& v) { return toHex(v.data(), v.size()); }
/// Bytes of a hex string (either case); nullopt for odd length or a non-hex character.
std::optional<std::vector<std::uint8_t>> fromHex(std::string_view hex);

/// SHA-256 of `data`, 32 raw bytes.
std::array<std::uint8_t, 32> sha256(std::string_view data);
/// Lower-case hex SHA-256 of `data` (64 characters). Used for the commitment and stored secrets.
std::string sha256Hex(std::string_view data);
/// The commitment to a server seed: hex SHA-256 of its raw bytes.
std::string commitment(const std::vector<std::uint8_t>& serverSeed);

/// Whether `seed` is a valid client seed: 0..64 characters of [0-9A-Za-z_-] (empty = none given).
bool isValidClientSeed(std::string_view seed);

/// The chance outcome index (0..outcomeCount-1) of throw number `throwIndex` (0-based):
/// HMAC-SHA-256(key = serverSeed, message = seed0 "|" seed1 "|" decimal(throwIndex)), first byte
/// masked to the low bits. `outcomeCount` must be a power of two (16 sticks patterns or 4 die
/// faces), so the mapping is unbiased.
int outcomeIndex(const std::vector<std::uint8_t>& serverSeed, std::string_view clientSeed0, std::string_view clientSeed1,
                 std::uint64_t throwIndex, int outcomeCount);

/// Constant-time comparison of two equal-length strings (false when lengths differ).
bool constantTimeEqual(std::string_view a, std::string_view b);

}  // namespace senet::fairness
