// The server's signature on verifiable records (server/PROTOCOL.md "Signed record"): an
// Ed25519 key pair kept in the data directory, and the checks `senet verify` makes with the
// public half. OpenSSL only.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace senet::fairness {

/// Bytes of an Ed25519 public key and of a signature.
inline constexpr std::size_t kPublicKeyBytes = 32;
inline constexpr std::size_t kSignatureBytes = 64;

/// An Ed25519 private key that signs records. Immutable after construction; sign() may be
/// called from several threads at once.
class Signer {
public:
    /// Loads the private key from `path` (PEM, PKCS#8 "PRIVATE KEY"), or, when no file is there,
    /// creates a new key pair and writes it there with mode 0600 (the directory must exist).
    /// Throws std::runtime_error whose message starts with the path when the file cannot be
    /// read or written, or does not hold an Ed25519 private key.
    static Signer loadOrCreate(const std::filesystem::path& path);

    /// Whether loadOrCreate made a new key (rather than loading one).
    bool created() const { return created_; }
    /// The 64-byte Ed25519 signature of `message`. Throws std::runtime_error if OpenSSL fails.
    std::vector<std::uint8_t> sign(std::string_view message) const;
    /// The 32 raw bytes of the public key.
    const std::vector<std::uint8_t>& publicKey() const { return publicKey_; }
    /// The public key as a PEM "PUBLIC KEY" block (SubjectPublicKeyInfo), ending with a newline.
    const std::string& publicKeyPem() const { return publicKeyPem_; }

private:
    Signer() = default;
    std::shared_ptr<void> key_;  // EVP_PKEY, freed with EVP_PKEY_free
    std::vector<std::uint8_t> publicKey_;
    std::string publicKeyPem_;
    bool created_ = false;
};

/// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey` (32 raw bytes).
/// False for keys or signatures of the wrong size; never throws.
bool verifySignature(const std::vector<std::uint8_t>& publicKey, std::string_view message,
                     const std::vector<std::uint8_t>& signature);

/// A public key from text: 64 hex digits, base64 of the 32 raw bytes, a PEM "PUBLIC KEY" block,
/// or the JSON object `GET /api/key` answers (its "publicKey" member). Surrounding white space is
/// ignored. nullopt when it is none of these or not an Ed25519 key.
std::optional<std::vector<std::uint8_t>> parsePublicKey(std::string_view text);

/// Standard base64 (with padding) of bytes.
std::string toBase64(const std::vector<std::uint8_t>& bytes);

/// The bytes a record's signature covers: `record` without its "signature" member, serialized
/// by nlohmann::json::dump() (no white space, object members sorted by key, strings as UTF-8).
/// Throws nlohmann::json::type_error for invalid UTF-8 in a string.
std::string canonicalRecordBytes(const nlohmann::json& record);

/// Adds the "signature" member to `record` (replacing any): {"algorithm": "Ed25519",
/// "publicKey": hex, "value": hex of the signature of canonicalRecordBytes(record)}.
void signRecord(const Signer& signer, nlohmann::json& record);

}  // namespace senet::fairness
