#include "senet/fairness.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <memory>
#include <stdexcept>

namespace senet::fairness {

std::vector<std::uint8_t> randomBytes(std::size_t n) {
    std::vector<std::uint8_t> out(n);
    if (n && RAND_bytes(out.data(), static_cast<int>(n)) != 1) throw std::runtime_error("RAND_bytes failed");
    return out;
}

std::string randomToken(std::size_t bytes) {
    const auto raw = randomBytes(bytes);
    return toBase64Url(raw.data(), raw.size());
}

std::string toBase64Url(const std::uint8_t* data, std::size_t size) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (std::size_t i = 0; i < size; ++i) {
        acc = (acc << 8) | data[i];
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out.push_back(kAlphabet[(acc >> bits) & 63]);
        }
    }
    if (bits > 0) out.push_back(kAlphabet[(acc << (6 - bits)) & 63]);
    return out;
}

std::string toHex(const std::uint8_t* data, std::size_t size) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(size * 2, '0');
    for (std::size_t i = 0; i < size; ++i) {
        out[2 * i] = kDigits[data[i] >> 4];
        out[2 * i + 1] = kDigits[data[i] & 15];
    }
    return out;
}

std::optional<std::vector<std::uint8_t>> fromHex(std::string_view hex) {
    if (hex.size() % 2) return std::nullopt;
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::vector<std::uint8_t> out(hex.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    return out;
}

std::array<std::uint8_t, 32> sha256(std::string_view data) {
    std::array<std::uint8_t, 32> out{};
    SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data());
    return out;
}

std::string sha256Hex(std::string_view data) {
    const auto h = sha256(data);
    return toHex(h.data(), h.size());
}

std::string commitment(const std::vector<std::uint8_t>& serverSeed) {
    return sha256Hex(std::string_view(reinterpret_cast<const char*>(serverSeed.data()), serverSeed.size()));
}

bool isValidClientSeed(std::string_view seed) {
    if (seed.size() > kMaxClientSeed) return false;
    for (char c : seed)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'))
            return false;
    return true;
}

int outcomeIndex(const std::vector<std::uint8_t>& serverSeed, std::string_view clientSeed0, std::string_view clientSeed1,
                 std::uint64_t throwIndex, int outcomeCount) {
    std::string message;
    message.reserve(clientSeed0.size() + clientSeed1.size() + 24);
    message.append(clientSeed0).push_back('|');
    message.append(clientSeed1).push_back('|');
    message.append(std::to_string(throwIndex));
    // OpenSSL 3's one-shot HMAC() fetches the algorithm on every call, which costs more than
    // the MAC itself; the fetched HMAC is kept (it is immutable and may be shared by threads),
    // and each thread keeps one context with its digest set, re-keyed for every call (a new
    // context per call would fetch SHA-256 again).
    static EVP_MAC* const hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    if (!hmac) throw std::runtime_error("HMAC is not available");
    thread_local const std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)> ctx = [] {
        std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)> c(EVP_MAC_CTX_new(hmac), &EVP_MAC_CTX_free);
        char digest[] = "SHA256";
        const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
        if (c && !EVP_MAC_CTX_set_params(c.get(), params)) c.reset();
        return c;
    }();
    unsigned char mac[EVP_MAX_MD_SIZE];
    std::size_t macLen = 0;
    if (!ctx || !EVP_MAC_init(ctx.get(), serverSeed.data(), serverSeed.size(), nullptr) ||
        !EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(message.data()), message.size()) ||
        !EVP_MAC_final(ctx.get(), mac, &macLen, sizeof mac))
        throw std::runtime_error("HMAC-SHA-256 failed");
    return mac[0] & (outcomeCount - 1);
}

bool constantTimeEqual(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace senet::fairness
