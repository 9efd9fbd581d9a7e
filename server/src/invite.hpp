// The invite token of a friend game, derived from the creator's seat secret, so that whoever
// holds that seat can get the unused invite again on any device (API.md
// "POST /api/games/{id}/invite") while the server still stores neither in the clear.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>
#include <string>

namespace senet::server {

/// The invite token of game `gameId` whose creator holds `seatSecret`:
/// base64url (unpadded, 43 characters) of HMAC-SHA-256(key = the secret, "senet invite " + id).
/// Knowing the invite tells nothing of the secret. Throws std::runtime_error if OpenSSL fails.
inline std::string deriveInviteToken(const std::string& seatSecret, const std::string& gameId) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const std::string message = "senet invite " + gameId;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), seatSecret.data(), static_cast<int>(seatSecret.size()),
              reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &len) || len != 32)
        throw std::runtime_error("HMAC-SHA-256 failed");
    std::string out;
    unsigned acc = 0;
    int bits = 0;
    for (unsigned i = 0; i < len; ++i) {
        acc = (acc << 8) | mac[i];
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out.push_back(kAlphabet[(acc >> bits) & 63]);
        }
    }
    if (bits > 0) out.push_back(kAlphabet[(acc << (6 - bits)) & 63]);
    return out;
}

}  // namespace senet::server
