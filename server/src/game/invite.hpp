// The invite token of a friend game, derived from the creator's seat secret, so that whoever
// holds that seat can get the unused invite again on any device (API.md
// "POST /api/games/{id}/invite") while the server still stores neither in the clear.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "senet/fairness.hpp"

#include <stdexcept>
#include <string>

namespace senet::server {

/// The invite token of game `gameId` whose creator holds `seatSecret`:
/// base64url (unpadded, 43 characters) of HMAC-SHA-256(key = the secret, "senet invite " + id).
/// Knowing the invite tells nothing of the secret. Throws std::runtime_error if OpenSSL fails.
inline std::string deriveInviteToken(const std::string& seatSecret, const std::string& gameId) {
    const std::string message = "senet invite " + gameId;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), seatSecret.data(), static_cast<int>(seatSecret.size()),
              reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &len) || len != 32)
        throw std::runtime_error("HMAC-SHA-256 failed");
    return fairness::toBase64Url(mac, len);
}

}  // namespace senet::server
