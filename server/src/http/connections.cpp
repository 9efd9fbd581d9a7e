#include "connections.hpp"

#include <arpa/inet.h>

#include <cstring>
#include <utility>

namespace senet::server {

ConnectionSlot& ConnectionSlot::operator=(ConnectionSlot&& other) noexcept {
    if (this != &other) {
        release();
        counter_ = std::exchange(other.counter_, nullptr);
        address_ = std::move(other.address_);
        total_ = other.total_;
    }
    return *this;
}

void ConnectionSlot::release() {
    if (counter_) counter_->release(address_, total_);
    counter_ = nullptr;
}

ConnectionSlot ConnectionCounter::acquire(const std::string& peer, int perAddress, bool countTotal, int total) {
    const std::string address = peer.empty() ? std::string() : addressGroup(peer);
    std::lock_guard lock(mutex_);
    if (countTotal && total_ >= total) return {};
    if (!address.empty()) {
        int& n = perAddress_[address];
        if (perAddress > 0 && n >= perAddress) {
            if (n == 0) perAddress_.erase(address);
            return {};
        }
        ++n;
    }
    if (countTotal && ++total_ && gauge_) gauge_->store(total_);
    return ConnectionSlot(this, address, countTotal);
}

int ConnectionCounter::total() const {
    std::lock_guard lock(mutex_);
    return total_;
}

void ConnectionCounter::release(const std::string& address, bool total) {
    std::lock_guard lock(mutex_);
    if (total) {
        --total_;
        if (gauge_) gauge_->store(total_);
    }
    if (address.empty()) return;
    auto it = perAddress_.find(address);
    if (it != perAddress_.end() && --it->second <= 0) perAddress_.erase(it);
}

std::string canonicalAddress(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text.size() > 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
    if (text.empty() || text.size() > 64) return {};
    const std::string s(text);
    char out[INET6_ADDRSTRLEN] = {};
    in_addr v4{};
    if (inet_pton(AF_INET, s.c_str(), &v4) == 1) return inet_ntop(AF_INET, &v4, out, sizeof out) ? out : "";
    in6_addr v6{};
    if (inet_pton(AF_INET6, s.c_str(), &v6) != 1) return {};
    static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(v6.s6_addr, kMapped, 12) == 0) {
        std::memcpy(&v4, v6.s6_addr + 12, 4);
        return inet_ntop(AF_INET, &v4, out, sizeof out) ? out : "";
    }
    return inet_ntop(AF_INET6, &v6, out, sizeof out) ? out : "";
}

std::string addressGroup(const std::string& address) {
    if (address.find(':') == std::string::npos) return address;
    in6_addr v6{};
    if (inet_pton(AF_INET6, address.c_str(), &v6) != 1) return address;
    std::memset(v6.s6_addr + 8, 0, 8);
    char out[INET6_ADDRSTRLEN] = {};
    if (!inet_ntop(AF_INET6, &v6, out, sizeof out)) return address;
    return std::string(out) + "/64";
}

bool isListed(const std::string& address, const std::vector<std::string>& list) {
    if (list.empty()) return false;
    const std::string c = canonicalAddress(address);
    for (const auto& l : list)
        if (l == c) return true;
    return false;
}

std::string clientAddress(const std::string& peer, std::string_view forwardedFor, const std::vector<std::string>& trustedProxies) {
    std::string client = canonicalAddress(peer);
    if (client.empty()) client = peer;
    if (!isListed(client, trustedProxies)) return client;
    // Walk from the right: each entry was added by the hop to its right.
    while (!forwardedFor.empty()) {
        const auto comma = forwardedFor.rfind(',');
        const std::string_view entry = comma == std::string_view::npos ? forwardedFor : forwardedFor.substr(comma + 1);
        forwardedFor = comma == std::string_view::npos ? std::string_view() : forwardedFor.substr(0, comma);
        const std::string address = canonicalAddress(entry);
        if (address.empty()) return client;  // garbage: trust nothing further left
        client = address;
        if (!isListed(client, trustedProxies)) return client;
    }
    return client;
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// "host:port" with the scheme's default port removed.
std::string_view withoutDefaultPort(std::string_view authority, std::string_view scheme) {
    const std::string_view port = scheme == "https" ? ":443" : ":80";
    if (authority.size() > port.size() && authority.ends_with(port)) authority.remove_suffix(port.size());
    return authority;
}

}  // namespace

bool originAllowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
    if (origin.empty()) return true;
    const std::string o = lower(origin);
    for (const auto& a : allowed)
        if (lower(a) == o) return true;
    const auto sep = o.find("://");
    if (sep == std::string::npos) return false;  // "null" and anything that is not an origin
    const std::string scheme = o.substr(0, sep);
    if (scheme != "http" && scheme != "https") return false;
    const std::string authority = o.substr(sep + 3);
    if (authority.empty() || authority.find_first_of("/?#@") != std::string::npos) return false;
    if (host.empty()) return false;
    const std::string h = lower(host);
    return withoutDefaultPort(authority, scheme) == withoutDefaultPort(h, scheme);
}

}  // namespace senet::server
