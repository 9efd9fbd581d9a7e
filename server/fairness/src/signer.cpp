#include "senet/signer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "senet/fairness.hpp"

namespace senet::fairness {

namespace {

using PkeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

/// The text of OpenSSL's last error (and clears the queue), or "unknown error".
std::string opensslError() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (!code) return "unknown OpenSSL error";
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    return buf;
}

std::vector<std::uint8_t> rawPublicKey(EVP_PKEY* key) {
    std::size_t len = kPublicKeyBytes;
    std::vector<std::uint8_t> out(kPublicKeyBytes);
    if (EVP_PKEY_get_raw_public_key(key, out.data(), &len) != 1 || len != kPublicKeyBytes)
        throw std::runtime_error("cannot read the public key: " + opensslError());
    return out;
}

std::string publicPem(EVP_PKEY* key) {
    BioPtr bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!bio || PEM_write_bio_PUBKEY(bio.get(), key) != 1) throw std::runtime_error("cannot write the public key: " + opensslError());
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(n));
}

/// Writes `text` to the new file `path` with mode 0600, whole or not at all: into a temporary
/// file first, then linked to `path`. False (errno set, EEXIST when `path` exists) on failure.
bool writeNewPrivateFile(const std::filesystem::path& path, const std::string& text) {
    const std::filesystem::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    auto failed = [&] {
        const int saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        return false;
    };
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            return failed();
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        ::close(fd);
        return failed();
    }
    if (::close(fd) != 0 || ::link(tmp.c_str(), path.c_str()) != 0) return failed();
    ::unlink(tmp.c_str());
    // The new name is made durable too.
    if (const int dir = ::open(path.parent_path().empty() ? "." : path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

int base64Value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/// Bytes of standard or URL-safe base64 (padding optional); nullopt for any other character.
std::optional<std::vector<std::uint8_t>> fromBase64(std::string_view text) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    std::vector<std::uint8_t> out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        const int v = base64Value(c);
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xff));
        }
    }
    return out;
}

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

Signer Signer::loadOrCreate(const std::filesystem::path& path) {
    const std::string where = path.string() + ": ";
    Signer s;
    PkeyPtr key(nullptr, &EVP_PKEY_free);
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::runtime_error(where + "cannot read the signing key: " + std::strerror(errno));
        std::stringstream text;
        text << in.rdbuf();
        const std::string pem = text.str();
        BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
        if (bio) key.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
        if (!key)
            throw std::runtime_error(where + "the signing key file is damaged: not a PEM private key (" + opensslError() +
                                     "); restore it from a backup, or move it aside to make a new key");
        if (EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
            throw std::runtime_error(where + "the signing key is not an Ed25519 key");
    } else {
        EVP_PKEY* made = nullptr;
        std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr),
                                                                        &EVP_PKEY_CTX_free);
        if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &made) != 1)
            throw std::runtime_error(where + "cannot make a signing key: " + opensslError());
        key.reset(made);
        BioPtr bio(BIO_new(BIO_s_mem()), &BIO_free);
        if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
            throw std::runtime_error(where + "cannot encode the signing key: " + opensslError());
        char* data = nullptr;
        const long n = BIO_get_mem_data(bio.get(), &data);
        if (!writeNewPrivateFile(path, std::string(data, static_cast<std::size_t>(n)))) {
            // Another process may have made it at the same moment: use that one.
            if (errno == EEXIST) return loadOrCreate(path);
            throw std::runtime_error(where + "cannot write the signing key: " + std::strerror(errno));
        }
        s.created_ = true;
    }
    s.publicKey_ = rawPublicKey(key.get());
    s.publicKeyPem_ = publicPem(key.get());
    s.key_ = std::shared_ptr<void>(key.release(), [](void* k) { EVP_PKEY_free(static_cast<EVP_PKEY*>(k)); });
    return s;
}

std::vector<std::uint8_t> Signer::sign(std::string_view message) const {
    MdCtxPtr ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    std::vector<std::uint8_t> sig(kSignatureBytes);
    std::size_t len = sig.size();
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, static_cast<EVP_PKEY*>(key_.get())) != 1 ||
        EVP_DigestSign(ctx.get(), sig.data(), &len, reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
        len != kSignatureBytes)
        throw std::runtime_error("Ed25519 signing failed: " + opensslError());
    return sig;
}

bool verifySignature(const std::vector<std::uint8_t>& publicKey, std::string_view message, const std::vector<std::uint8_t>& signature) {
    if (publicKey.size() != kPublicKeyBytes || signature.size() != kSignatureBytes) return false;
    PkeyPtr key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, publicKey.data(), publicKey.size()), &EVP_PKEY_free);
    MdCtxPtr ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    const bool ok = key && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
                    EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
    ERR_clear_error();
    return ok;
}

std::optional<std::vector<std::uint8_t>> parsePublicKey(std::string_view text) {
    text = trim(text);
    if (text.empty()) return std::nullopt;
    if (text.front() == '{') {
        const auto j = nlohmann::json::parse(text, nullptr, false);
        if (!j.is_object()) return std::nullopt;
        const auto k = j.find("publicKey");
        if (k == j.end() || !k->is_string() || k->get_ref<const std::string&>().starts_with("{")) return std::nullopt;
        return parsePublicKey(k->get_ref<const std::string&>());
    }
    if (text.starts_with("-----BEGIN")) {
        BioPtr bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free);
        PkeyPtr key(bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
        ERR_clear_error();
        if (!key || EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519) return std::nullopt;
        try {
            return rawPublicKey(key.get());
        } catch (const std::runtime_error&) {
            return std::nullopt;
        }
    }
    if (text.size() == 2 * kPublicKeyBytes)
        if (auto hex = fromHex(text)) return hex;
    if (auto raw = fromBase64(text); raw && raw->size() == kPublicKeyBytes) return raw;
    return std::nullopt;
}

std::string toBase64(const std::vector<std::uint8_t>& bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
        for (int k = 18; k >= 0; k -= 6) out.push_back(kAlphabet[(v >> k) & 63]);
    }
    if (const std::size_t rest = bytes.size() - i; rest > 0) {
        const std::uint32_t v = (bytes[i] << 16) | (rest == 2 ? bytes[i + 1] << 8 : 0);
        out.push_back(kAlphabet[(v >> 18) & 63]);
        out.push_back(kAlphabet[(v >> 12) & 63]);
        out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
        out.push_back('=');
    }
    return out;
}

std::string canonicalRecordBytes(const nlohmann::json& record) {
    if (!record.is_object() || !record.contains("signature")) return record.dump();
    nlohmann::json copy = record;
    copy.erase("signature");
    return copy.dump();
}

void signRecord(const Signer& signer, nlohmann::json& record) {
    const std::string bytes = canonicalRecordBytes(record);
    record["signature"] = {{"algorithm", "Ed25519"},
                           {"publicKey", toHex(signer.publicKey())},
                           {"value", toHex(signer.sign(bytes))}};
}

}  // namespace senet::fairness
